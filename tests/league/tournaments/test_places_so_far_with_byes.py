"""Places mid-event in a bracket with byes (issue 18): a top seed who skipped the first round
stands with that round's winners, and a player still waiting on a first match stands above
those who lost theirs, instead of both ranking last."""

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
