"""Version 2's ending (RULES.md "Winning" and "Unfinished games", issue 20).

Rulebook, Winning: "The last player with wizards on the court is the winner." That is the only
way a game is won. Between people, clocks end a game nobody plays on; for bot games a bound on
turns ends it *unfinished*: no winner, nobody placed ahead, counted nowhere by the platform.
"""

import pytest

from engines.base import InvalidConfig
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.engine import TURN_LIMIT
from engines.wizard_dodgeball.scenario import Table


def end_turns(t, n):
    for _ in range(n):
        t.act("end_turn")


def test_reaching_the_turn_limit_ends_the_game_unfinished_with_no_winner():
    t = Table.start(E, config={"turn_limit": 10})
    end_turns(t, 9)
    assert E.result(t.state) is None and E.to_move(t.state) == [t.state["turn"]["seat"]]
    t.act("end_turn")
    result = E.result(t.state)
    assert result["unfinished"] is True
    assert result["winners"] == [] and result["placements"] == [1, 1] and result["reason"] == "unfinished"
    assert "limit of 10 turns" in result["detail"]
    assert E.to_move(t.state) == [] and E.chance(t.state) is None
    assert "unfinished" in t.log[-1] and "wins" not in t.log[-1]


def test_more_wizards_on_the_court_wins_nothing_at_the_limit():
    """Winning: only the last side with wizards on the court wins; a head count is no ending."""
    t = Table.start(E, config={"turn_limit": 10}, wizards={45: None, 30: None})
    end_turns(t, 10)
    result = E.result(t.state)
    assert result["unfinished"] and result["winners"] == [] and result["placements"] == [1, 1]
    assert result["scores"] == [5, 3]  # the wizards left are shown, they decide nothing


def test_passing_the_ball_every_turn_does_not_put_the_end_off():
    """Issue 20: under the old ruling a pass reset the count, so two wizards passing one ball
    kept a game alive for ever. The bound counts every turn, whatever is played in it."""
    t = Table.start(E, config={"turn_limit": 12}, wizards={21: [5, 5], 58: [6, 5]}, balls={1: {"held_by": 21}})
    for _ in range(6):
        holder = 21 if t.wizard(21)["ball"] else 58
        if t.turn_wizard() in (21, 58) and t.wizard(t.turn_wizard())["ball"]:
            t.act("pass", to=58 if holder == 21 else 21)
        t.act("end_turn")
        t.act("end_turn")
    assert sum(1 for e in t.events if e["action"]["type"] == "pass") >= 2
    assert E.result(t.state)["unfinished"] and t.state["turn"]["n"] == 12


def test_a_turn_that_ends_by_itself_at_the_limit_is_ended_once():
    """Issue 20: when the last turn ended by itself (no action points left), settle() went on
    ending the finished turn and the game reported 123 turns instead of 60."""
    t = Table.start(E, config={"turn_limit": 10})
    end_turns(t, 9)
    seat = t.seat()
    for _ in range(2):  # two moves along the back rows, away from every ball
        move = min(
            (a for a in E.legal_actions(t.state, seat) if a["type"] == "move" and "pick_up" not in a),
            key=lambda a: (-a["to"][1], a["to"][0]),
        )
        t.act("move", to=move["to"])
    assert E.to_move(t.state) == []
    assert t.state["turn"]["n"] == 10 and sum(t.state["turns_taken"]) == 10
    assert "limit of 10 turns" in E.result(t.state)["detail"]


def test_a_game_won_before_the_limit_is_won_as_the_book_says():
    t = Table.start(
        E,
        config={"turn_limit": 10},
        wizards={58: None, 41: None, 25: None, 36: None, 21: [5, 7], 45: [5, 13]},
        balls={1: {"held_by": 45}},
        active={1: True},
    )
    t.act("end_turn")
    t.act("throw", target=21)
    t.roll(3, 3)  # 6 from two blues (two zones)
    t.roll(1, 2)  # dodge 3: hit
    result = E.result(t.state)
    assert result["winners"] == [1] and result["placements"] == [2, 1] and "unfinished" not in result


def test_people_play_without_the_bound_so_only_a_clock_ends_a_stalled_game():
    """RULES.md "Unfinished games": the engine declares what a match between people plays without."""
    assert E.people_config == {"turn_limit": None}
    t = Table.start(E, config=E.people_config)
    end_turns(t, 3 * TURN_LIMIT // 10)
    assert E.result(t.state) is None and E.to_move(t.state)


def test_the_default_bound_is_2000_turns_and_a_bad_bound_is_refused():
    assert E.validate_config({}, 2)["turn_limit"] == TURN_LIMIT == 2000
    assert E.validate_config({"turn_limit": None}, 4)["turn_limit"] is None
    for bad in (0, 9, -1, "60", True, 1.5, 100_001):
        with pytest.raises(InvalidConfig) as err:
            E.validate_config({"turn_limit": bad}, 2)
        assert err.value.code == "bad_turn_limit" and err.value.message
    with pytest.raises(InvalidConfig) as err:  # the stalling ruling is gone from version 2
        E.validate_config({"stall_turns": 60}, 2)
    assert err.value.code == "unknown_option"


def test_the_team_variant_ends_unfinished_for_all_four_seats():
    t = Table.start(E, config={"turn_limit": 10}, seats=4)
    end_turns(t, 10)
    result = E.result(t.state)
    assert result["placements"] == [1, 1, 1, 1] and result["winners"] == [] and result["unfinished"]


def test_a_seat_out_of_time_loses_with_its_whole_side():
    """Team variant: both players of a side share its placement, so a loss on time is the side's."""
    t = Table.start(E, seats=4, wizards={45: None})
    result = E.result_on_time(t.state, 2, 4)  # seat 2 plays for the first team with seat 0
    assert result["placements"] == [2, 1, 2, 1] and result["winners"] == [1, 3]
    assert result["scores"] == [5, 4, 5, 4] and result["reason"] == "timeout" and result["timed_out"] == 2
    two = Table.start(E)
    assert E.result_on_time(two.state, 1, 2)["placements"] == [1, 2]
