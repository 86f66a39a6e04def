"""Version 1 stays exactly as recorded: old matches replay and verify under it.

data/v1_recorded_duels.json holds six whole duels played by random bots with the engine as
it stood before version 2 existed, with a digest of every state, every log line and every
view (spectator and each seat) along the way. Replaying them with version 1 today must give
the same bytes. The other tests here pin version 1's own rulings, which version 2 changed:
the whole-deck shuffle of The Deal and the Joker mirroring only its own round.
"""

import hashlib
import json
from pathlib import Path

import pytest

from engines.base import CHANCE, canonical_json, replay
from engines.dueling_wizards import ENGINE_V1, deck

RECORDED = json.loads((Path(__file__).parent / "data" / "v1_recorded_duels.json").read_text())["games"]


@pytest.mark.parametrize("game", RECORDED, ids=lambda g: f"{g['seats']}p-jokers-{g['config']['jokers']}")
def test_a_recorded_version_1_duel_replays_byte_for_byte(game):
    digest = hashlib.sha256()
    state = ENGINE_V1.setup(game["config"], game["seats"])
    digest.update(canonical_json(state))
    for event in game["events"]:
        after = ENGINE_V1.apply(state, event)
        digest.update(canonical_json(after))
        digest.update(ENGINE_V1.describe(state, event, after).encode())
        for viewer in (None, *range(game["seats"])):
            digest.update(canonical_json(ENGINE_V1.view(after, viewer)))
        state = after
    assert digest.hexdigest() == game["every_step_sha256"]
    assert hashlib.sha256(canonical_json(state)).hexdigest() == game["final_state_sha256"]
    assert ENGINE_V1.result(state) == game["result"]


def test_the_recordings_include_joker_rounds():
    # Otherwise the per-round Joker mirroring would not be covered by the recordings.
    played = [e["action"].get("card") for g in RECORDED for e in g["events"] if e["kind"] == "action"]
    assert any(card and deck.is_joker(card) for card in played)


def deal_v1(hands, then=()):
    state = ENGINE_V1.setup({}, len(hands))
    return ENGINE_V1.apply(state, {"kind": "chance", "outcome": deck.arranged_shuffle(hands, then=then)})


def act(state, seat, action):
    return ENGINE_V1.apply(state, {"kind": "action", "seat": seat, "action": action})


def test_version_1_deals_from_one_shuffle_of_the_whole_deck():
    # Version 1, The Deal: the shuffle orders the pile; three cards each, one at a time from seat 0.
    state = ENGINE_V1.setup({}, 3)
    assert ENGINE_V1.to_move(state) == [CHANCE]
    assert ENGINE_V1.chance(state) == {"kind": "shuffle", "size": 70, "label": "Shuffle the Janken Deck"}
    event = {"kind": "chance", "outcome": list(range(70))}
    after = ENGINE_V1.apply(state, event)
    assert after["hands"] == [["RA", "R4", "R7"], ["R2", "R5", "R8"], ["R3", "R6", "R9"]]
    assert after["pile"][0] == "R10" and len(after["pile"]) == 61
    assert ENGINE_V1.describe(state, event, after) == (
        "The Janken Deck (70 cards) is shuffled and each wizard is dealt three spells; seat 0 attacks first."
    )


def test_version_1_refills_from_the_top_of_the_ordered_pile():
    state = deal_v1([["RK", "R7", "RA"], ["S4", "P5", "P6"]], then=["L2", "L3", "L4", "L5"])
    state = act(
        act(dict(state, health=[100, 200]), 1, {"type": "defend", "card": "S4"}),
        0,
        {"type": "heal", "cards": ["RK", "R7", "RA"]},
    )
    assert state["hands"] == [["L3", "L4", "L5"], ["P5", "P6", "L2"]]
    assert ENGINE_V1.to_move(state) == [0]  # seat 1 attacks next: no draw event in version 1


def test_version_1_mirrors_the_suits_only_in_the_round_of_the_joker():
    state = deal_v1([["R9", "R2", "R3"], ["S4", "P5", "P6"], ["X1", "P7", "P8"]], then=["RK", "S2", "W2"])
    state = act(act(state, 1, {"type": "defend", "card": "S4"}), 2, {"type": "defend", "card": "X1"})
    state = act(state, 0, {"type": "attack", "card": "R9"})
    assert [d["relation"] for d in state["last_round"]["defences"]] == ["stronger", "none"]
    assert "reversed" not in state
    # The next round has no Joker: Scissors against Rock is weaker again (x1.5).
    assert state["hands"][1] == ["RK", "P5", "P6"] and state["hands"][0] == ["R2", "R3", "W2"]
    state = act(act(state, 2, {"type": "defend", "card": "S2"}), 0, {"type": "defend", "card": "R2"})
    state = act(state, 1, {"type": "attack", "card": "RK"})
    assert [d["relation"] for d in state["last_round"]["defences"]] == ["same", "weaker"]


def test_version_1_a_joker_in_a_two_wizard_round_changes_nothing_later():
    # The defect issue 20 fixed: with two wizards the only defence beside a Joker attack
    # is the other wizard's, and a Joker defence leaves nothing to mirror.
    state = deal_v1([["R9", "R2", "R3"], ["X1", "S5", "R8"]], then=["W2", "S4"])
    state = act(act(state, 1, {"type": "defend", "card": "X1"}), 0, {"type": "attack", "card": "R9"})
    state = act(act(state, 0, {"type": "defend", "card": "S4"}), 1, {"type": "attack", "card": "R8"})
    assert [d["relation"] for d in state["last_round"]["defences"]] == ["weaker"]
    assert state["health"][0] == 200 - 24


def test_a_version_1_event_list_replays_only_under_version_1():
    # The shuffle event of version 1 is no outcome version 2 accepts: a match's events
    # only make sense under the version recorded with it.
    from engines.base import IllegalAction
    from engines.dueling_wizards import ENGINE

    game = RECORDED[0]
    assert replay(ENGINE_V1, game["config"], game["seats"], game["events"])["phase"] == "over"
    with pytest.raises(IllegalAction):
        replay(ENGINE, game["config"], game["seats"], game["events"])
