"""A pairing's platform match found disputed before its result was ever recorded stays before
the organiser when a later verification finds it verified (the tampering undone): a dispute is
final for the tournament, as for the season and the ratings, whichever verdict came first."""

from __future__ import annotations

import pytest

from league.tournaments import receivers, services
from league.tournaments.verification import verify_tournament
from matches.commands import AT_HEAD
from matches.models import Match, Stream
from matches.verification import match_verify

from .helpers import field, open_tournament, state
from .test_tournament_platform_matches import play_out

pytestmark = pytest.mark.django_db


def test_a_pairing_whose_match_was_disputed_records_no_result_when_the_match_verifies_later(
    alice, django_capture_on_commit_callbacks
):
    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    out = services.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["M1"]["match_id"])
    match = play_out(match, {s.index: s.user for s in match.seats.all()})  # no verdict yet
    honest = dict(match.result)
    Match.objects.filter(pk=match.pk).update(result={**honest, "placements": list(reversed(honest["placements"]))})
    with django_capture_on_commit_callbacks(execute=True):
        assert not match_verify(match_id=match.id).verified
    Match.objects.filter(pk=match.pk).update(result=honest)
    with django_capture_on_commit_callbacks(execute=True):
        assert match_verify(match_id=match.id).verified
    assert services.tournament_record_match(match_id=match.id) == "disputed"
    record = state(t)["pairings"]["M1"]
    assert record["result"] is None and record["status"] == "disputed"
    assert [h["event"] for h in record["history"]].count("match_disputed") == 1
    assert "verified" not in [h["event"] for h in record["history"]]


def test_a_recorded_result_whose_retraction_was_lost_is_retracted_when_the_match_verifies_again(
    alice, django_capture_on_commit_callbacks, monkeypatch
):
    # Verified, recorded; then found disputed, and the retraction that verdict sent was lost (a
    # broker restart); then verified again. The later verdict must not leave the result standing.
    # A Swiss round, where a drawn game is a result too: a server-dealt game may end level, and a
    # bracket would put that before the organiser instead of recording it.
    players = field(2)
    t = open_tournament(alice, "swiss", players, start=True)
    pairing = next(iter(state(t)["pairings"]))
    out = services.tournament_match_create(tournament=t, pairing=pairing, by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"][pairing]["match_id"])
    match = play_out(match, {s.index: s.user for s in match.seats.all()})
    with django_capture_on_commit_callbacks(execute=True):
        assert match_verify(match_id=match.id).verified
    assert state(t)["pairings"][pairing]["status"] == "final"
    honest = dict(match.result)
    Match.objects.filter(pk=match.pk).update(result={**honest, "placements": list(reversed(honest["placements"]))})
    with monkeypatch.context() as lost:
        lost.setattr(receivers.retract_tournament_match, "delay", lambda match_id: None)
        with django_capture_on_commit_callbacks(execute=True):
            assert not match_verify(match_id=match.id).verified
    assert state(t)["pairings"][pairing]["status"] == "final"  # the retraction never ran
    Match.objects.filter(pk=match.pk).update(result=honest)
    with django_capture_on_commit_callbacks(execute=True):
        assert match_verify(match_id=match.id).verified

    record = state(t)["pairings"][pairing]
    assert record["status"] == "disputed" and record["result"] is None
    assert "an earlier verification found the match disputed" in record["history"][-1]["reason"]
    # The stream still verifies: the retracted result is the one the match gives.
    assert verify_tournament(Stream.objects.get(pk=t.stream_id)).ok
