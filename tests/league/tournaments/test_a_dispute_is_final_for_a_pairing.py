"""A pairing's platform match found disputed before its result was ever recorded stays before
the organiser when a later verification finds it verified (the tampering undone): a dispute is
final for the tournament, as for the season and the ratings, whichever verdict came first."""

from __future__ import annotations

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from matches.models import Match
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
