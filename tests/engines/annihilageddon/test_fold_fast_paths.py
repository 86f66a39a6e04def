"""The fold's fast paths (engines/annihilageddon/fast.py, issue 17, P1) against the general path.

Along random playouts of every version, at 2 and 4 seats, every event a fast path may take is
applied in place twice, with the fast path and with it declining everything (the general path):
the event played, other outcomes that fit, and near misses, malformed outcomes and outcomes of
the wrong size. Both ways must leave the same state (the same canonical JSON), or refuse with
the same code and sentence and leave the state as it was."""

import json

import pytest

from engines import registry
from engines.annihilageddon import engine as engine_module
from engines.annihilageddon import fast, turn
from engines.annihilageddon.cards import CARDS
from engines.annihilageddon.engine import copy_state
from engines.annihilageddon.interp import HAVING
from engines.base import IllegalAction

from ..counted import Counted
from ..state_bytes import state_bytes
from ..test_conformance import playout
from .shortcuts import planted


def _answer(engine, state: dict, event: dict):
    st = copy_state(state)
    before = state_bytes(st)
    try:
        return ("ok", state_bytes(engine.apply_in_place(st, event)))
    except IllegalAction as exc:
        # A refusal changes nothing: the state the fold owns is as it was.
        assert state_bytes(st) == before, (exc.code, event)
        return ("refused", exc.code, exc.message)


def _noted(st: dict) -> dict:
    st = copy_state(st)
    st["notes"] = ["Seat 0 shuffles their discard pile into a new deck."]
    if "held_notes" in st:
        st["held_notes"] = ["Seat 1 takes the Attack."]
    return st


def _at_end_draw(st: dict) -> bool:
    if st["need"] is None or "dice" in st["need"] or not st["stack"]:
        return False
    f = st["stack"][-1]
    return f["prog"] is turn.END_OF_TURN and f["pc"] == turn._END_DRAW_AT


def _outcomes(st: dict, played: list) -> list:
    """The outcome played, others that fit, and outcomes the draw refuses."""
    count = st["need"]["count"]
    size = len(st["players"][st["active"]]["pool"])
    fits = [played, list(range(count)), list(range(size - count, size)), played[::-1]]
    wrong = [
        played[:-1],
        played + [played[0]],
        [*played[:-1], size],
        [*played[:-1], -1],
        [*played[:-1], True],
        [*played[:-1], float(played[-1])],
        [*played[:-1], str(played[-1])],
        [*played[:-1], None],
        [played[0]] * count,
        [],
        [[i] for i in played],
        tuple(played),
        {"0": played[0]},
        played[0],
        None,
        "0",
    ]
    return fits + wrong


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_the_end_of_turn_draw_at_once_leaves_the_state_or_refusal_of_the_general_path(version, seats, monkeypatch):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-fast-end-draw:{version}:{seats}", bound=900, prefix=True)
    cases = [(st, ev) for st, ev in zip(states, events) if ev["kind"] == "chance" and _at_end_draw(st)]
    assert len(cases) > 20
    # Draws of one card and of several, and a draw after the discard was shuffled in (ensure_top's).
    assert {st["need"]["count"] == 1 for st, _ in cases} == {True, False}
    # The unrolled whole new hand (five cards, nothing on the top or in the hand, no Trophy).
    whole = [st for st, _ in cases if st["need"]["count"] == 5 and not st["players"][st["active"]]["top"]]
    assert len(whole) > 10 and not any(st["players"][st["active"]]["hand"] for st in whole)
    tried = [(st, {"kind": "chance", "outcome": o}) for st, ev in cases for o in _outcomes(st, ev["outcome"])]
    # The notes of the event before still in the state: the draw clears them (a refusal keeps them).
    tried += [
        (_noted(st), {"kind": "chance", "outcome": o}) for st, ev in cases[:8] for o in _outcomes(st, ev["outcome"])
    ]
    counted = Counted(fast.end_draw_at_once)
    monkeypatch.setattr(fast, "end_draw_at_once", counted)
    quick = [_answer(engine, st, ev) for st, ev in tried]
    # Taken for every outcome that fits, declined for the rest.
    assert counted.taken == sum(1 for a in quick if a[0] == "ok") > 4 * 20
    assert counted.declined > 10 * 20
    monkeypatch.setattr(fast, "end_draw_at_once", lambda st, f, need, outcome: False)
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general


def _at_refill(st: dict) -> bool:
    if st["need"] is None or "dice" in st["need"] or not st["stack"]:
        return False
    f = st["stack"][-1]
    return f["prog"][f["pc"]]["op"] == "_refill" and st["phase"] == "turn"


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_refill_draw_at_once_leaves_the_state_or_refusal_of_the_general_path(version, seats, monkeypatch):
    """fast.refill_drawn at every Line-Up refill of a turn's start in playouts, also with each of
    START_AT_ONCE's texts and Murder Arcade (left to the frames) planted among the active player's
    Ongoing cards, and read back from JSON (an equal program, not turn.START_OF_TURN: declined):
    every card of the main deck drawn (Mayhems are declined), and outcomes the draw refuses."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-fast-refill-draw:{version}:{seats}", bound=900, prefix=True)
    cases = [st for st, ev in zip(states, events) if ev["kind"] == "chance" and _at_refill(st)]
    assert len(cases) > 5
    starts = list(cases)
    for st in starts:
        cases += [planted(st, st["active"], [cid]) for cid in [*turn.START_AT_ONCE, "murder-arcade"]]
        cases.append(json.loads(json.dumps(st)))
        cases.append(_noted(st))
    tried = []
    for st in cases:
        size = len(st["main"])
        wrong = [[size], [-1], [True], [0.0], ["0"], [None], [], [0, 1], [0, 0], [[0]], (0,), {"0": 0}, 0, None]
        tried += [(st, {"kind": "chance", "outcome": o}) for o in [*([i] for i in range(size)), *wrong]]
    counted = Counted(fast.refill_drawn)
    monkeypatch.setattr(fast, "refill_drawn", counted)
    quick = [_answer(engine, st, ev) for st, ev in tried]
    # A Mayhem of the main deck is drawn (and declined) at a refill.
    assert "mayhem" in {CARDS[cid]["kind"] for st in cases for cid in st["main"]}
    assert counted.taken > 50 and counted.declined > 50
    assert any(a[0] == "refused" for a in quick)
    monkeypatch.setattr(fast, "refill_drawn", lambda st, f, need, outcome: False)
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general


def test_the_copying_apply_takes_the_same_path_and_leaves_its_state_alone():
    """``apply`` folds a copy: the state it is given stays as it was, and the result is the fold's."""
    engine = registry.get("annihilageddon", "2")
    states, events = playout(engine, 3, "an-fast-end-draw-copy", bound=600, prefix=True)
    met = 0
    for st, ev in zip(states, events):
        if ev["kind"] == "chance" and _at_end_draw(st):
            met += 1
            before = state_bytes(st)
            after = engine.apply(st, ev)
            assert state_bytes(st) == before
            assert state_bytes(after) == state_bytes(engine.apply_in_place(copy_state(st), ev))
    assert met > 10


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_turn_started_up_to_its_refill_draw_leaves_the_state_its_frames_leave(version, seats, monkeypatch):
    """turn.start_turn_to_refill against the frames op_end_check pushes and run runs, at every
    event of playouts: taken at handovers with an empty Line-Up slot, declined at the others (a
    full Line-Up with a start-of-turn text, a main deck too small to draw from)."""
    engine = registry.get("annihilageddon", version)
    cases = []
    # Two games: one short game at two seats hands over too seldom to count on.
    for key in (f"{version}:{seats}", f"{version}:{seats}:1"):
        states, events = playout(engine, seats, f"an-fast-refill:{key}", bound=900, prefix=True)
        cases += list(zip(states, events))
    # The same moments with a main deck of one card and of two (op_refill takes one card without a draw).
    for st, ev in list(cases):
        if st["phase"] == "turn" and (ev["kind"] == "chance" or ev["action"]["type"] == "end_turn"):
            for size in (1, 2):
                short = copy_state(st)
                short["main"] = short["main"][:size]
                if short["need"] is None or short["need"].get("zone") != ["main"]:
                    cases.append((short, ev))
    counted = Counted(turn.start_turn_to_refill)
    monkeypatch.setattr(turn, "start_turn_to_refill", counted)
    quick = [_answer(engine, st, ev) for st, ev in cases]
    assert counted.taken > 10 and counted.declined > 3
    monkeypatch.setattr(turn, "start_turn_to_refill", lambda st, f, seat: False)
    general = [_answer(engine, st, ev) for st, ev in cases]
    assert quick == general


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_an_attack_target_answered_at_once_leaves_the_state_or_refusal_of_the_general_path(version, seats, monkeypatch):
    """fast.attack_target_answer against run, at every "target" question of playouts (an Attack's
    and other ops') and at the question of each card that attacks a picked target planted in the
    hand and played: every option, the options as other seats, and near misses (refused)."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-fast-target:{version}:{seats}", bound=900, prefix=True)
    asked = [st for st in states if st["prompt"] is not None and st["prompt"]["kind"] == "target"]
    for st, ev in list(zip(states, events))[::5]:
        if ev["kind"] == "action" and ev["action"].get("type") == "play":
            for cid in sorted(engine_module.TARGET_FIRST):
                held = copy_state(st)
                p = held["players"][ev["seat"]]
                p["hand"] = sorted(p["hand"] + [cid])
                after = engine.apply(
                    held, {"kind": "action", "seat": ev["seat"], "action": {"type": "play", "card": cid}}
                )
                if after["prompt"] is not None and after["prompt"]["kind"] == "target":
                    asked.append(after)
    tried = []
    for st in asked:
        pr = st["prompt"]
        for value in [*pr["options"], -1, seats, float(pr["options"][0]), str(pr["options"][0]), None, True]:
            for seat in (pr["seat"], (pr["seat"] + 1) % seats):
                tried.append((st, {"kind": "action", "seat": seat, "action": {"type": "choose", "value": value}}))
    counted = Counted(fast.attack_target_answer)
    monkeypatch.setattr(fast, "attack_target_answer", counted)
    quick = [_answer(engine, st, ev) for st, ev in tried]
    if version != "1":
        assert counted.taken > 50
    else:
        # version 1 poses no target question this way: the path is asked and declines every answer
        assert counted.declined > 50 and counted.taken == 0
    monkeypatch.setattr(fast, "attack_target_answer", lambda st, value: False)
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_plain_hit_taken_at_once_leaves_the_state_or_refusal_of_the_general_path(seats, monkeypatch):
    """fast.plain_hit_taken against run, at every defense window of playouts (version 2): each
    asked seat's "take" and Defenses in hand, near misses, other seats; and the same windows
    with the victim at 1 to 3 HP (a death: declined) and with a Wand bonus granted to them."""
    engine = registry.get("annihilageddon", "2")
    states, events = playout(engine, seats, f"an-fast-plain-hit:{seats}", bound=900, prefix=True)
    windows = [st for st in states if st["prompt"] is not None and st["prompt"]["kind"] == "defend"]
    assert len(windows) > 10
    varied = []
    for st in windows:
        varied.append(st)
        for victim in st["prompt"]["seats"]:
            for hp in (1, 2, 3):
                low = copy_state(st)
                low["players"][victim]["hp"] = hp
                varied.append(low)
            bonus = copy_state(st)
            bonus["temp"] = {str(victim): {"wand_extra": 2}}
            varied.append(bonus)
    tried = []
    for st in varied:
        for seat in range(seats):
            hand = st["players"][seat]["hand"]
            for value in ["take", *hand[:2], "none", None, 0]:
                tried.append((st, {"kind": "action", "seat": seat, "action": {"type": "defend", "value": value}}))
            tried.append((st, {"kind": "action", "seat": seat, "action": {"type": "choose", "value": "take"}}))
    counted = Counted(fast.plain_hit_taken)
    monkeypatch.setattr(fast, "plain_hit_taken", counted)
    quick = [_answer(engine, st, ev) for st, ev in tried]
    assert counted.taken > 10 and counted.declined > 10
    monkeypatch.setattr(fast, "plain_hit_taken", lambda st, pr, value: False)
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_power_option_chosen_at_once_leaves_the_state_or_refusal_of_the_general_path(version, seats, monkeypatch):
    """fast.power_option_chosen against run, at every "choose one" of playouts and at Wild Magic's,
    played at play states (also at a turn's end: no Power, and as another seat's answer): every
    option, the options as other seats, and near misses."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-fast-option:{version}:{seats}", bound=900, prefix=True)
    asked = [st for st in states if st["prompt"] is not None and st["prompt"]["kind"] == "option"]
    for st, ev in list(zip(states, events))[::5]:
        if ev["kind"] == "action" and ev["action"].get("type") == "play":
            held = copy_state(st)
            p = held["players"][ev["seat"]]
            p["hand"] = sorted(p["hand"] + ["wild-magic"])
            after = engine.apply(
                held, {"kind": "action", "seat": ev["seat"], "action": {"type": "play", "card": "wild-magic"}}
            )
            ending = copy_state(after)
            ending["turn"]["ending"] = True
            asked += [after, ending]
    tried = []
    for st in asked:
        pr = st["prompt"]
        for value in [*pr["options"], len(pr["options"]), -1, 0.0, "0", True, None]:
            for seat in (pr["seat"], (pr["seat"] + 1) % seats):
                tried.append((st, {"kind": "action", "seat": seat, "action": {"type": "choose", "value": value}}))
    counted = Counted(fast.power_option_chosen)
    monkeypatch.setattr(fast, "power_option_chosen", counted)
    quick = [_answer(engine, st, ev) for st, ev in tried]
    assert counted.taken > 10 and counted.declined > 10
    monkeypatch.setattr(fast, "power_option_chosen", lambda st, value: False)
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_the_trophy_discard_answered_at_once_leaves_the_state_or_refusal_of_the_general_path(
    version, seats, monkeypatch
):
    """turn.trophy_discarded against run: the Trophy holder's question at the end of their turn,
    met by giving the Trophy to the seat ending each turn of playouts, answered with every card
    of the hand, as another seat, with near misses; also with a Legend to flip next and with
    none left (the end of the game)."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-fast-trophy:{version}:{seats}", bound=900, prefix=True)
    asked = []
    for st, ev in zip(states, events):
        if ev["kind"] != "action" or ev["action"]["type"] != "end_turn":
            continue
        held = copy_state(st)
        for q in held["players"]:
            q["trophy"] = False
        held["players"][ev["seat"]]["trophy"] = True
        after = engine.apply(held, ev)
        if after["need"] is not None and "zone" in after["need"]:
            after = engine.apply(after, {"kind": "chance", "outcome": list(range(after["need"]["count"]))})
        if after["prompt"] is not None and after["prompt"].get("why") == "trophy":
            asked.append(after)
            for down in (1, 0):
                flip = copy_state(after)
                flip["legend"] = {**flip["legend"], "up": None, "down": down}
                asked.append(flip)
    assert len(asked) > 30
    tried = []
    for st in asked:
        seat = st["prompt"]["seat"]
        for value in [*sorted(set(st["players"][seat]["hand"])), "none", "glyph:1", None, 0]:
            for who in (seat, (seat + 1) % seats):
                tried.append((st, {"kind": "action", "seat": who, "action": {"type": "choose", "value": value}}))
    quick = [_answer(engine, st, ev) for st, ev in tried]
    monkeypatch.setattr(turn, "_TROPHY_AT", -1)  # never at the Trophy's discard: run answers it
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general
    assert sum(1 for a in quick if a[0] == "ok") > 30


def _at_card_draw(st: dict) -> bool:
    if st["need"] is None or "dice" in st["need"] or not st["stack"]:
        return False
    f = st["stack"][-1]
    return f["prog"][f["pc"]]["op"] == "draw"


def _card_outcomes(st: dict, played: list) -> list:
    """_outcomes' outcomes for the drawing seat's deck (not always the active player's)."""
    count = st["need"]["count"]
    size = len(st["players"][st["need"]["zone"][1]]["pool"])
    fits = [played, list(range(count)), list(range(size - count, size)), played[::-1]]
    wrong = [played[:-1], played + [played[0]], [*played[:-1], size], [*played[:-1], -1], [*played[:-1], True]]
    wrong += [[*played[:-1], float(played[-1])], [*played[:-1], None], [], tuple(played), played[0], None, "0"]
    return fits + wrong


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_card_s_draw_at_once_leaves_the_state_or_refusal_of_the_general_path(version, seats, monkeypatch):
    """fast.card_drawn at every draw of a card's program waiting for its cards in playouts, also
    with the notes of the event before, read back from JSON, and with the count raised past what
    the draw brings (declined); outcomes that fit and outcomes the draw refuses."""
    engine = registry.get("annihilageddon", version)
    cases = []
    for game in range(4):  # a card's draw is due a few times a game
        states, events = playout(engine, seats, f"an-fast-card-draw:{version}:{seats}:{game}", bound=900, prefix=True)
        cases += [(st, ev) for st, ev in zip(states, events) if ev["kind"] == "chance" and _at_card_draw(st)]
    assert len(cases) > 10
    tried = [(st, {"kind": "chance", "outcome": o}) for st, ev in cases for o in _card_outcomes(st, ev["outcome"])]
    for st, ev in cases:
        tried.append((_noted(st), ev))
        tried.append((json.loads(json.dumps(st)), ev))
        more = copy_state(st)
        more["stack"][-1]["work"]["n"] += 1
        tried.append((more, ev))
    counted = Counted(fast.card_drawn)
    monkeypatch.setattr(fast, "card_drawn", counted)
    quick = [_answer(engine, st, ev) for st, ev in tried]
    assert counted.taken > 4 * 10 and counted.declined > 8 * 10
    monkeypatch.setattr(fast, "card_drawn", lambda st, f, need, outcome: False)
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general


def _at_play_top(st: dict) -> bool:
    if st["need"] is None or "dice" in st["need"] or not st["stack"]:
        return False
    f = st["stack"][-1]
    return f["prog"][f["pc"]]["op"] == "play_top"


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_wild_magic_s_power_only_card_played_at_once_leaves_the_state_or_refusal_of_the_general_path(
    version, seats, monkeypatch
):
    """fast.top_card_played at every draw of Wild Magic's play of a foe's top card in playouts: the
    card drawn as it came and replaced by each of some Power-only cards (a starter, cards with
    other texts, one an on-play trigger watches for) and by a card with a program, each also with
    every on-play text controlled by the player, the notes of the event before, the card already
    borrowed once, a top that is not empty, and read back from JSON; outcomes that fit and
    outcomes the draw refuses."""
    engine = registry.get("annihilageddon", version)
    cases = []
    for game in range(4):
        states, events = playout(engine, seats, f"an-fast-play-top:{version}:{seats}:{game}", bound=900, prefix=True)
        cases += [(st, ev) for st, ev in zip(states, events) if ev["kind"] == "chance" and _at_play_top(st)]
    assert len(cases) > 5
    swaps = ["glyph", "cosmic-bouncer", "kiddo-chaos", "hedge-wretch", "wand", "snot-rocket"]
    assert all(c in engine_module.POWER_ONLY for c in swaps[:4]) and swaps[4] not in engine_module.POWER_ONLY
    tried = []
    for st, ev in cases:
        tried += [(st, {"kind": "chance", "outcome": o}) for o in _card_outcomes(st, ev["outcome"])]
        foe = st["need"]["zone"][1]
        for cid in swaps:
            swapped = copy_state(st)
            swapped["players"][foe]["pool"][ev["outcome"][0]] = cid
            variants = [swapped, _noted(swapped), json.loads(json.dumps(swapped))]
            for trig in sorted(HAVING["on_play"]):
                variants.append(planted(swapped, st["stack"][-1]["env"]["you"], [trig]))
            twice = copy_state(swapped)
            twice["turn"]["borrowed"] = [cid, *twice["turn"]["borrowed"]]
            topped = copy_state(swapped)
            topped["players"][foe]["top"] = ["fizzle"]
            tried += [(v, ev) for v in [*variants, twice, topped]]
    counted = Counted(fast.top_card_played)
    monkeypatch.setattr(fast, "top_card_played", counted)
    quick = [_answer(engine, st, ev) for st, ev in tried]
    assert counted.taken > 10 * len(cases) and counted.declined > 10 * len(cases)
    monkeypatch.setattr(fast, "top_card_played", lambda st, f, need, outcome: False)
    general = [_answer(engine, st, ev) for st, ev in tried]
    assert quick == general
