"""Places mid-event in a bracket (issue 18): a top seed who skipped the first round stands with
that round's winners, a player still waiting on a first match stands above those who lost theirs,
and everyone still in stands above everyone already out (a double elimination's losers' bracket
is played after the winners' first round, so its first knock-outs would otherwise rank high)."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.standings import standings
from matches.commands import AT_HEAD

from .helpers import field, open_pairings, open_tournament, pid, state

pytestmark = pytest.mark.django_db


def places(t):
    return {r["name"]: r["rank"] for r in standings(state(t))["tables"][0]["rows"]}


@pytest.mark.parametrize("fmt", ["single_elimination", "double_elimination"])
def test_bye_holding_top_seeds_do_not_rank_last_after_the_first_results(alice, fmt):
    players = field(6)  # a bracket of eight: seeds 1 and 2 skip the first round
    t = open_tournament(alice, fmt, players, start=True)
    first_round = sorted(open_pairings(t), key=lambda r: r["id"])
    assert len(first_round) == 2
    decided = first_round[0]
    winner, loser = decided["players"]
    services.tournament_rule(
        tournament=t, pairing=decided["id"], by=alice, result={"winner": winner}, expected_seq=AT_HEAD
    )
    rank = places(t)
    names = {pid(p): p.username for p in players}
    waiting = [names[p] for p in first_round[1]["players"]]
    # Seeds 1 and 2 (byes) share the first-round winner's place, at the top.
    assert rank["p01"] == rank["p02"] == rank[names[winner]] == 1
    # Those still to play their first match come next, and the one who lost comes last.
    assert rank[waiting[0]] == rank[waiting[1]] == 4
    assert rank[names[loser]] == 6
    assert max(rank.values()) == rank[names[loser]]


def rule_all_open(t, alice, prefix: str, lower_seed_wins=True):
    """Rule every open pairing of bracket matches named in ``prefix``: the first-listed player wins."""
    for record in open_pairings(t):
        if record["bracket_match"] in prefix:
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=alice,
                result={"winner": record["players"][0]},
                expected_seq=AT_HEAD,
            )


def test_mid_event_a_double_elimination_ranks_everyone_still_in_above_everyone_out(alice):
    # Eight players: the winners' first round (M1-M4), then the losers' first round (M8, M9) is
    # played before the winners' second round. The two knocked out in the losers' bracket are
    # the only players out: they rank last, below the four unbeaten and the two with one loss.
    players = field(8)
    t = open_tournament(alice, "double_elimination", players, start=True)
    rule_all_open(t, alice, ("M1", "M2", "M3", "M4"))
    rule_all_open(t, alice, ("M8", "M9"))
    s = state(t)
    by_match = {r["bracket_match"]: r for r in s["pairings"].values() if r["result"]}
    unbeaten = {by_match[m]["result"]["winner"] for m in ("M1", "M2", "M3", "M4")}
    one_loss = {by_match[m]["result"]["winner"] for m in ("M8", "M9")}
    out = {p for m in ("M8", "M9") for p in by_match[m]["players"]} - one_loss
    names = {pid(p): p.username for p in players}
    rank = places(t)
    assert {rank[names[p]] for p in unbeaten} == {1}
    assert {rank[names[p]] for p in one_loss} == {5}
    assert {rank[names[p]] for p in out} == {7}


def test_mid_event_a_single_elimination_puts_a_player_still_in_level_with_or_above_the_knocked_out(alice):
    # After the quarter-finals and one semi-final: the finalist waits at the top, the two still to
    # play their semi-final come next, the semi-final's loser below them, the quarter-finals' losers last.
    players = field(8)
    t = open_tournament(alice, "single_elimination", players, start=True)
    rule_all_open(t, alice, ("M1", "M2", "M3", "M4"))
    rule_all_open(t, alice, ("M5",))
    s = state(t)
    by_match = {r["bracket_match"]: r for r in s["pairings"].values()}
    names = {pid(p): p.username for p in players}
    semi = by_match["M5"]
    finalist, semi_loser = semi["result"]["winner"], next(p for p in semi["players"] if p != semi["result"]["winner"])
    waiting = by_match["M6"]["players"]
    rank = places(t)
    assert rank[names[finalist]] == 1
    assert rank[names[waiting[0]]] == rank[names[waiting[1]]] == 2
    assert rank[names[semi_loser]] == 4
    quarter_losers = [
        p for m in ("M1", "M2", "M3", "M4") for p in by_match[m]["players"] if p != by_match[m]["result"]["winner"]
    ]
    assert {rank[names[p]] for p in quarter_losers} == {5}
