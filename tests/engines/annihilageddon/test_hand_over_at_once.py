"""``turn.hand_over_at_once`` (issue 17, P1) starts the next turn as one straight path where the
end check and start_turn_at_once would: along random playouts of every version, with texts planted
on the next player and end conditions met on purpose, every event must leave the state the ops
leave (the shortcut patched out)."""

import pytest

from engines import registry
from engines.annihilageddon import turn
from engines.annihilageddon.engine import copy_state

from ..test_conformance import playout
from .shortcuts import planted, with_and_without


def _variants(st: dict, ev: dict) -> list[tuple[dict, dict]]:
    """The moment itself, and again with each START_AT_ONCE text, Murder Arcade (left to the
    frames) and two texts at once on the next player, Thick Skull as their tile, the round bound
    reached, the Dead Wizard Tokens gone, a Line-Up slot empty with and without a main deck, and
    an end flag set."""
    out = [(st, ev)]
    nxt = (st["active"] + 1) % st["seats"]
    for cards in [[cid] for cid in turn.START_AT_ONCE] + [["murder-arcade"], sorted(turn.START_AT_ONCE)[:2]]:
        out.append((planted(st, nxt, cards), ev))
    # Thick Skull's heal as the one text (revealed), at a low HP and at the cap's edge, and with
    # Marrow Baths (which doubles heals) beside it: two texts, left to the frames.
    for hp, more in ((3, []), (24, []), (24, ["marrow-baths"])):
        skull = planted(st, nxt, more)
        p = skull["players"][nxt]
        p["tile"], p["hp"] = "tile-thick-skull", hp
        skull["revealed"] = {**skull["revealed"], "tile": True}
        out.append((skull, ev))
    bound = copy_state(st)
    bound["config"] = {**bound["config"], "max_rounds": bound["round"]}
    dwt = copy_state(st)
    dwt["dwt"] = {**dwt["dwt"], "count": 0}
    flagged = copy_state(st)
    flagged["end_flags"] = ["legends"]
    out += [(bound, ev), (dwt, ev), (flagged, ev)]
    for keep_main in (True, False):
        gap = copy_state(st)
        gap["lineup"] = [None] + gap["lineup"][1:]
        if not keep_main:
            gap["main"] = []
        out.append((gap, ev))
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_turn_handed_over_at_once_leaves_the_state_the_end_check_and_its_frames_leave(version, seats, monkeypatch):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-hand-over:{version}:{seats}", bound=700, prefix=True)
    cases = []
    for st, ev in zip(states, events):
        if st["phase"] == "turn" and (ev["kind"] == "chance" or ev["action"]["type"] in ("end_turn", "choose")):
            cases += _variants(st, ev)
    counted, fast, slow = with_and_without(engine, cases, monkeypatch, turn, "hand_over_at_once", lambda st: False)
    # Both ways are met: turns handed over at once, and handovers left to the ops.
    assert counted.taken > 20 and counted.declined > 20
    assert fast == slow
