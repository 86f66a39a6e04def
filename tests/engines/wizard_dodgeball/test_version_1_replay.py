"""Version 1 stays registered so that matches recorded with it replay and verify exactly as they
were played (RULES.md "Version history"): its stalling ruling, head-count win and draw included.
"""

import json
from pathlib import Path

import pytest

from engines import registry
from engines.base import InvalidConfig, replay
from engines.wizard_dodgeball import ENGINE as E2
from engines.wizard_dodgeball import ENGINE_V1 as E1
from engines.wizard_dodgeball.engine import STALL_TURNS
from engines.wizard_dodgeball.scenario import Table

RECORDED = Path(__file__).parent / "data" / "v1_stalled_in_settle.json"


def end_turns(t, n):
    for _ in range(n):
        t.act("end_turn")


def test_a_match_recorded_under_version_1_replays_to_its_recorded_result():
    """Recorded with the version 1 code before version 2 existed: 59 quiet turns, then a turn
    that ended by itself. Version 1 kept ending that finished turn, so the recorded result
    says 123 turns; a replay must say exactly the same or the recorded match would not verify."""
    recorded = json.loads(RECORDED.read_text())
    engine = registry.get("wizard-dodgeball", "1")
    state = replay(engine, recorded["config"], recorded["seats"], recorded["events"])
    assert engine.result(state) == recorded["result"]
    assert "123 turns" in recorded["result"]["reason"]


def test_the_same_moves_under_version_2_do_not_end_the_game():
    recorded = json.loads(RECORDED.read_text())
    config = {k: v for k, v in recorded["config"].items() if k != "stall_turns"}
    state = replay(E2, E2.validate_config(config, 2), 2, recorded["events"])
    assert E2.result(state) is None and E2.to_move(state)


def test_version_1_sixty_quiet_turns_end_the_game_for_the_side_with_more_wizards():
    t = Table.start(E1, wizards={45: None})  # the second team is a wizard down
    end_turns(t, STALL_TURNS - 1)
    assert E1.result(t.state) is None
    t.act("end_turn")
    result = E1.result(t.state)
    assert result["winners"] == [0] and result["placements"] == [1, 2] and result["scores"] == [5, 4]
    assert "No throw, pass or cast for 60 turns" in result["reason"]
    assert E1.to_move(t.state) == []


def test_version_1_a_stalled_game_with_equal_wizards_is_a_draw():
    t = Table.start(E1)
    end_turns(t, STALL_TURNS)
    result = E1.result(t.state)
    assert result["placements"] == [1, 1] and result["winners"] == [0, 1]
    assert "draw" in result["reason"]


def test_version_1_a_throw_starts_the_count_again_and_a_move_does_not():
    t = Table.start(E1, wizards={21: [5, 5], 45: [5, 11]}, balls={1: {"held_by": 21}}, active={1: True})
    t.state["quiet_turns"] = STALL_TURNS - 1
    t.act("throw", target=45)
    assert t.state["quiet_turns"] == 0
    t = Table.start(E1)
    t.state["quiet_turns"] = STALL_TURNS - 1
    move = next(a for a in E1.legal_actions(t.state, 0) if a["type"] == "move")
    t.act("move", to=move["to"])
    assert t.state["quiet_turns"] == STALL_TURNS - 1
    t.act("end_turn")
    assert E1.result(t.state) is not None


def test_version_1_keeps_its_stall_option_and_refuses_the_version_2_bound():
    t = Table.start(E1, config={"stall_turns": 0})
    end_turns(t, 200)
    assert E1.result(t.state) is None
    for bad in (5, -1, "60", 1001):
        with pytest.raises(InvalidConfig) as err:
            E1.validate_config({"stall_turns": bad}, 2)
        assert err.value.code == "bad_stall_turns"
    with pytest.raises(InvalidConfig) as err:
        E1.validate_config({"turn_limit": 100}, 2)
    assert err.value.code == "unknown_option"
