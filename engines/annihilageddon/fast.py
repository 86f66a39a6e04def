"""Fast paths of the fold (``Annihilageddon.apply_in_place``) for its commonest events (issue 17,
P1), in the pattern of engines/wizard_dodgeball/fast.py: each checks and applies its event in one
pass, or declines (False) *before it writes anything*, and the general path then applies the
event or refuses it with its own code and sentence. The copying ``apply`` goes through
``apply_in_place`` on a copy, so it takes them too; a state read back from JSON (whose frames
hold equal lists, not the turn machine's own) never does.

``tests/engines/annihilageddon/test_fold_fast_paths.py`` holds each to the general path along
playouts, with outcomes that are near misses, malformed or of the wrong size.
"""

from __future__ import annotations

from typing import Any

from . import interp
from . import turn as turn_machine
from .cards import CARDS, ONGOING
from .interp import PLAY_TRIGGERS, SEAT_KEYS, WAND_SETTERS, WAND_ZONE, controls_any, run, static

_INT_ONLY = {int}

#: frozenset(range(n)) for every pool a game draws from (the main deck is the largest).
_RANGES = tuple(frozenset(range(n)) for n in range(256))
_RANGED = len(_RANGES)


def _power_only(cid: str) -> int | None:
    """The Power a card's play gives when its program is only plain Power ops (none: 0), else None."""
    prog = CARDS[cid].get("play", [])
    if cid in ONGOING or not all(op["op"] == "power" and type(op["n"]) is int for op in prog):
        return None
    return sum(op["n"] for op in prog)


#: Cards whose play only adds Power (the starters Glyph and Fizzle among them: about half of all plays),
#: with the Power each adds (a play from the hand in engine.apply_in_place, Wild Magic's in
#: top_card_played).
POWER_ONLY: dict[str, int] = {cid: n for cid in CARDS if (n := _power_only(cid)) is not None}


def draw_fits(pool: int, count: int, outcome: Any) -> bool:
    """Whether ``outcome`` passes check_outcome for a draw of ``count`` from ``pool`` cards, for
    the plain list of ints every recorded draw is (anything else: check_outcome judges it). The
    walks are C's: every value's type is int (not bool), then the range and the distinctness."""
    if type(outcome) is not list or len(outcome) != count:
        return False
    if count == 1:  # the commonest draw (a Line-Up refill, a card): the same tests on its one value
        return type(outcome[0]) is int and 0 <= outcome[0] < pool
    if count <= 0:
        return False
    # Exactly ints (issuperset walks the types without building their set; count > 1, so not
    # empty), then distinct values of range(pool): their set within the range's (no min and max
    # walks).
    if not _INT_ONLY.issuperset(map(type, outcome)):
        return False
    values = set(outcome)
    return len(values) == count and values <= (_RANGES[pool] if pool < _RANGED else frozenset(range(pool)))


def end_draw_at_once(st: dict, f: dict, need: dict, outcome: Any) -> bool:
    """The chance event of the end of a turn's draw (``f``, on top of the stack, is the end-of-turn
    frame at its draw; ``need`` the draw due): draw_fits' test of ``outcome`` against the
    drawing seat's deck, then what the general path does with it (the notes cleared, the draw
    taken as take_outcome takes it, then turn.end_turn_drawn), without the outcome's round trip
    through the frame's work. Declines an outcome that does not fit, and a frame whose draw count
    is not set (end_turn_at_once sets it before any draw is recorded)."""
    w = f["work"]
    seat = st["active"]
    # The zone is ["player", the active seat] (end_turn_at_once and ensure_top record it so).
    # The outcome's type and length are draw_fits' first test, asked once.
    if "n" not in w or need["zone"][1] != seat:
        return False
    p = st["players"][seat]
    pool = p["pool"]
    top = p["top"]
    hand = p["hand"]
    if (
        type(outcome) is list
        and len(outcome) == 5
        and need["count"] == 5
        and not top
        and not hand
        and w["n"] == 5
        and not p["trophy"]
    ):
        # The commonest draw by far (a whole new hand of five, nothing on the top, no Trophy),
        # unrolled (issue 17, P1: the set, sorted's keyword, the loops and the top's round trip
        # were a tenth of the event). draw_fits' test on the sorted indices: exactly ints, then
        # strictly rising (distinct) from 0 up to below the deck's size.
        a, b, c, d, e = outcome
        if not (type(a) is int and type(b) is int and type(c) is int and type(d) is int and type(e) is int):
            return False
        rising = sorted(outcome)
        a, b, c, d, e = rising
        if not 0 <= a < b < c < d < e < len(pool):
            return False
        if st["notes"]:  # as below
            st["notes"] = []
        if "held_notes" in st and st["held_notes"]:
            st["held_notes"] = []
        st["need"] = None
        # The five cards straight to the hand, sorted, as the lines below leave it, then deleted
        # from the deck from the highest index down, as take_drawn does.
        a, b, c, d, e = outcome
        p["hand"] = sorted((pool[a], pool[b], pool[c], pool[d], pool[e]))
        a, b, c, d, e = rising
        del pool[e], pool[d], pool[c], pool[b], pool[a]
        turn_machine.end_turn_from_flip(st, f)
        return True
    if not draw_fits(len(pool), need["count"], outcome):
        return False
    if st["notes"]:  # an empty list is kept (copy_state copies it: see there)
        st["notes"] = []
    if "held_notes" in st and st["held_notes"]:
        st["held_notes"] = []
    st["need"] = None
    # interp.take_drawn's move and end_turn_drawn's common case (the top then holds the draw's
    # count: it was recorded for exactly the cards missing), written out (issue 17, P1: two calls
    # per turn). A Trophy holder's sixth card goes on in end_turn_drawn, which asks for it.
    if len(outcome) == 1:
        top.append(pool.pop(outcome[0]))
    else:
        top += map(pool.__getitem__, outcome)
        for i in sorted(outcome, reverse=True):
            del pool[i]
    n = w["n"]
    if p["trophy"] or len(top) != n:
        turn_machine.end_turn_drawn(st, f, seat, p, top, n)
        return True
    # The top is the draw's n cards: all of them to the hand (end_turn_drawn's top[:n], no slices).
    hand += top
    top.clear()
    hand.sort()
    turn_machine.end_turn_from_flip(st, f)
    return True


def refill_drawn(st: dict, f: dict, need: dict, outcome: Any) -> bool:
    """The chance event of a turn's Line-Up refill (``f``, on top of the stack, is the start of a
    turn's frame at its _refill op; ``need`` op_refill's draw of one card of the main deck):
    draw_fits' test of ``outcome``, then what the general path does with it (the notes
    cleared, the card taken as take_outcome takes it, then turn.refill_at_once's rest,
    turn.refill_taken), without the outcome's round trip through the frame's work and resume
    (issue 17, P1). Declines an outcome that does not fit, and a Mayhem drawn (refill_at_once
    hands it to run)."""
    main = st["main"]
    if need["count"] != 1 or not draw_fits(len(main), 1, outcome) or CARDS[main[outcome[0]]]["kind"] == "mayhem":
        return False
    if st["notes"]:  # an empty list is kept (copy_state copies it: see there)
        st["notes"] = []
    if "held_notes" in st and st["held_notes"]:
        st["held_notes"] = []
    st["need"] = None
    turn_machine.refill_taken(st, f, main.pop(outcome[0]))
    return True


def card_drawn(st: dict, f: dict, need: dict, outcome: Any) -> bool:
    """The chance event of a card's draw (the top frame ``f`` at a ``draw`` op, op_draw's target and
    count in its work, ``need`` ensure_top's draw of the cards missing from that seat's top):
    draw_fits' test of ``outcome`` against the seat's deck, then what the general path does with it
    (the notes cleared, the cards taken as ensure_top takes them, the top's first n to the hand as
    op_draw puts them, the op done as run leaves it), then run for the rest (issue 17, P1: the
    general path's resume, run, _single, targets and op_draw before ensure_top took the cards).
    Declines before writing anything in a redirected effect, for another shape of work or zone,
    an outcome that does not fit, and one that leaves the top short of the count."""
    env = f["env"]
    w = f["work"]
    if "redirect" in env or len(w) != 2 or "n" not in w or "_who" not in w:
        return False
    who = w["_who"]
    zone = need["zone"]
    if len(who) != 1 or zone[0] != "player" or zone[1] != who[0]:
        return False
    p = st["players"][who[0]]
    pool = p["pool"]
    top = p["top"]
    n = w["n"]
    # op_draw sorts the hand only when it got a card (n of them here).
    if n < 1 or not draw_fits(len(pool), need["count"], outcome) or len(top) + len(outcome) < n:
        return False
    if st["notes"]:  # an empty list is kept (copy_state copies it: see there)
        st["notes"] = []
    if "held_notes" in st and st["held_notes"]:
        st["held_notes"] = []
    st["need"] = None
    interp.take_drawn(outcome, pool, top)
    hand = p["hand"]
    hand += top[:n]
    del top[:n]
    hand.sort()
    f["pc"] += 1
    f["work"] = {}
    run(st)
    return True


def top_card_played(st: dict, f: dict, need: dict, outcome: Any) -> bool:
    """The chance event of Wild Magic's draw (the top frame ``f`` at a ``play_top`` op, its foe in
    the work, ``need`` ensure_top's draw of that foe's top card) when the card drawn only adds
    Power (POWER_ONLY) and nothing its player controls triggers on it: what the general path does
    with it (the notes cleared; the card taken, logged, borrowed and noted as op_play_top does it,
    a scope taken for its frame; its Power as op_power adds it; op_after_play's return of it to its
    owner's discard), the op done as run leaves it, then run for the rest (issue 17, P1: resume,
    run, op_play_top, two frames pushed and run). Declines before writing anything for anything
    else."""
    env = f["env"]
    w = f["work"]
    if "redirect" in env or len(w) != 1 or "_who" not in w or need["count"] != 1:
        return False
    who = w["_who"]
    zone = need["zone"]
    if len(who) != 1 or zone[0] != "player" or zone[1] != who[0]:
        return False
    foe = who[0]
    p = st["players"][foe]
    pool = p["pool"]
    # ensure_top draws the one card only onto an empty top, which op_play_top then takes.
    if p["top"] or not draw_fits(len(pool), 1, outcome):
        return False
    cid = pool[outcome[0]]
    power = POWER_ONLY.get(cid)
    you = env["you"]
    if power is None or ((trigs := PLAY_TRIGGERS[cid]) and controls_any(st, you, trigs)):
        return False
    if st["notes"]:  # an empty list is kept (copy_state copies it: see there)
        st["notes"] = []
    if "held_notes" in st and st["held_notes"]:
        st["held_notes"] = []
    st["need"] = None
    del pool[outcome[0]]
    turn = st["turn"]
    turn["played_log"].append(cid)
    borrowed = turn["borrowed"]
    borrowed.append(cid)
    st["notes"].append(f"Seat {you} plays {CARDS[cid]['name']} from the top of seat {foe}'s deck.")
    st["scope"] += 1
    if st["phase"] == "turn" and you == st["active"] and not turn["ending"]:
        turn["power"] += power
    borrowed.remove(cid)  # op_after_play's, an equal id first (not always this one)
    p["discard"].append(cid)
    f["pc"] += 1
    f["work"] = {}
    run(st)
    return True


def attack_target_answer(st: dict, value: Any) -> bool:
    """The answer to an Attack's "whom?" (targets' question, the top frame at its ``attack`` op),
    in version 2: what run does with it, op_attack taking the target and _attack_together posing
    the defense window (the one target asked, as ask_together asks), written out (issue 17, P1:
    the Wand's second event). ``value`` is one of the options (apply_in_place checked it).
    Declines, before writing anything, for version 1 (one victim asked at a time), a redirected
    effect, a Mayhem's or a Group Attack's, and an unavoidable or deny-the-good-effect Attack."""
    if st.get("window") != "together":
        return False
    f = st["stack"][-1]
    op = f["prog"][f["pc"]]
    env = f["env"]
    w = f["work"]
    if (
        op["op"] != "attack"
        or w
        or "redirect" in env
        or env.get("mayhem")
        or env.get("group")
        or op.get("deny")
        or op.get("unavoidable")
    ):
        return False
    w["_who"] = [value]
    env.pop("attacking", None)
    st["prompt"] = {
        "seat": None,
        "seats": [value],
        "kind": "defend",
        "answers": {},
        "card": env.get("card"),
        "attacker": env["you"],
        "can_defend": {SEAT_KEYS[value]: True},
    }
    return True


def plain_hit_taken(st: dict, pr: dict, value: Any) -> bool:
    """The one answer of a defense window that asked one player, "take", when the Attack's effect
    is a plain hit (interp.PLAIN_HITS) that leaves them alive: what run does with it up to the
    Attack's op done (op_attack, _attack_together, _after_every_choice and _resolution: the note,
    last_defense, the scope taken, the damage; the frame moved on, its work emptied), then run
    for the rest (issue 17, P1: the Wand's third event). ``value`` was checked by apply_in_place.
    Declines before writing anything for any other window, answer or effect."""
    if value != "take" or len(pr["seats"]) != 1:
        return False
    f = st["stack"][-1]
    op = f["prog"][f["pc"]]
    # A global, which test_attack_at_once empties (with interp.PLAIN_HITS) for the frames.
    entry = PLAIN_HIT_OPS.get(id(op))
    if entry is None or entry[0] is not op:
        return False
    env = f["env"]
    w = f["work"]
    if "redirect" in env or len(w) != 1 or "_who" not in w or len(w["_who"]) != 1:
        return False
    v = w["_who"][0]
    if v != pr["seats"][0]:
        return False
    p = st["players"][v]
    # static's answer as _resolution asks it (interp.WAND_SETTERS: the default without a setter).
    extra = (
        static(st, v, "wand_extra", 0)
        if env.get("card") == "wand" and (st["temp"] or not WAND_SETTERS.isdisjoint(p[WAND_ZONE]))
        else 0
    )
    total = 0
    for n in entry[1]:
        if n + extra > 0:
            total += n + extra
    if p["hp"] <= total:
        return False  # a death: the frames and their kill checks
    st["prompt"] = None
    env.pop("attacking", None)
    st["notes"].append(TAKES_NOTES[v])
    attacker = None if (env.get("mayhem") or env.get("group")) else env["you"]
    st["last_defense"] = {"card": env.get("card"), "attacker": attacker, "choices": [[v, "take"]]}
    st["scope"] += 1
    p["hp"] -= total
    if not play_done_at_once(st, f):
        f["pc"] += 1
        f["work"] = {}
        run(st)
    return True


#: id(an Attack op in the card table) -> (that op, its hit's damage counts), for the Attacks
#: plain_hit_taken may do: a plain hit (interp.PLAIN_HITS) that the victim may avoid, with no
#: "deny the good effect" and no interactive resolution. Properties of the op, not of the
#: moment, so asked once here rather than at every "take". Keyed by identity, as PLAIN_HITS is.
PLAIN_HIT_OPS: dict[int, tuple[dict, tuple[int, ...]]] = {
    id(op): (op, interp.PLAIN_HITS[id(op["do"])][1])
    for op in interp.attack_ops(list(CARDS.values()))
    if id(op["do"]) in interp.PLAIN_HITS and not (op.get("deny") or op.get("interactive") or op.get("unavoidable"))
}

#: _attack_together's note for one player taking the Attack, per seat.
TAKES_NOTES = tuple(f"Seat {SEAT_KEYS[s]} takes the Attack." for s in range(5))


def _choose_ones(x):
    """Every "choose one" op anywhere in ``x`` (a card, a program, an op)."""
    if isinstance(x, dict):
        if x.get("op") == "choose_one":
            yield x
        for value in x.values():
            yield from _choose_ones(value)
    elif isinstance(x, list):
        for value in x:
            yield from _choose_ones(value)


#: id(an option's "do" list in the card table) -> (that list, its Power), for the options of a
#: "choose one" that only add a fixed Power (Wild Magic's "+2 Power"). Keyed by identity, as
#: interp.PLAIN_HITS is: a state read back from JSON holds equal copies, which take the frames.
POWER_OPTIONS: dict[int, tuple[list, int]] = {
    id(o["do"]): (o["do"], sum(d["n"] for d in o["do"]))
    for op in _choose_ones(list(CARDS.values()))
    for o in op["options"]
    if all(d.keys() == {"op", "n"} and d["op"] == "power" and type(d["n"]) is int for d in o["do"])
}


def power_option_chosen(st: dict, value: Any) -> bool:
    """The answer to a "choose one" (the top frame at its ``choose_one`` op) picking an option that
    only adds Power: what run does with it, op_choose_one pushing the option's frame and op_power
    adding the Power under its test (the player's own turn, not ending), the option's frame then
    done and the op moved on, written out; then run for the rest (issue 17, P1: Wild Magic's
    answer). Declines before writing anything for any other option, and in a redirected effect
    (whose loop runs no Power op)."""
    f = st["stack"][-1]
    op = f["prog"][f["pc"]]
    env = f["env"]
    if op["op"] != "choose_one" or type(value) is not int or f["work"] or "redirect" in env:
        return False
    do = op["options"][value]["do"]
    entry = POWER_OPTIONS.get(id(do))
    if entry is None or entry[0] is not do:
        return False
    st["prompt"] = None
    if st["phase"] == "turn" and env.get("you") == st["active"] and not st["turn"]["ending"]:
        st["turn"]["power"] += entry[1]
    if not play_done_at_once(st, f):
        f["pc"] += 1
        f["work"] = {}
        run(st)
    return True


def play_done_at_once(st: dict, f: dict) -> bool:
    """The top frame ``f``'s op at ``pc`` done, what run then does when that op was the last of a
    card's program played from the hand and the play's _after_play frame, the only one under it,
    has nothing to do (op_after_play: not an Ongoing card, and nothing the player controls
    triggers on it): both frames done and popped, the stack left empty as run leaves it (issue
    17, P1: a run and an op's call after the Wand's hit and Wild Magic's Power). Else False,
    nothing written: the caller moves ``f`` on and runs. test_play_done_at_once.py holds it to
    run."""
    stack = st["stack"]
    if len(stack) != 2 or f["pc"] + 1 != len(f["prog"]):
        return False
    g = stack[0]
    prog = g["prog"]
    if g["pc"] != 0 or len(prog) != 1 or "redirect" in g["env"]:
        return False
    op = prog[0]
    if op["op"] != "_after_play" or "owner" in op:
        return False
    cid = op["card"]
    if cid in ONGOING:
        return False
    trigs = PLAY_TRIGGERS[cid]
    if trigs and controls_any(st, g["env"]["you"], trigs):
        return False
    stack.clear()
    return True
