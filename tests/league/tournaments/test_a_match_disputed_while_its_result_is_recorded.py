"""A pairing's platform match found disputed in the moment between the platform reading it and
taking the tournament's lock records no result: the match is read again under the lock, so a
disputed match's result is never recorded (not recorded and retracted by a sweep later)."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.services import results
from league.tournaments.verification import verify_tournament
from matches.commands import AT_HEAD
from matches.models import Event, Match, Stream
from matches.verification import match_verify

from .helpers import field, open_tournament, state
from .test_tournament_platform_matches import play_out

pytestmark = pytest.mark.django_db


def verified_match(organiser):
    """A Swiss pairing's platform match, played out and verified, its result not yet recorded
    (the verdict's follow-ups are not run: the test records it by hand)."""
    players = field(2)
    t = open_tournament(organiser, "swiss", players, start=True)
    pairing = next(iter(state(t)["pairings"]))
    out = services.tournament_match_create(tournament=t, pairing=pairing, by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"][pairing]["match_id"])
    match = play_out(match, {s.index: s.user for s in match.seats.all()})
    assert match_verify(match_id=match.id).verified
    return t, pairing, match


def dispute(match: Match) -> None:
    """The match's published result altered, and a verification finding it out."""
    honest = Match.objects.get(pk=match.pk).result
    Match.objects.filter(pk=match.pk).update(result={**honest, "placements": list(reversed(honest["placements"]))})
    assert not match_verify(match_id=match.id).verified


def test_a_match_disputed_between_the_read_and_the_lock_records_no_result(alice, monkeypatch):
    t, pairing, match = verified_match(alice)
    run = results._run
    raced = []

    def disputed_just_before_the_lock(**kwargs):
        if not raced:  # the verification's write lands once, just before the first lock
            raced.append(True)
            dispute(match)
        return run(**kwargs)

    monkeypatch.setattr(results, "_run", disputed_just_before_the_lock)
    assert services.tournament_record_match(match_id=match.id) == "disputed"

    record = state(t)["pairings"][pairing]
    assert record["status"] == "disputed" and record["result"] is None
    assert "verified" not in [h["event"] for h in record["history"]]
    assert not Event.objects.filter(stream_id=t.stream_id, type="result.verified").exists()
    assert verify_tournament(Stream.objects.get(pk=t.stream_id)).ok


def test_a_match_still_verified_under_the_lock_is_recorded_once(alice, monkeypatch):
    t, pairing, match = verified_match(alice)
    assert services.tournament_record_match(match_id=match.id) == "recorded"
    assert services.tournament_record_match(match_id=match.id) == "recorded"
    assert Event.objects.filter(stream_id=t.stream_id, type="result.verified").count() == 1
    assert state(t)["pairings"][pairing]["status"] == "final"
