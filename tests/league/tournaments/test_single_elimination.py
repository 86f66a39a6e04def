"""Single elimination: seeding order, byes to top seeds, third place, routing, corrections."""

import json

import pytest

from league.tournaments.brackets import champion, resolve, seeding_order, single_elimination


def play(bracket, seeds, winner_of):
    """Report every ready match, winner chosen by ``winner_of(a, b)``, until none is left."""
    results = {}
    while True:
        state = resolve(bracket, seeds, results)
        ready = [m for m in bracket.matches if state[m.id].status == "ready"]
        if not ready:
            return results, state
        for m in ready:
            a, b = state[m.id].players
            w = winner_of(a, b)
            results[m.id] = (w, b if w == a else a)


def higher_seed(seeds):
    rank = {p: i for i, p in enumerate(seeds)}
    return lambda a, b: a if rank[a] < rank[b] else b


def test_standard_seeding_order_puts_one_against_the_last_and_keeps_top_seeds_apart():
    assert seeding_order(2) == [1, 2]
    assert seeding_order(4) == [1, 4, 2, 3]
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seeding_order(16)
    assert sorted(order) == list(range(1, 17))
    # Every first-round pair adds up to size + 1.
    assert all(order[i] + order[i + 1] == 17 for i in range(0, 16, 2))
    # 1 and 2 are in opposite halves, 1-4 and 2-3 in different quarters.
    assert 1 in order[:8] and 2 in order[8:]
    assert {1, 2, 3, 4} == {order[0], order[4], order[8], order[12]}
    with pytest.raises(ValueError):
        seeding_order(6)


def test_eight_players_give_seven_matches_and_the_top_two_seeds_meet_only_in_the_final():
    bracket = single_elimination(8)
    assert len(bracket.matches) == 7 and bracket.byes == ()
    assert [m.seeds for m in bracket.rounds("main")[0]] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    seeds = [f"p{i}" for i in range(1, 9)]
    _, state = play(bracket, seeds, higher_seed(seeds))
    final = bracket.rounds("main")[-1][0]
    assert set(state[final.id].players) == {"p1", "p2"}
    assert champion(bracket, state) == "p1"


def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two():
    bracket = single_elimination(6)
    assert bracket.size == 8 and bracket.byes == (1, 2)
    first = bracket.rounds("main")[0]
    assert [m.seeds for m in first] == [(4, 5), (3, 6)]
    # Seeds 1 and 2 wait in round two for the winners.
    second = bracket.rounds("main")[1]
    assert [str(s) for s in second[0].sources] == ["seed 1", f"winner of {first[0].id}"]
    assert [str(s) for s in second[1].sources] == ["seed 2", f"winner of {first[1].id}"]
    assert len(bracket.matches) == 5  # n - 1 matches, byes are not matches


@pytest.mark.parametrize("entrants", [2, 3, 5, 7, 12, 16, 33])
def test_any_field_size_needs_exactly_one_match_per_eliminated_player(entrants):
    bracket = single_elimination(entrants)
    assert len(bracket.matches) == entrants - 1
    assert len(bracket.byes) == bracket.size - entrants
    assert bracket.byes == tuple(range(1, bracket.size - entrants + 1))
    seeds = list(range(100, 100 + entrants))
    _, state = play(bracket, seeds, higher_seed(seeds))
    assert champion(bracket, state) == 100


def test_the_third_place_match_is_fed_by_the_semifinal_losers():
    bracket = single_elimination(8, third_place=True)
    third = [m for m in bracket.matches if m.bracket == "third_place"]
    assert len(third) == 1 and len(bracket.matches) == 8
    semis = bracket.rounds("main")[1]
    assert [str(s) for s in third[0].sources] == [f"loser of {semis[0].id}", f"loser of {semis[1].id}"]
    assert semis[0].loser_to == (third[0].id, 0) and semis[1].loser_to == (third[0].id, 1)
    seeds = list("ABCDEFGH")
    _, state = play(bracket, seeds, higher_seed(seeds))
    assert set(state[third[0].id].players) == {"C", "D"}


def test_every_match_routes_its_winner_into_the_match_that_names_it_as_a_source():
    bracket = single_elimination(11, third_place=True)
    for m in bracket.matches:
        for side, source in enumerate(m.sources):
            if source.kind == "winner":
                assert bracket.match(source.ref).winner_to == (m.id, side)
            if source.kind == "loser":
                assert bracket.match(source.ref).loser_to == (m.id, side)
    ids = [m.id for m in bracket.matches]
    assert ids == [f"M{i}" for i in range(1, len(ids) + 1)]


def test_a_corrected_result_reroutes_the_winner_and_voids_matches_that_no_longer_stand():
    bracket = single_elimination(4)
    seeds = ["A", "B", "C", "D"]  # round one: A-D (M1) and B-C (M2); final M3
    results = {"M1": ("A", "D"), "M2": ("B", "C"), "M3": ("A", "B")}
    state = resolve(bracket, seeds, results)
    assert state["M3"].status == "done" and champion(bracket, state) == "A"
    # The organiser rules that D actually won M1: the final A-B no longer stands.
    results["M1"] = ("D", "A")
    state = resolve(bracket, seeds, results)
    assert state["M3"].players == ("D", "B")
    assert state["M3"].status == "void"
    assert champion(bracket, state) is None
    results["M3"] = ("B", "D")
    assert champion(bracket, resolve(bracket, seeds, results)) == "B"


def test_a_match_waits_until_both_players_are_known():
    bracket = single_elimination(4)
    state = resolve(bracket, ["A", "B", "C", "D"], {"M1": ("A", "D")})
    assert state["M2"].status == "ready"
    assert state["M3"].status == "waiting" and state["M3"].players == ("A", None)


def test_a_result_naming_someone_not_in_the_match_does_not_stand():
    state = resolve(single_elimination(2), ["A", "B"], {"M1": ("A", "Z")})
    assert state["M1"].status == "void"


def test_too_few_entrants_or_the_wrong_number_of_seeds_are_refused():
    with pytest.raises(ValueError):
        single_elimination(1)
    with pytest.raises(ValueError):
        resolve(single_elimination(4), ["A", "B"], {})


def test_the_bracket_serialises_to_plain_json_for_pages():
    data = single_elimination(6, third_place=True).as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["byes"] == [1, 2]
    second = [m for m in data["matches"] if m["bracket"] == "main" and m["round"] == 2]
    assert second[0]["sources"] == ["seed 1", "winner of M1"]
    assert second[0]["seeds"] == [1, None]
    assert second[0]["winner_to"] == ["M6", 0] and second[0]["loser_to"] == ["M5", 0]
