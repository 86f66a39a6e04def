"""The analysis of a finished match: the odds of every chance event, luck per seat, computed once."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engines.odds import uniform_outcome_probability
from matches.analysis.models import MatchAnalysis
from matches.autoplay import autoplay_match
from matches.models import Event

from ..helpers import new_duel

pytestmark = pytest.mark.django_db


def _exact(value: dict) -> Fraction:
    return Fraction(value["exact"])


@pytest.fixture
def finished(db):
    return autoplay_match(game="dueling-wizards", seats=2)


def test_every_chance_event_of_a_finished_match_gets_the_exact_probability_of_its_outcome(client_for, finished):
    body = client_for().get(f"/api/matches/{finished.id}/analysis/").json()
    chance = list(Event.objects.filter(stream_id=finished.stream_id, type="chance").order_by("seq"))
    assert [e["seq"] for e in body["chance_events"]] == [e.seq for e in chance]
    for row, event in zip(body["chance_events"], chance):
        # Every chance kind is uniform over its outcomes: the outcome's odds follow from its spec.
        assert _exact(row["p_outcome"]) == uniform_outcome_probability(event.data["spec"])
        assert row["outcome"] == event.data["outcome"]


def test_the_luck_line_ends_at_each_seats_total_and_totals_are_the_sums_of_the_events(client_for, finished):
    body = client_for().get(f"/api/matches/{finished.id}/analysis/").json()
    totals = body["luck"]["totals"]
    assert [t["seat"] for t in totals] == [0, 1]
    for t in totals:
        summed = sum(
            (_exact(e["luck"][str(t["seat"])]) for e in body["chance_events"] if str(t["seat"]) in e["luck"]),
            Fraction(0),
        )
        assert _exact(t["luck"]) == summed
        assert _exact(t["luck"]) == _exact(t["actual"]) - _exact(t["expected"])
    series = body["luck"]["series"]
    assert series[0] == {"seq": 0, "luck": [0.0, 0.0]}
    assert series[-1]["luck"] == [round(t["luck"]["value"], 6) for t in totals]
    assert body["explained"].startswith("Luck counts")


def test_the_analysis_is_computed_once_and_kept(client_for, finished):
    client = client_for()
    first = client.get(f"/api/matches/{finished.id}/analysis/").json()
    stored = MatchAnalysis.objects.get(match=finished)
    again = client.get(f"/api/matches/{finished.id}/analysis/").json()
    assert again["computed_at"] == first["computed_at"]
    assert MatchAnalysis.objects.get(match=finished).computed_at == stored.computed_at


def test_an_analysis_made_by_other_odds_code_or_an_older_analysis_is_computed_again(client_for, finished):
    client = client_for()
    client.get(f"/api/matches/{finished.id}/analysis/")
    # As if the engine's odds code had changed since (new stakes), then as if this analysis had.
    MatchAnalysis.objects.filter(match=finished).update(odds_fingerprint="older-code", data={"stale": True})
    body = client.get(f"/api/matches/{finished.id}/analysis/").json()
    assert body["chance_events"] and MatchAnalysis.objects.get(match=finished).odds_fingerprint != "older-code"
    MatchAnalysis.objects.filter(match=finished).update(analysis_version=0, data={"stale": True})
    assert client.get(f"/api/matches/{finished.id}/analysis/").json()["chance_events"]
    assert MatchAnalysis.objects.get(match=finished).analysis_version >= 1


def test_a_live_match_is_not_analysed_since_its_odds_would_tell_hidden_cards(client_for, alice):
    match = new_duel(alice, bots=("random",))
    response = client_for(alice).get(f"/api/matches/{match.id}/analysis/")
    assert response.status_code == 409
    assert response.json()["code"] == "match_not_finished"
    assert not MatchAnalysis.objects.exists()


def test_an_unknown_match_has_no_analysis(client_for):
    response = client_for().get("/api/matches/00000000-0000-0000-0000-000000000000/analysis/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_stream_the_engine_will_not_replay_is_not_analysed_nor_counted(client_for, finished, monkeypatch):
    from engines.base import IllegalAction
    from matches.analysis.services import analyses_fill
    from matches.models import Match
    from matches.selectors import engine_for

    def refuse(state, event):
        raise IllegalAction("Not in these rules.", code="illegal_action")

    monkeypatch.setattr(engine_for(finished), "apply", refuse)
    response = client_for().get(f"/api/matches/{finished.id}/analysis/")
    assert response.status_code == 409 and response.json()["code"] == "analysis_failed"
    assert analyses_fill(matches=Match.objects.filter(pk=finished.pk), limit=5) == 0
    assert not MatchAnalysis.objects.exists()
