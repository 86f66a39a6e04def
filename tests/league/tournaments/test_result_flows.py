"""Reporting results (issue 6, flows): both players report, confirm or dispute; the
organiser rules, records no-shows and double forfeits; refusals write nothing."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.standings import round_standings
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.models import Event

from .helpers import at_head, field, open_tournament, pid, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    s = state(t)
    record = s["pairings"]["r1-1"]
    a, b = (next(p for p in players if pid(p) == x) for x in record["players"])
    return t, a, b, players


def count(t):
    return Event.objects.filter(stream_id=t.stream_id).count()


def refused(t, code, fn, **kwargs):
    before = count(t)
    with pytest.raises(Refusal) as exc:
        fn(tournament=t, **kwargs, **at_head(fn))
    assert exc.value.code == code, exc.value.message
    assert count(t) == before


def test_a_report_confirmed_by_the_opponent_becomes_final(swiss):
    t, a, b, _ = swiss
    services.tournament_report(
        tournament=t, pairing="r1-1", user=a, result={"winner": a.username}, expected_seq=AT_HEAD
    )
    assert state(t)["pairings"]["r1-1"]["status"] == "reported"
    refused(t, "cannot_confirm_own_report", services.tournament_confirm, pairing="r1-1", user=a)
    services.tournament_confirm(tournament=t, pairing="r1-1", user=b, expected_seq=AT_HEAD)
    record = state(t)["pairings"]["r1-1"]
    assert record["status"] == "final" and record["result"] == {"winner": pid(a)} and record["source"] == "players"


def test_two_matching_reports_confirm_and_two_different_ones_go_to_dispute(swiss):
    t, a, b, players = swiss
    services.tournament_report(tournament=t, pairing="r1-1", user=a, result={"draw": True}, expected_seq=AT_HEAD)
    out = services.tournament_report(tournament=t, pairing="r1-1", user=b, result={"draw": True}, expected_seq=AT_HEAD)
    assert out.events[0].type == "result.confirmed"
    s = state(t)
    c, d = s["pairings"]["r1-2"]["players"]
    services.tournament_report(
        tournament=t, pairing="r1-2", user=_u(players, c), result={"winner": c}, expected_seq=AT_HEAD
    )
    out = services.tournament_report(
        tournament=t, pairing="r1-2", user=_u(players, d), result={"winner": d}, expected_seq=AT_HEAD
    )
    assert out.events[0].type == "result.disputed"
    assert state(t)["pairings"]["r1-2"]["status"] == "disputed"
    refused(t, "disputed", services.tournament_report, pairing="r1-2", user=_u(players, c), result={"winner": c})


def _u(players, p):
    return next(u for u in players if pid(u) == p)


def test_the_organiser_rules_on_a_dispute(swiss, alice):
    t, a, b, _ = swiss
    services.tournament_report(tournament=t, pairing="r1-1", user=a, result={"winner": pid(a)}, expected_seq=AT_HEAD)
    services.tournament_dispute(tournament=t, pairing="r1-1", user=b, reason="I won on time", expected_seq=AT_HEAD)
    services.tournament_rule(
        tournament=t, pairing="r1-1", by=alice, result={"winner": pid(b)}, reason="clock log", expected_seq=AT_HEAD
    )
    record = state(t)["pairings"]["r1-1"]
    assert record["status"] == "final" and record["source"] == "ruling" and record["result"] == {"winner": pid(b)}
    assert [h["event"] for h in record["history"]] == ["reported", "disputed", "ruled"]
    refused(t, "result_final", services.tournament_rule, pairing="r1-1", by=alice, result={"winner": pid(a)})


def test_only_the_pairings_players_report_and_results_must_name_them(swiss):
    t, a, b, players = swiss
    outsider = next(p for p in players if p not in (a, b))
    refused(t, "not_your_pairing", services.tournament_report, pairing="r1-1", user=outsider, result={"winner": pid(a)})
    refused(t, "bad_result", services.tournament_report, pairing="r1-1", user=a, result={"winner": pid(outsider)})
    refused(t, "bad_result", services.tournament_report, pairing="r1-1", user=a, result="a won")
    refused(t, "nothing_to_confirm", services.tournament_confirm, pairing="r1-1", user=b)


def test_a_final_result_cannot_be_reported_again_only_corrected(swiss, alice):
    t, a, b, _ = swiss
    services.tournament_rule(tournament=t, pairing="r1-1", by=alice, result={"winner": pid(a)}, expected_seq=AT_HEAD)
    refused(t, "result_final", services.tournament_report, pairing="r1-1", user=b, result={"winner": pid(b)})
    refused(t, "result_final", services.tournament_dispute, pairing="r1-1", user=b)
    refused(t, "result_not_final", services.tournament_correct, pairing="r1-2", by=alice, result={"draw": True})


def test_a_no_show_is_a_forfeit_win_and_nobody_showing_is_a_double_forfeit(swiss, alice):
    t, a, b, _ = swiss
    services.tournament_no_show(tournament=t, pairing="r1-1", by=alice, absent=[b.username], expected_seq=AT_HEAD)
    s = state(t)
    c, d = s["pairings"]["r1-2"]["players"]
    services.tournament_no_show(tournament=t, pairing="r1-2", by=alice, absent=[c, d], expected_seq=AT_HEAD)
    s = state(t)
    assert s["pairings"]["r1-1"]["result"] == {"winner": pid(a), "forfeit": True}
    assert s["pairings"]["r1-2"]["result"] == {"double_forfeit": True}
    scores = {r["player"]: r["score"] for r in round_standings(s)}
    assert scores[pid(a)] == 1 and scores[pid(b)] == 0 and scores[c] == 0 and scores[d] == 0
    refused(t, "result_final", services.tournament_no_show, pairing="r1-1", by=alice, absent=[pid(a)])


def test_naming_someone_outside_the_pairing_as_absent_is_refused(swiss, alice):
    t, a, b, players = swiss
    outsider = next(p for p in players if p not in (a, b))
    refused(t, "bad_absent", services.tournament_no_show, pairing="r1-1", by=alice, absent=[outsider.username])
    refused(t, "bad_absent", services.tournament_no_show, pairing="r1-1", by=alice, absent=[])
