"""Issue 16: an elimination event with a third-place match is not finished, and its
places are not final, until that match is played; a playoff after three groups never
pairs two players of one group in its first round."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.brackets import decided, resolve, separate_groups, single_elimination
from league.tournaments.standings import progress, standings
from matches.commands import AT_HEAD

from .helpers import field, lower_id_wins, open_tournament, settle, state

pytestmark = pytest.mark.django_db


def rule(t, organiser, match_id, winner):
    services.tournament_rule(
        tournament=t, pairing=match_id, by=organiser, result={"winner": winner}, expected_seq=AT_HEAD
    )


def test_the_event_is_not_finished_while_the_third_place_match_is_pending(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players, start=True, third_place=True)
    s = state(t)
    bracket = {m: s["pairings"][m] for m in s["pairings"]}
    semis = [r for r in bracket.values() if r["status"] == "pending"]
    for record in semis:
        rule(t, alice, record["id"], record["players"][0])
    s = state(t)
    final = next(
        r
        for r in s["pairings"].values()
        if r["status"] == "pending" and r["id"] != "M3" and set(r["players"]) == {sm["players"][0] for sm in semis}
    )
    third = next(r for r in s["pairings"].values() if r["status"] == "pending" and r["id"] != final["id"])
    rule(t, alice, final["id"], final["players"][0])
    s = state(t)
    # The final is decided, the third-place match is not: the event is still running and
    # its places are only "so far" (today it said "finished" and "Final places").
    assert progress(s)["status"] == "running" and not progress(s)["finished"]
    assert standings(s)["tables"][0]["title"] == "Places so far"
    t.refresh_from_db()
    assert t.status == "running"
    rule(t, alice, third["id"], third["players"][1])
    s = state(t)
    assert progress(s)["finished"]
    table = standings(s)["tables"][0]
    assert table["title"] == "Final places"
    assert [r["player"] for r in table["rows"]][2:] == [third["players"][1], third["players"][0]]
    assert [r["rank"] for r in table["rows"]] == [1, 2, 3, 4]


def test_a_bracket_is_decided_only_when_no_match_is_left_to_play():
    bracket = single_elimination(4, third_place=True)
    seeds = ["a", "b", "c", "d"]
    semis = [m for m in bracket.matches if m.bracket == "main" and m.round == 1]
    results = {m.id: (seeds[m.sources[0].ref - 1], seeds[m.sources[1].ref - 1]) for m in semis}
    final = next(m for m in bracket.matches if m.bracket == "main" and m.round == 2)
    third = next(m for m in bracket.matches if m.bracket == "third_place")
    results[final.id] = ("a", "b")
    assert not decided(bracket, resolve(bracket, seeds, results))
    results[third.id] = ("c", "d")
    assert decided(bracket, resolve(bracket, seeds, results))


def test_a_playoff_after_three_groups_meets_no_group_mate_in_its_first_round(alice):
    # Three groups of three, two advance: seeds A1 B1 C1 A2 B2 C2 in a bracket of eight
    # put seed 3 (C1) against seed 6 (C2) in the standard order.
    players = field(9)
    t = open_tournament(alice, "groups_playoff", players, start=True, groups=3, advance=2)
    s = state(t)
    while progress(s)["can_pair_next"] or progress(s)["open_pairings"]:
        if progress(s)["open_pairings"]:
            settle(t, lower_id_wins)
        else:
            services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
        s = state(t)
        if s["bracket"] is not None:
            break
    assert s["bracket"] is not None
    group_of = {p: g for g, members in enumerate(s["groups"]) for p in members}
    first_round = [r for r in s["pairings"].values() if r["bracket_match"] and r["status"] == "pending"]
    assert len(first_round) == 2
    for record in first_round:
        a, b = record["players"]
        assert group_of[a] != group_of[b], record
    # The three group winners keep the top three seeds (two of them have the byes).
    winners = {next(tb for tb in standings(s)["tables"] if tb.get("group") == g)["rows"][0]["player"] for g in range(3)}
    assert set(s["bracket"]["seeds"][:3]) == winners


def test_separate_groups_keeps_each_seed_in_its_place_block():
    bracket = single_elimination(6)
    seeds = ["A1", "B1", "C1", "A2", "B2", "C2"]
    group_of = {p: p[0] for p in seeds}
    out = separate_groups(bracket, seeds, group_of, [3, 3])
    assert out[:3] == ["A1", "B1", "C1"] and sorted(out[3:]) == ["A2", "B2", "C2"]
    for m in bracket.matches:
        a, b = m.sources
        if a.kind == b.kind == "seed":
            assert group_of[out[a.ref - 1]] != group_of[out[b.ref - 1]]
    # Nothing to separate: the seeds come back as they were.
    assert separate_groups(
        single_elimination(4), ["A1", "B1", "A2", "B2"], {"A1": 0, "B1": 1, "A2": 0, "B2": 1}, [2, 2]
    ) == ["A1", "B1", "A2", "B2"]
