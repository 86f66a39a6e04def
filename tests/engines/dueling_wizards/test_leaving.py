"""Version 3: a wizard who resigns or runs out of time while two others still duel leaves the duel,
and the others duel on (RULES.md, "Leaving the duel"; the platform's ruling "Leaving").

Rulebook, The End (L71-72): "When a player reaches zero health points, they are defeated and out of
the game. The last player to have hit points left is the winner." A wizard who leaves is out of the
game as a defeated one is; the rulebook says nothing of leaving, so what the wizard owed is settled
by the engine's ruling. The Play (L57-58): "play is passed to the left for a new attacker"."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction
from engines.dueling_wizards import ENGINE, ENGINE_V1, ENGINE_V2

from .helpers import attack, deal, defend, finish_draws, position


def three_dealt():
    return deal([["R9", "P2", "S3"], ["L4", "W5", "R2"], ["P7", "S8", "L9"]])


def test_version_three_is_current_and_versions_one_and_two_do_not_play_on():
    assert registry.get("dueling-wizards") is ENGINE and ENGINE.version == "3"
    state = ENGINE_V2.setup({"jokers": True}, 3)
    assert ENGINE_V2.leave(state, 1) is None
    assert ENGINE_V1.leave(ENGINE_V1.setup({"jokers": True}, 3), 1) is None
    assert not ENGINE_V2.current and not ENGINE_V1.current


def test_a_defender_who_leaves_is_out_and_the_two_others_duel_on():
    # The End (L71): out of the game, as a defeated wizard is.
    state = defend(three_dealt(), 1, "W5")
    before = repr(state)
    after = ENGINE.leave(state, 1)
    assert repr(state) == before  # never changes its input
    assert not ENGINE.in_game(after, 1) and after["alive"] == [True, False, True]
    # The defence laid and the spell book leave play face up; the duel goes on with seat 2 to defend.
    assert after["hands"][1] == [] and after["defences"][1] is None
    assert {"W5", "L4", "R2"} <= set(after["discard"])
    assert ENGINE.to_move(after) == [2]
    after = defend(after, 2, "P7")
    assert ENGINE.to_move(after) == [0]


def test_the_last_defender_to_choose_leaving_brings_the_attack():
    state = defend(three_dealt(), 1, "W5")
    after = ENGINE.leave(state, 2)
    assert after["phase"] == "attack" and ENGINE.to_move(after) == [0]


def test_an_attacker_who_leaves_voids_the_round_and_the_attack_passes_to_the_left():
    # The Play (L57-58): play passes to the left. The defences were face down: they go back unseen.
    state = defend(defend(three_dealt(), 1, "W5"), 2, "P7")
    assert ENGINE.to_move(state) == [0]
    after = ENGINE.leave(state, 0)
    assert after["attacker"] == 1 and after["phase"] == "defend" and after["round"] == state["round"]
    assert after["defences"] == [None, None, None]
    assert sorted(after["hands"][1]) == sorted(["L4", "W5", "R2"])
    assert sorted(after["hands"][2]) == sorted(["P7", "S8", "L9"])
    assert "W5" not in after["discard"] and "P7" not in after["discard"]
    assert ENGINE.to_move(after) == [2]


def test_a_wizard_who_leaves_while_drawing_draws_no_more_and_the_cards_stay_in_the_pool():
    state = ENGINE.setup({"jokers": True}, 3)
    assert ENGINE.chance(state)["visible_to"] == [0]
    after = ENGINE.leave(state, 0)
    assert [d[0] for d in after["draws"]] == [1, 2]
    assert len(after["pool"]) == len(state["pool"])
    assert after["attacker"] == 1
    after = finish_draws(after)
    assert after["phase"] == "defend" and after["round"] == 1 and ENGINE.to_move(after) == [2]


def test_leaving_during_the_refill_completes_it_when_no_other_draw_is_due():
    state = position([["R9", "P2"], ["L4", "W5", "R2"], ["P7", "S8", "L9"]], pile=["RK", "PK"], attacker=1)
    state = defend(defend(state, 0, "P2"), 2, "P7")
    state = ENGINE.apply(state, {"kind": "action", "seat": 1, "action": {"type": "attack", "card": "R2"}})
    assert state["phase"] == "refill"
    drawers = [d[0] for d in state["draws"]]
    leaver = drawers[-1]
    after = ENGINE.leave(state, leaver)
    assert leaver not in [d[0] for d in after["draws"]]
    after = finish_draws(after)
    assert after["phase"] == "defend" and after["round"] == state["round"] + 1


def test_a_wizard_already_out_or_with_only_one_other_left_cannot_leave():
    state = three_dealt()
    after = ENGINE.leave(state, 1)
    with pytest.raises(IllegalAction):
        ENGINE.leave(after, 1)
    with pytest.raises(IllegalAction):
        ENGINE.leave(after, 0)  # one other left: the match ends on time instead
    with pytest.raises(IllegalAction):
        ENGINE.leave(deal([["R9", "P2", "S3"], ["L4", "W5", "R2"]]), 0)


def test_the_wizard_who_left_places_last_below_both_who_duelled_on():
    # The End (L71-72): the last with hit points left wins; the leaver was out before either fell.
    state = ENGINE.leave(three_dealt(), 2)
    state["health"] = [20, 2, 200]  # seat 1 falls to the next attack
    state = defend(state, 1, "W5")
    state = attack(state, 0, "R9", draws=())
    assert state["phase"] == "over"
    result = ENGINE.result(state)
    assert result["placements"] == [1, 2, 3] and result["winners"] == [0]


def test_a_wizard_knocked_out_before_another_left_places_below_the_leaver():
    state = position([["R9", "P2", "S3"], ["L4", "W5", "R2"], ["P7", "S8", "L9"]], pile=["RK", "PK", "SK"])
    state["health"] = [200, 200, 2]
    state = defend(defend(state, 1, "W5"), 2, "S8")
    state = finish_draws(attack(state, 0, "R9"))
    assert state["alive"] == [True, True, False]
    result = ENGINE.result_on_time(state, 1, 3)
    # Seat 1 ran out of time with one other left: the match ends, seat 2 (out earlier) below it.
    assert result["placements"] == [1, 2, 3] and result["reason"] == "timeout" and result["timed_out"] == 1


def test_the_match_ending_on_time_after_a_leave_keeps_the_leaver_below():
    state = ENGINE.leave(three_dealt(), 0)
    result = ENGINE.result_on_resign(state, 2, 3)
    assert result["placements"] == [3, 1, 2] and result["winners"] == [1] and result["resigned"] == 2


def test_the_leaver_is_never_to_move_and_its_draws_are_never_due():
    state = ENGINE.leave(ENGINE.setup({"jokers": False}, 3), 1)
    seen = 0
    while ENGINE.to_move(state) and seen < 500:
        movers = ENGINE.to_move(state)
        assert 1 not in movers
        if movers == [CHANCE]:
            assert ENGINE.chance(state)["visible_to"] != [1]
            state = finish_draws(state)
        else:
            seat = movers[0]
            state = ENGINE.apply(
                state, {"kind": "action", "seat": seat, "action": ENGINE.legal_actions(state, seat)[0]}
            )
        seen += 1
    assert ENGINE.result(state)["placements"][1] == 3
