"""A card whose play is only Power (Glyph, Fizzle: about half of all plays) adds it at once
instead of running its program through the interpreter (``POWER_ONLY`` in engine.py, issue 17
P1), also when the player controls a card that triggers on other plays (``PLAY_TRIGGERS``). Along
random playouts of every version, every play gives the state the interpreter gives."""

import json

import pytest

from engines import registry
from engines.annihilageddon import engine as module
from engines.annihilageddon.cards import CARDS
from engines.annihilageddon.interp import HAVING

from ..test_conformance import playout


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_power_only_play_leaves_the_state_the_interpreter_leaves(version, seats, monkeypatch):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-power-only:{version}:{seats}", bound=700, prefix=True)
    plays = [
        (st, ev) for st, ev in zip(states, events) if ev["kind"] == "action" and ev["action"].get("type") == "play"
    ]
    shortcut = [(st, ev) for st, ev in plays if ev["action"]["card"] in module.POWER_ONLY]
    assert len(shortcut) > 20 and len(shortcut) < len(plays)  # both kinds of play are met
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in shortcut]
    monkeypatch.setattr(module, "POWER_ONLY", {})
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in shortcut]
    assert fast == slow


def _controlling(st: dict, seat: int, trig: str, cid: str) -> dict:
    """``st`` with ``cid`` in ``seat``'s hand and ``trig`` (a card with an "on play" text) in
    their control: as their revealed Ability tile, or else an Ongoing card in play."""
    st = json.loads(json.dumps(st))
    p = st["players"][seat]
    p["hand"] = sorted(p["hand"] + [cid])
    if CARDS[trig]["kind"] == "tile":
        p["tile"] = trig
        st["revealed"]["tile"] = True
    else:
        p["ongoing"] = p["ongoing"] + [trig]
    return st


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_power_only_play_beside_an_on_play_card_leaves_the_state_the_interpreter_leaves(version, monkeypatch):
    """Every Power-only card played while each card with an "on play" text is controlled: the
    shortcut (taken only when no controlled text's filter takes the card, PLAY_TRIGGERS) against
    the interpreter, at play states of a playout. Some of these plays set a text off (a Treasure
    beside Gift Shop of Doom draws a card), so a table that missed a filter fails here."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, 3, f"an-power-only-beside:{version}", bound=400, prefix=True)
    at = [
        (st, ev["seat"])
        for st, ev in zip(states, events)
        if ev["kind"] == "action" and ev["action"].get("type") == "play"
    ]
    cards = sorted(c for c in module.POWER_ONLY if CARDS[c]["kind"] in ("main", "starter", "familiar", "legend"))
    cases = [
        (_controlling(st, seat, trig, cid), {"kind": "action", "seat": seat, "action": {"type": "play", "card": cid}})
        for st, seat in at[::8]
        for trig in sorted(HAVING["on_play"])
        for cid in cards
    ]
    set_off = sum(1 for _, ev in cases if module.PLAY_TRIGGERS[ev["action"]["card"]])
    assert len(cases) > 100 and 0 < set_off < len(cases)  # plays that can set a text off and plays that cannot
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    monkeypatch.setattr(module, "POWER_ONLY", {})
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    assert fast == slow


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_play_of_power_and_heals_leaves_the_state_the_interpreter_leaves(version, monkeypatch):
    """Each card of PLAIN_PLAYS (Power and heals of the player) played at play states of a
    playout: as it is, at 24 HP (the heal stops at 25), beside Marrow Baths (heals doubled), at
    the end of a turn (no Power), and beside each card with an "on play" text (some set one off,
    and the interpreter runs them)."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, 3, f"an-plain-plays:{version}", bound=400, prefix=True)
    at = [
        (st, ev["seat"])
        for st, ev in zip(states, events)
        if ev["kind"] == "action" and ev["action"].get("type") == "play"
    ]
    assert sorted(module.PLAIN_PLAYS) == ["burpy", "heal-o-matic", "hexbat", "sister-mercy"]
    cases = []
    for st, seat in at[::4]:
        for cid in sorted(module.PLAIN_PLAYS):
            play = {"kind": "action", "seat": seat, "action": {"type": "play", "card": cid}}
            held = json.loads(json.dumps(st))
            held["players"][seat]["hand"] = sorted(held["players"][seat]["hand"] + [cid])
            high = json.loads(json.dumps(held))
            high["players"][seat]["hp"] = 24
            ending = json.loads(json.dumps(held))
            ending["turn"]["ending"] = True
            cases += [(held, play), (high, play), (_controlling(st, seat, "marrow-baths", cid), play), (ending, play)]
            cases += [(_controlling(st, seat, trig, cid), play) for trig in sorted(HAVING["on_play"])]
    assert len(cases) > 200
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    monkeypatch.setattr(module, "PLAIN_PLAYS", {})
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    assert fast == slow


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_play_begun_with_power_leaves_the_state_the_interpreter_leaves(version, monkeypatch):
    """Each card of LEAD_POWER (its program begins with plain Power ops, done at the play) played
    at play states of a playout, as it is and at the end of a turn (no Power): the state after it
    (its program run up to its first question or draw, or to the end) and after every event of
    the playout's own plays, against the interpreter running the whole program."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, 3, f"an-lead-power:{version}", bound=500, prefix=True)
    played = [
        (st, ev)
        for st, ev in zip(states, events)
        if ev["kind"] == "action" and ev["action"].get("type") == "play" and ev["action"]["card"] in module.LEAD_POWER
    ]
    assert len(played) > 10
    cases = list(played)
    for st, ev in played[::3]:
        seat = ev["seat"]
        for cid in sorted(module.LEAD_POWER):
            held = json.loads(json.dumps(st))
            held["players"][seat]["hand"] = sorted(held["players"][seat]["hand"] + [cid])
            ending = json.loads(json.dumps(held))
            ending["turn"]["ending"] = True
            play = {"kind": "action", "seat": seat, "action": {"type": "play", "card": cid}}
            cases += [(held, play), (ending, play)]
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    # The questions posed at the play are posed past the leading Power: the interpreter alone.
    for table in ("LEAD_POWER", "TARGET_FIRST", "CHOICE_FIRST"):
        monkeypatch.setattr(module, table, {})
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    assert fast == slow


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_play_that_asks_first_poses_the_question_the_interpreter_poses(version, monkeypatch):
    """Each card of CHOICE_FIRST (Wild Magic) played at play states of a playout, as it is and
    beside every card with an "on play" text: the state with its question open, and the states
    after each answer, against the interpreter posing it."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, 3, f"an-choice-first:{version}", bound=500, prefix=True)
    at = [
        (st, ev["seat"])
        for st, ev in zip(states, events)
        if ev["kind"] == "action" and ev["action"].get("type") == "play"
    ]
    assert sorted(module.CHOICE_FIRST) == ["wild-magic"]
    cases = []
    for st, seat in at[::4]:
        for cid in sorted(module.CHOICE_FIRST):
            play = {"kind": "action", "seat": seat, "action": {"type": "play", "card": cid}}
            held = json.loads(json.dumps(st))
            held["players"][seat]["hand"] = sorted(held["players"][seat]["hand"] + [cid])
            cases.append((held, play))
            cases += [(_controlling(st, seat, trig, cid), play) for trig in sorted(HAVING["on_play"])]
    assert len(cases) > 100

    def states_after(st, ev):
        asked = engine.apply(st, ev)
        out = [json.dumps(asked)]
        for value in asked["prompt"]["options"]:
            out.append(
                json.dumps(
                    engine.apply(
                        asked, {"kind": "action", "seat": ev["seat"], "action": {"type": "choose", "value": value}}
                    )
                )
            )
        return out

    fast = [states_after(st, ev) for st, ev in cases]
    monkeypatch.setattr(module, "CHOICE_FIRST", {})
    slow = [states_after(st, ev) for st, ev in cases]
    assert fast == slow


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_play_that_attacks_a_picked_target_first_poses_the_question_the_interpreter_poses(
    version, seats, monkeypatch
):
    """Each card of TARGET_FIRST (the Wand, Snot Rocket, ...) played at play states of a playout,
    as it is, under the mirror Mayhem's grant (every Attack on its player: no question) and
    beside every card with an "on play" text: the state after the play, and after each answer
    it offers, against the interpreter (with two seats a foe needs no picking)."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-target-first:{version}:{seats}", bound=400, prefix=True)
    at = [
        (st, ev["seat"])
        for st, ev in zip(states, events)
        if ev["kind"] == "action" and ev["action"].get("type") == "play"
    ]
    assert {"wand", "snot-rocket"} <= set(module.TARGET_FIRST)
    cases = []
    for st, seat in at[::6]:
        for cid in sorted(module.TARGET_FIRST):
            play = {"kind": "action", "seat": seat, "action": {"type": "play", "card": cid}}
            held = json.loads(json.dumps(st))
            held["players"][seat]["hand"] = sorted(held["players"][seat]["hand"] + [cid])
            mirror = json.loads(json.dumps(held))
            mirror["temp"] = {str(seat): {"self_target": True}}
            cases += [(held, play), (mirror, play)]
            cases += [(_controlling(st, seat, trig, cid), play) for trig in sorted(HAVING["on_play"])[::2]]
    assert len(cases) > 100

    def states_after(st, ev):
        after = engine.apply(st, ev)
        out = [json.dumps(after)]
        pr = after["prompt"]
        if pr is not None and pr["kind"] == "target":
            for value in pr["options"]:
                answer = {"kind": "action", "seat": pr["seat"], "action": {"type": "choose", "value": value}}
                out.append(json.dumps(engine.apply(after, answer)))
        return out

    fast = [states_after(st, ev) for st, ev in cases]
    monkeypatch.setattr(module, "TARGET_FIRST", {})
    slow = [states_after(st, ev) for st, ev in cases]
    assert fast == slow
    asked = sum(1 for a in fast if len(a) > 1)
    assert (asked > 50) if seats > 2 else (asked > 10)


def test_the_seats_an_attack_played_first_offers_are_clockwise_from_its_player_at_every_table_size():
    """_FIRST_TARGETS, worked out once, for the sizes the playouts above do not reach (five seats)
    as well: every seat from the player's round the table, the player left out for a foe."""
    for n in range(module.Annihilageddon.min_seats, module.Annihilageddon.max_seats + 1):
        for seat in range(n):
            clockwise = [(seat + k) % n for k in range(n)]
            assert module._FIRST_TARGETS["target_player"][n][seat] == tuple(clockwise)
            assert module._FIRST_TARGETS["target_foe"][n][seat] == tuple(clockwise[1:])
