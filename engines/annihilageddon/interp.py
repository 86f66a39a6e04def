"""The resumable effect interpreter.

A card's behaviour is a *program*: a list of ops (see ``cards.OPS``). Programs run on a stack
of frames that lives in the JSON state::

    frame = {"prog": [op, ...], "pc": int, "env": {...}, "work": {...}}

``run(state)`` executes the top frame's op at ``pc``. An op either finishes (``pc`` moves on),
pushes child frames (and is re-entered when they are gone, its progress kept in ``work``), or
*suspends*: it sets ``state["prompt"]`` (a seat must decide: a Defense, a target, a "may", a
card) or ``state["need"]`` (a random draw is due) and ``run`` returns. The engine answers by
writing ``work["answer"]`` or ``work["outcome"]`` into the top frame and calling ``run`` again;
the op re-executes and reads it. Nothing but plain JSON is ever stored, so a match can stop at
any prompt and resume in another process.

The turn machine itself (refill, start of turn, end of turn, Legend flip, end check) is written
as internal ops (names starting with ``_``) in ``turn.py`` and runs on the same stack.

``env`` keys: you (the player whose effect this is), it (the current victim), count_it (whose
zones "it" counts in a redirected effect), redirect, attacker (the attacking player, None for
Mayhems and Group Attacks), source (who is credited with a kill), card, scope (kill tracking),
mayhem / group (what kind of effect runs), participants (players taking part in a Mayhem),
killer / at_death (a Dead Wizard Token's text), via_wild.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import CARDS, LIMP_WAND, ONGOING, SINGLE_OPS, WILD_MAGIC, matches

MAX_HP = 25
START_HP = 20

#: ``str(seat)`` for every seat (2 to 5 players): the key of a seat in the dicts keyed by seat,
#: indexed instead of converted (issue 17, P1: a str call per victim and per defend answer).
SEAT_KEYS = tuple(str(s) for s in range(5))

#: The label of a draw of n cards from a seat's deck ([seat][n], n up to 15) and the note of a
#: seat's reshuffle, made once (issue 17, P1: formatting them was a tenth of an end_turn's cost).
DRAW_LABELS = tuple(tuple(f"Seat {s} draws {n}" for n in range(16)) for s in range(5))
SHUFFLE_NOTES = tuple(f"Seat {s} shuffles their discard pile into a new deck." for s in range(5))


def draw_label(seat: int, n: int) -> str:
    """``f"Seat {seat} draws {n}"``, from DRAW_LABELS when it holds it."""
    return DRAW_LABELS[seat][n] if n < 16 else f"Seat {seat} draws {n}"


class _Signal:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return self.name


WAIT = _Signal("WAIT")  # a prompt or a draw is pending
DONE = _Signal("DONE")  # the op is finished: move on
PUSHED = _Signal("PUSHED")  # the op pushed frames (it is re-entered or already moved on)
OVER = _Signal("OVER")  # the game is over: the stack is gone

HANDLERS: dict[str, Callable] = {}


def handler(name: str):
    def deco(fn):
        HANDLERS[name] = fn
        return fn

    return deco


# -- frames -----------------------------------------------------------------------------


def frame(prog: list, env: dict) -> dict:
    return {"prog": prog, "pc": 0, "env": env, "work": {}}


def child_env(f: dict, **over) -> dict:
    env = dict(f["env"])
    env.update(over)
    return env


def push(st: dict, frames: list[dict]) -> None:
    """Push ``frames`` so that the first one in the list runs first."""
    st["stack"].extend(reversed(frames))


def push_then_done(st: dict, f: dict, frames: list[dict]):
    if not frames:
        # Nothing to push: run moves on to the next op itself, without looking at the frame again.
        return DONE
    f["pc"] += 1
    f["work"] = {}
    st["stack"].extend(reversed(frames))  # push
    return PUSHED


def new_scope(st: dict) -> int:
    st["scope"] += 1
    return st["scope"]


def run(st: dict) -> None:
    # The loop runs a few times per event on every replay: the tables are bound to locals, a
    # frame's fields are read once and its ops run in an inner loop until one suspends or pushes
    # (issue 17, P1). An op that poses a question or asks for a draw returns WAIT (every caller of
    # ask, draw_from and ensure_top passes it up), and the end check returns OVER: those two stop
    # the loop, so it needs no look at the prompt, the draw or the phase per step. No op returns
    # DONE after pushing frames or moving ``pc`` (push_then_done returns PUSHED), so after DONE
    # the frame is still on top with its next op due.
    stack = st["stack"]
    handlers = HANDLERS
    while stack:
        f = stack[-1]
        prog, pc = f["prog"], f["pc"]
        end = len(prog)
        if pc >= end:
            stack.pop()
            continue
        if "redirect" not in f["env"]:  # only a redirected effect's env has the key (always True)
            while pc < end:
                op = prog[pc]
                r = handlers[op["op"]](st, f, op)
                if r is not DONE:
                    break
                pc += 1
                f["pc"] = pc
                if f["work"]:  # an empty one stays: nothing outside the op holds it
                    f["work"] = {}
            else:
                stack.pop()
                continue
        else:
            # The same loop for a redirected effect (AN L221-227), which hits only the attacker:
            # whatever is not done to "it" (the victim) has nothing to do.
            while pc < end:
                op = prog[pc]
                name = op["op"]
                if name in ("if", "choose_one") or op.get("who", "you") == "it":
                    r = handlers[name](st, f, op)
                    if r is not DONE:
                        break
                pc += 1
                f["pc"] = pc
                if f["work"]:
                    f["work"] = {}
            else:
                stack.pop()
                continue
        if r is WAIT or r is OVER:
            return


# -- prompts and draws -----------------------------------------------------------------------


def ask(st: dict, f: dict, seat: int, kind: str, **info):
    """The answer to a question for ``seat``, or WAIT after posing it."""
    w = f["work"]
    if "answer" in w:
        return w.pop("answer")
    st["prompt"] = {"seat": seat, "kind": kind, **info}
    return WAIT


def zone_list(st: dict, zone: list) -> list:
    if zone[0] == "player":
        return st["players"][zone[1]]["pool"]
    if zone[0] == "main":
        return st["main"]
    if zone[0] == "legend":
        return st["legend"]["unseen"]
    if zone[0] == "dwt":
        return st["dwt"]["unseen"]
    if zone[0] == "box":
        return st["box"][zone[1]]
    raise ValueError(zone)


def take_outcome(w: dict, pool: list, into: list) -> list:
    """Move the cards of the drawn outcome in ``w`` (indices into ``pool``, which the chance
    event chose) out of ``pool`` onto the end of ``into``, in the outcome's order; ``into``."""
    return take_drawn(w.pop("outcome"), pool, into)


def take_drawn(out: list, pool: list, into: list) -> list:
    """take_outcome's move, of an outcome already in hand (the fold's fast draws)."""
    if len(out) == 1:  # most draws: no sort of one index
        into.append(pool.pop(out[0]))
        return into
    into += map(pool.__getitem__, out)
    for i in sorted(out, reverse=True):
        del pool[i]
    return into


def draw_from(st: dict, f: dict, zone: list, count: int, visible, label: str):
    """Take ``count`` cards from an unordered pool: a list, or WAIT while the draw is due.
    Taking a whole pool needs no chance event (which of them came first does not matter)."""
    pool = zone_list(st, zone)
    w = f["work"]
    if "outcome" in w:
        return take_outcome(w, pool, [])
    if count <= 0:
        return []
    if count >= len(pool):
        picks = list(pool)
        pool.clear()
        return picks
    st["need"] = {"zone": zone, "count": count, "visible": visible, "label": label}
    return WAIT


def ensure_top(st: dict, f: dict, seat: int, k: int, visible):
    """Make the top ``k`` cards of ``seat``'s deck known (fewer if deck and discard run out):
    the number known, or WAIT. The discard becomes the deck only now, when a card is needed
    and the deck is empty (AN L241-243, L521)."""
    p = st["players"][seat]
    w = f["work"]
    top = p["top"]
    if "outcome" in w:
        take_outcome(w, p["pool"], top)
    while len(top) < k:
        pool = p["pool"]
        if pool:
            need = k - len(top)
            if need >= len(pool):
                # draw_from's taking of a whole pool, without its call (every draw of a card
                # runs this): which card came first does not matter.
                top += pool
                pool.clear()
                continue
            # The outcome was taken above, so draw_from records the draw due and says WAIT.
            label = draw_label(seat, need) if visible != "all" else f"Top of seat {seat}'s deck"
            return draw_from(st, f, ["player", seat], need, visible, label)
        if p["discard"]:
            reshuffle(st, p, seat)
            continue
        break
    n = len(top)
    return k if k < n else n  # min(k, n) without min's tuple of arguments (issue 17, P1)


def reshuffle(st: dict, p: dict, seat: int) -> list:
    """``seat``'s discard pile (``p``'s) becomes their deck (AN L241-243), said in the notes; the
    new deck."""
    p["pool"] = pool = sorted(p["discard"])
    p["discard"] = []
    st["notes"].append(SHUFFLE_NOTES[seat])
    return pool


def without(items: list, item) -> list:
    """``items`` less its first ``item``, as a new list. A player's ``ongoing``, ``dwts`` and dealt
    lists change only by being replaced: engine.copy_state shares them between states."""
    out = items[:]
    out.remove(item)
    return out


def to_hand(p: dict, cid: str) -> None:
    p["hand"].append(cid)
    p["hand"].sort()


# -- selectors, numbers, conditions -----------------------------------------------------------


def hp_of(st: dict, seat: int) -> int:
    return st["players"][seat]["hp"]


def one(env: dict, sel: str, counting: bool = False):
    if sel == "it" and counting and "count_it" in env:
        return env["count_it"]
    if sel == "active":
        return env.get("active", env.get("you"))
    return env.get(sel)


def next_in_game(st: dict, seat: int, step: int = 1) -> int:
    """The next seat clockwise from ``seat`` (counter-clockwise with ``step`` -1) that has not left
    the game (version 4, ``gone``: RULES.md, "A seat that leaves"; AN L147, L280)."""
    n = st["seats"]
    nxt = (seat + step) % n
    gone = st.get("gone")
    if gone:
        while nxt in gone:
            nxt = (nxt + step) % n
    return nxt


def passes_first(st: dict, active: int, nxt: int) -> bool:
    """Whether play passing from ``active`` to ``nxt`` passes the first player's seat: a new round,
    also when the first player has left the game (version 4) and ``nxt`` is a seat after theirs."""
    n = st["seats"]
    return (st["first"] - active - 1) % n < (nxt - active) % n


def _everyone(st: dict, env: dict) -> list[int]:
    you = env["you"]  # a seat: 0 <= you < seats
    order = [*range(you, st["seats"]), *range(you)]  # [(you + k) % seats for k in range(seats)], in C
    if "gone" in st:
        # Version 4: a seat that left is no player any card names (RULES.md, "A seat that leaves").
        gone = st["gone"]
        order = [s for s in order if s not in gone]
    parts = env.get("participants")
    return order if parts is None else list(filter(parts.__contains__, order))


def targets(st: dict, f: dict, who: str):
    """The players ``who`` names, clockwise from the effect's player (AN L276-280), or WAIT
    while the player picks a target or breaks a tie (AN L211-215, L354)."""
    w = f["work"]
    if "_who" in w:
        return w["_who"]
    if "answer" in w:
        # The answer to the one question below: every op asks targets first, and its own
        # questions after ``_who`` is set. The state is the one it was asked in, so the tests
        # before it need no second run (issue 17, P1).
        res = w["_who"] = [w.pop("answer")]
        return res
    env = f["env"]
    you = env["you"]
    n = st["seats"]
    if (
        env.get("attacking")
        and not (env.get("mayhem") or env.get("group"))
        and st["temp"]  # self_target is only ever granted (test_self_target_is_only_granted.py)
        and static(st, you, "self_target")
    ):
        # AN L392: under the mirror Mayhem every Attack you make has you as its only target.
        w["_who"] = [you]
        return [you]
    if who in ("you", "it", "attacker", "killer", "active"):
        seat = env.get(who) if who != "active" else env.get("active", you)  # one(env, who), inline
        parts = env.get("participants")
        # A seat that left (version 4) is never named here: engine.leave drops or re-anchors the
        # frames that name it and clears an "attacker" or "killer" that is it.
        res = [] if seat is None or (who != "it" and parts is not None and seat not in parts) else [seat]
    else:
        res = _table_targets(st, f, env, who, you, n)
        if res is WAIT:
            return WAIT
    w["_who"] = res
    return res


def statics(st: dict, seat: int) -> dict[str, Any]:
    """The standing modifiers ``seat`` controls: Ongoing cards, Dead Wizard Tokens, tile, standee."""
    out: dict[str, Any] = {}
    for cid in controlled_having(st, seat, HAVING["static"]):
        for key, value in CARDS[cid]["static"].items():
            if key == "heal_multiplier":
                out[key] = out.get(key, 1) * value
            elif key in ("wand_extra", "counts_as_dwt", "respawn_bonus"):
                out[key] = out.get(key, 0) + value
            elif key == "wild_magic_cost":
                out[key] = min(out.get(key, value), value)
            else:
                out[key] = value
    temp = st["temp"]
    if temp:
        for key, value in temp.get(SEAT_KEYS[seat], {}).items():
            out[key] = value
    return out


def static(st: dict, seat: int, key: str, default: Any = None) -> Any:
    """``statics(st, seat).get(key, default)``, building the whole dict only when a card ``seat``
    controls sets ``key`` (issue 17, P1: every Attack asks whether its player must target
    themselves, every heal for a multiplier, and almost never does anything set them). A
    grant for this turn (``temp``) is applied last by statics, so it is the answer when present.
    test_static.py holds it to statics at every state of random playouts."""
    temp = st["temp"]
    if temp:
        mine = temp.get(SEAT_KEYS[seat])
        if mine and key in mine:
            return mine[key]
    where = STATIC_ZONES.get(key)
    if where is None:
        return default
    having, zone = where
    if zone is not None:
        if having.isdisjoint(st["players"][seat][zone]):
            return default
    elif not controls_any(st, seat, having):
        return default
    return statics(st, seat).get(key, default)


def controlled(st: dict, seat: int) -> list[str]:
    """Cards ``seat`` controls on an Ongoing basis (AN L284-286): Ongoing cards in play,
    Dead Wizard Tokens, the Ability tile and standees."""
    p = st["players"][seat]
    out = list(p["ongoing"]) + list(p["dwts"])
    if p["tile"] and st["revealed"]["tile"]:
        out.append(p["tile"])
    if p["standee"]:
        out.append(p["standee"])
    if p["trophy"]:
        out.append("trophy")
    return out


#: For each card text a controlled card may have, the ids of the cards that have one (not empty).
#: Most cards have none of them, so a question such as "what triggers on a play" asks only these
#: (issue 17, P1: the list of everything controlled was built and read for each such question).
HAVING: dict[str, frozenset[str]] = {
    key: frozenset(cid for cid, c in CARDS.items() if c.get(key))
    for key in ("static", "on_play", "start_of_turn", "end_of_turn", "on_kill", "on_destroy_owned")
}


#: For each standing modifier a card's static text sets, the ids of the cards that set it.
STATIC_SETTERS: dict[str, frozenset[str]] = {
    key: frozenset(cid for cid in HAVING["static"] if key in CARDS[cid]["static"])
    for key in {key for cid in HAVING["static"] for key in CARDS[cid]["static"]}
}


def setters_zone(having: frozenset[str]) -> str | None:
    """The one zone of a player's that can hold the cards of ``having`` among those controlled
    (controlled()'s order): Ongoing cards for cards of the decks (a card played from the hand or
    taken with Wild Magic stays in front of its player only there), the tokens for Dead Wizard
    Tokens; None when they are of other kinds or of several (controls_any asks every zone)."""
    kinds = {CARDS[cid]["kind"] for cid in having}
    if kinds == {"dwt"}:
        return "dwts"
    if kinds <= {"main", "familiar", "legend", "starter"}:
        return "ongoing"
    return None


#: For each standing modifier, its setters and the one zone to look for them in (None: every
#: zone, through controls_any). static asks only that zone (issue 17, P1: a call per static).
STATIC_ZONES: dict[str, tuple[frozenset[str], str | None]] = {
    key: (having, setters_zone(having)) for key, having in STATIC_SETTERS.items()
}


#: wand_extra's setters and their one zone: a Wand's hit asks static for the bonus only when its
#: victim holds a setter there or ``temp`` holds a grant (static's other answer is the default, 0;
#: issue 17, P1: a call per Wand hit). test_static_zones holds it to static.
WAND_SETTERS, WAND_ZONE = STATIC_ZONES["wand_extra"]


#: For each card, the cards whose "on play" text a play of it sets off when controlled
#: (after_play_triggers' test before any state is read: a text, not the card itself, and
#: the card matches the text's filter). A filter asks only the card's printed facts, so this
#: holds in every state; Glyph and Fizzle, having no type, set off none of them.
PLAY_TRIGGERS: dict[str, frozenset[str]] = {
    cid: frozenset(
        trig
        for trig in HAVING["on_play"]
        if trig != cid and CARDS[trig]["on_play"] and matches(cid, CARDS[trig]["on_play"].get("filter"))
    )
    for cid in CARDS
}


def controlled_having(st: dict, seat: int, having: frozenset[str]) -> list[str]:
    """``[c for c in controlled(st, seat) if c in having]``, in that order, without the whole list."""
    p = st["players"][seat]
    ongoing, dwts = p["ongoing"], p["dwts"]
    # isdisjoint (in C) first: most of the time none of them has the text, and then no list is walked.
    # filter, not a comprehension: ``having`` would be a cell made on every call.
    out = list(filter(having.__contains__, ongoing)) if ongoing and not having.isdisjoint(ongoing) else []
    if dwts and not having.isdisjoint(dwts):
        out += filter(having.__contains__, dwts)
    tile = p["tile"]
    if tile and tile in having and st["revealed"]["tile"]:
        out.append(tile)
    standee = p["standee"]
    if standee and standee in having:
        out.append(standee)
    if p["trophy"] and "trophy" in having:
        out.append("trophy")
    return out


def controls_any(st: dict, seat: int, having: frozenset[str]) -> bool:
    """``bool(controlled_having(st, seat, having))`` without the list: the question most callers
    ask (is anything to be done at all?). test_static.py holds the two together."""
    p = st["players"][seat]
    if not having.isdisjoint(p["ongoing"]) or not having.isdisjoint(p["dwts"]):
        return True
    tile = p["tile"]
    if tile and tile in having and st["revealed"]["tile"]:
        return True
    standee = p["standee"]
    if standee and standee in having:
        return True
    # The set's test first: "trophy" is in few of them (the player's flag is read only then).
    return "trophy" in having and bool(p["trophy"])


def owned(st: dict, seat: int) -> list[str]:
    """Every card ``seat`` owns (AN L284-286): deck, hand, discard, in play."""
    p = st["players"][seat]
    out = p["top"] + p["pool"] + p["hand"] + p["discard"] + p["ongoing"]
    if st["phase"] == "turn" and st["active"] == seat:
        out = out + st["turn"]["played"]
    return out


def num(st: dict, env: dict, x) -> int:
    if type(x) is int:
        return x
    if "count" in x:
        zone = x["count"]
        seat = one(env, x.get("of", "you"), counting=True)
        flt = x.get("filter")
        if zone == "lineup":
            cards = [c for c in st["lineup"] if c]
        elif zone == "mayhem_pile":
            cards = st["mayhem_pile"]
        elif seat is None:
            cards = []
        elif zone == "owned":
            cards = owned(st, seat)
        elif zone == "played":
            cards = st["turn"]["played_log"] if seat == st["active"] else []
        elif zone == "cost5":
            cards = owned(st, seat)
            flt = {"cost_min": 5}
        else:
            cards = st["players"][seat][zone]
        value = sum(1 for c in cards if matches(c, flt))
    elif "dwt_count" in x:
        seat = one(env, x["dwt_count"], counting=True)
        value = 0 if seat is None else len(st["players"][seat]["dwts"]) + statics(st, seat).get("counts_as_dwt", 0)
    elif "ongoing_count" in x:
        # AN L378: standees and Ongoing Dead Wizard Tokens count as Ongoing you control.
        seat = one(env, x["ongoing_count"], counting=True)
        value = 0
        if seat is not None:
            p = st["players"][seat]
            value = len(p["ongoing"]) + sum(1 for d in p["dwts"] if "ongoing" in CARDS[d].get("icons", []))
            value += (1 if p["trophy"] else 0) + (1 if p["standee"] else 0)
    elif "hp" in x:
        seat = one(env, x["hp"], counting=True)
        value = 0 if seat is None else hp_of(st, seat)
    elif "count_sel" in x:
        value = len(targets(st, {"env": env, "work": {}}, x["count_sel"]))
    elif "played_distinct" in x:
        log = st["turn"]["played_log"]
        value = len({c for c in log if matches(c, x["played_distinct"])})
    else:  # pragma: no cover - the schema refuses anything else
        raise ValueError(x)
    value = value * x.get("times", 1) + x.get("plus", 0)
    if "max" in x:
        value = min(value, x["max"])
    return value


def cond(st: dict, env: dict, c: dict) -> bool:
    key, val = next(iter(c.items()))
    if key == "killed":
        seat = one(env, val)
        return [env.get("scope"), seat] in st["deaths"]
    if key == "at_death":
        return bool(env.get("at_death")) == val
    if key == "weakest":
        seat = one(env, val)
        if "gone" in st:  # version 4: among the players still in the game
            gone = st["gone"]
            return hp_of(st, seat) == min(p["hp"] for s, p in enumerate(st["players"]) if s not in gone)
        return hp_of(st, seat) == min(p["hp"] for p in st["players"])
    if key == "has":
        spec = {"count": val["zone"], "of": val.get("of", "you")}
        if "filter" in val:
            spec["filter"] = val["filter"]
        return num(st, env, spec) > 0
    if key == "cmp":
        a, o, b = val
        a, b = num(st, env, a), num(st, env, b)
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[o]
    raise ValueError(c)  # pragma: no cover


# -- single-player ops --------------------------------------------------------------------------


def _table_targets(st: dict, f: dict, env: dict, who: str, you: int, n: int):
    """targets' choices that look at the whole table (one seat named needs no list of it): the
    seats, or WAIT. Its own function: its comprehensions' cells are made only when it runs,
    not on every call of targets (issue 17, P1)."""
    everyone = _everyone(st, env)
    foes = [s for s in everyone if s != you]
    if who == "each_foe":
        res = foes
    elif who == "each_player":
        res = everyone
    elif who in ("left", "right", "left_and_right"):
        # AN L217: with two players "left and right" is the one foe, hit once.
        cands = []
        if who in ("left", "left_and_right"):
            cands.append((you + 1) % n if "gone" not in st else next_in_game(st, you))
        if who in ("right", "left_and_right"):
            cands.append((you - 1) % n if "gone" not in st else next_in_game(st, you, -1))
        res = [s for s in everyone if s in cands and s != you]
    elif who in ("weaker_foes", "stronger_foes"):
        # AN L215: equal HP is neither weaker nor stronger.
        mine = hp_of(st, you)
        res = [s for s in foes if (hp_of(st, s) < mine if who == "weaker_foes" else hp_of(st, s) > mine)]
    elif who in ("weakest_players", "strongest_players"):
        # AN L219: "player(s)" hits every player tied for the criterion.
        pick = min if who == "weakest_players" else max
        if everyone:
            best = pick(hp_of(st, s) for s in everyone)
            res = [s for s in everyone if hp_of(st, s) == best]
        else:
            res = []
    else:
        if who == "target_foe":
            cands = foes
        elif who == "target_player":
            cands = everyone
        elif who in ("weakest_foe", "strongest_foe") and foes:
            pick = min if who == "weakest_foe" else max
            best = pick(hp_of(st, s) for s in foes)
            cands = [s for s in foes if hp_of(st, s) == best]
        else:
            cands = []
        if len(cands) <= 1:
            res = cands
        else:
            a = ask(st, f, you, "target", options=cands, why=who, card=env.get("card"))
            if a is WAIT:
                return WAIT
            res = [a]
    return res


def _single(st: dict, f: dict, op: dict):
    seats = targets(st, f, op["who"])
    if seats is WAIT:
        return WAIT
    if not seats:
        return DONE
    if len(seats) == 1:
        return SINGLE[op["op"]](st, f, op, seats[0])
    return push_then_done(st, f, _each_it(f, dict(op, who="it"), seats))


def _each_it(f: dict, body: dict, seats: list[int]) -> list[dict]:
    """_single's frames, ``body`` for each of ``seats`` as "it". Its own function: the
    comprehension's cells are made only here, not on every call of _single (issue 17, P1)."""
    return [frame([body], child_env(f, it=s)) for s in seats]


# run's one table: a single-player op goes through _single (no op name is both kinds).
for _name in SINGLE_OPS:
    HANDLERS[_name] = _single

SINGLE: dict[str, Callable] = {}


def single(name: str):
    def deco(fn):
        SINGLE[name] = fn
        return fn

    return deco


@single("draw")
def op_draw(st, f, op, seat):
    w = f["work"]
    if "n" not in w:
        n = op["n"]
        w["n"] = n if type(n) is int else num(st, f["env"], n)
    got = ensure_top(st, f, seat, w["n"], [seat])
    if got is WAIT:
        return WAIT
    if got:
        # to_hand card by card, with one sort: the same sorted hand.
        p = st["players"][seat]
        top = p["top"]
        p["hand"] += top[:got]
        del top[:got]
        p["hand"].sort()
    return DONE


def kill_check(st: dict, f: dict, seat: int, fatality: bool = False, self_inflicted: bool = False):
    """After HP fell: a death (AN L332) runs at once, then the effect carries on."""
    p = st["players"][seat]
    if p["hp"] >= 1:
        return DONE
    st["deaths"].append([f["env"].get("scope"), seat])
    f["work"]["dead"] = True
    killer = seat if self_inflicted else f["env"].get("source")
    die = {"op": "_die", "seat": seat, "killer": killer}
    if fatality and killer is not None and killer != seat:
        die["choose"] = True
    push(st, [frame([die], {"you": seat})])
    return PUSHED


@single("damage")
def op_damage(st, f, op, seat):
    w = f["work"]
    if w.get("dead"):
        return DONE
    n = op["n"]
    if type(n) is not int:
        n = num(st, f["env"], n)
    if f["env"].get("card") == "wand":
        # AN L412: only the starter named "Wand" deals the token's extra damage.
        n += static(st, seat, "wand_extra", 0)
    if n <= 0:
        return DONE
    st["players"][seat]["hp"] -= n
    return kill_check(st, f, seat, op.get("fatality", False))


@single("heal")
def op_heal(st, f, op, seat):
    # AN L352: heal at any HP, never above 25; L376: a doubler doubles every heal.
    n = op["n"]
    if type(n) is not int:
        n = num(st, f["env"], n)
    heal_by(st["players"][seat], n * static(st, seat, "heal_multiplier", 1))
    return DONE


def heal_by(p: dict, n: int) -> None:
    """Player ``p`` healed by ``n`` (its multiplier applied): never above 25 (AN L352), and a heal
    never lowers HP already above it. turn.hand_over_at_once heals through it too."""
    # max(hp, min(MAX_HP, hp + n)) as comparisons: min and max parse their arguments as a tuple
    # with keywords, about 2,300 instructions a heal in CPython 3.11 (issue 17, P1).
    hp = p["hp"]
    new = hp + n
    if new > MAX_HP:
        new = MAX_HP
    if new > hp:
        p["hp"] = new


@handler("pay_hp")
def op_pay_hp(st, f, op):
    # AN L390, L420: paying needs the HP; paying can kill you (no Trophy for a self-kill).
    w = f["work"]
    if w.get("dead"):
        return DONE
    seat = f["env"]["you"]
    st["players"][seat]["hp"] -= num(st, f["env"], op["n"])
    return kill_check(st, f, seat, self_inflicted=True)


@single("pay_repeat")
def op_pay_repeat(st, f, op, seat):
    """Pay N HP, as often as you like, for the effect each time (AN L390): only with at least N
    HP; a payment that kills you ends it (a self-kill)."""
    w = f["work"]
    if w.get("dead"):
        return DONE
    n = op["n"]
    if st["players"][seat]["hp"] < n:
        return DONE
    a = ask(st, f, seat, "yesno", options=["yes", "no"], card=f["env"].get("card"), why="pay")
    if a is WAIT:
        return WAIT
    if a == "no":
        return DONE
    st["players"][seat]["hp"] -= n
    r = kill_check(st, f, seat, self_inflicted=True)
    if r is PUSHED:
        return PUSHED
    push(st, [frame(op["do"], child_env(f, you=seat, it=seat, source=seat))])
    return PUSHED


def _dest(p: dict, cid: str, to: str) -> None:
    if to == "hand":
        to_hand(p, cid)
    else:
        p["discard"].append(cid)


@single("gain")
def op_gain(st, f, op, seat):
    p = st["players"][seat]
    to = op.get("to", "discard")
    src = op["from"]
    if src == "limp_wand":
        # AN L310: an empty stack gives nothing; the rest of the effect still happens.
        if st["limp_wands"] > 0:
            st["limp_wands"] -= 1
            _dest(p, LIMP_WAND, to)
        return DONE
    if src == "wild_magic":
        if st["wild_magic"] > 0:
            st["wild_magic"] -= 1
            _dest(p, WILD_MAGIC, to)
        return DONE
    if src == "main_top":
        got = draw_from(st, f, ["main"], 1, "all", "Top of the main deck")
        if got is WAIT:
            return WAIT
        for cid in got:
            if CARDS[cid]["kind"] == "mayhem":
                # AN L269, L326: a gained Mayhem is destroyed unresolved; nothing replaces it.
                st["mayhem_pile"] = st["mayhem_pile"] + [cid]  # replaced (engine.copy_state shares it)
            else:
                _dest(p, cid, to)
        return DONE
    # from the Line-Up: the gainer picks among the matching cards (AN L265-271)
    slots = [i for i, c in enumerate(st["lineup"]) if c and matches(c, op.get("filter"))]
    if not slots:
        return DONE
    a = slots[0] if len(slots) == 1 else ask(st, f, seat, "slot", options=slots, why="gain")
    if a is WAIT:
        return WAIT
    cid = st["lineup"][a]
    st["lineup"][a] = None
    _dest(p, cid, to)
    return DONE


@single("discard")
def op_discard(st, f, op, seat):
    p = st["players"][seat]
    flt = op.get("filter")
    if op["n"] == "all":
        # AN L310, L290: Limp Wands and Wild Magic have no type, so a typed discard skips them.
        keep, gone = [], []
        for c in p["hand"]:
            (gone if matches(c, flt) else keep).append(c)
        p["hand"] = keep
        p["discard"] += gone
        return DONE
    w = f["work"]
    if "left" not in w:
        w["left"] = num(st, f["env"], op["n"])
    always = "hand_questions" in st
    while w["left"] > 0:
        tokens = bool(op.get("or_token") and p["dwts"])
        if always:
            # Version 3 (RULES.md, "Every question about a hand is asked whatever it holds"): asked
            # whenever the hand holds a card, even copies of one card (one answer offered); no
            # question told everyone the hand was all one card (AN-R7: a question reveals nothing).
            if not p["hand"] and not tokens:
                break
            a = ask(st, f, seat, "card", zone="hand", of=seat, filter=flt, why="discard", tokens=tokens)
            if a is WAIT:
                return WAIT
            if a == "none":  # nothing in the hand matches the filter
                break
        else:
            options = sorted({c for c in p["hand"] if matches(c, flt)})
            if not options and not tokens:
                break
            if len(options) == 1 and not tokens:
                a = options[0]
            else:
                a = ask(st, f, seat, "card", zone="hand", of=seat, filter=flt, why="discard", tokens=tokens)
            if a is WAIT:
                return WAIT
        if a.startswith("token:"):
            # AN L402: the one way to get rid of a token; the stack is shuffled after it.
            return_token(st, seat, a[6:])
        else:
            p["hand"].remove(a)
            p["discard"].append(a)
        w["left"] -= 1
    return DONE


def destroy_card(st: dict, owner: int | None, cid: str) -> list[dict]:
    """Put ``cid`` (already taken from its zone) where destroyed cards go (AN L259-263):
    a Limp Wand or Wild Magic back on its stack. Returns the trigger frames it causes."""
    kind = CARDS[cid]["kind"]
    if kind == "limp_wand":
        st["limp_wands"] += 1
    elif kind == "wild_magic":
        st["wild_magic"] += 1
    else:
        st["destroyed"] = st["destroyed"] + [cid]  # replaced (engine.copy_state shares it)
    frames = []
    if owner is not None:
        # AN L358: destroying a card you own triggers your standee, whoever destroyed it.
        for trig in controlled_having(st, owner, HAVING["on_destroy_owned"]):
            prog = CARDS[trig]["on_destroy_owned"]
            if prog:
                frames.append(frame(prog, {"you": owner, "source": owner, "card": trig, "scope": new_scope(st)}))
    return frames


@single("destroy")
def op_destroy(st, f, op, seat):
    p = st["players"][seat]
    w = f["work"]
    src = op["from"]
    flt = op.get("filter")
    may = op.get("may", False)
    if "left" not in w:
        w["left"] = num(st, f["env"], op["n"])
        w["frames"] = []
    while w["left"] > 0:
        if src == "deck_top":
            got = ensure_top(st, f, seat, 1, "all")
            if got is WAIT:
                return WAIT
            if not got:
                break
            cid = p["top"].pop(0)
            w["frames"] += destroy_card(st, seat, cid)
        elif src == "lineup":
            chooser = f["env"]["you"]
            options = [i for i, c in enumerate(st["lineup"]) if c and matches(c, flt)]
            if not options:
                break
            a = ask(st, f, chooser, "slot", options=options + (["none"] if may else []), why="destroy")
            if a is WAIT:
                return WAIT
            if a == "none":
                break
            cid = st["lineup"][a]
            st["lineup"][a] = None
            w["frames"] += destroy_card(st, None, cid)
        else:
            zones = ["hand", "discard"] if src == "hand_or_discard" else [src]
            options = [c for z in zones for c in p[z] if matches(c, flt)]
            # Version 3 (RULES.md, "Every question about a hand is asked whatever it holds"): a
            # hand with cards is asked ("none" when nothing in it matches), so the question tells
            # nobody whether it holds, say, a Fizzle (AN-R7).
            if not options and not ("hand_questions" in st and "hand" in zones and p["hand"]):
                break
            chooser = f["env"]["you"] if src == "ongoing" else seat
            a = ask(st, f, chooser, "card", zone=src, of=seat, filter=flt, optional=may, why="destroy")
            if a is WAIT:
                return WAIT
            if a == "none":
                break
            z, cid = a.split(":", 1) if src == "hand_or_discard" else (src, a)
            p[z] = without(p[z], cid)  # z may be "ongoing" (see without)
            w["frames"] += destroy_card(st, seat, cid)
        w["left"] -= 1
    return push_then_done(st, f, w["frames"])


@single("search_top")
def op_search_top(st, f, op, seat):
    """Reveal the top n; every card that matches must go to the hand (AN L356); the rest are
    discarded."""
    w = f["work"]
    if "n" not in w:
        w["n"] = num(st, f["env"], op["n"])
    got = ensure_top(st, f, seat, w["n"], "all")
    if got is WAIT:
        return WAIT
    p = st["players"][seat]
    revealed, p["top"] = p["top"][:got], p["top"][got:]
    for c in revealed:
        if matches(c, op["filter"]):
            to_hand(p, c)
        else:
            p["discard"].append(c)
    return DONE


@single("reveal_sort")
def op_reveal_sort(st, f, op, seat):
    """Reveal the top n (reshuffling the discard mid-way if the deck runs out, AN L386);
    discard those that cost 1 or more; the rest go back on top."""
    got = ensure_top(st, f, seat, op["n"], "all")
    if got is WAIT:
        return WAIT
    p = st["players"][seat]
    revealed, rest = p["top"][:got], p["top"][got:]
    keep = [c for c in revealed if not (CARDS[c].get("cost") or 0) >= 1]
    p["discard"] += [c for c in revealed if (CARDS[c].get("cost") or 0) >= 1]
    p["top"] = keep + rest
    return DONE


@single("return_ongoing")
def op_return_ongoing(st, f, op, seat):
    """An Ongoing card ``seat`` controls goes to its owner's discard (AN L247); the card's
    player chooses which."""
    p = st["players"][seat]
    options = sorted(set(p["ongoing"]))
    if not options:
        return DONE
    a = (
        options[0]
        if len(options) == 1
        else ask(st, f, f["env"]["you"], "card", zone="ongoing", of=seat, filter=None, why="return")
    )
    if a is WAIT:
        return WAIT
    a = a.split(":", 1)[-1]
    p["ongoing"] = without(p["ongoing"], a)
    p["discard"].append(a)
    return DONE


def return_token(st: dict, seat: int, token: str) -> None:
    """A token goes back into the stack, which is shuffled (AN L394, L402): it is now a known
    card among the stack's unknown ones. Its past effects stay."""
    p = st["players"][seat]
    p["dwts"] = without(p["dwts"], token)
    st["dwt"]["returned"].append(token)
    st["dwt"]["returned"].sort()
    st["dwt"]["count"] += 1


@single("return_dwt")
def op_return_dwt(st, f, op, seat):
    """Put one of your real Dead Wizard Tokens back (a counts-as card is no token, AN L394)."""
    mine = st["players"][seat]["dwts"]
    if not mine:
        return DONE
    a = mine[0] if len(set(mine)) == 1 else ask(st, f, seat, "token", options=sorted(set(mine)), why="return")
    if a is WAIT:
        return WAIT
    return_token(st, seat, a)
    return DONE


@single("give")
def op_give(st, f, op, seat):
    """The card's player picks a card from their hand and gives it to ``seat`` (shown to all).
    Given to yourself (a redirect) it does nothing (AN L408)."""
    you = f["env"]["you"]
    hand = st["players"][you]["hand"]
    if seat == you or not hand:
        return DONE
    a = ask(st, f, you, "card", zone="hand", of=you, filter=None, why="give")
    if a is WAIT:
        return WAIT
    hand.remove(a)
    to_hand(st["players"][seat], a)
    return DONE


@single("grant")
def op_grant(st, f, op, seat):
    """A standing effect on ``seat`` until the end of this turn."""
    st["temp"].setdefault(str(seat), {})[op["static"]] = True
    return DONE


@handler("legend_attack_self")
def op_legend_attack_self(st, f, op):
    """Resolve the current face-up Legend's Group Attack against yourself alone (AN L414)."""
    cid = st["legend"]["up"]
    if cid is None:
        return DONE
    you = f["env"]["you"]
    env = {
        "you": you,
        "group": True,
        "participants": [you],
        "source": None,
        "card": cid,
        "scope": new_scope(st),
        "active": st["active"],
    }
    return push_then_done(st, f, [frame(CARDS[cid].get("group_attack", []), env)])


@single("swap_dwt")
def op_swap_dwt(st, f, op, seat):
    """AN L398: both must hold a real token; the swapper chooses both tokens."""
    you = f["env"]["you"]
    mine, theirs = st["players"][you]["dwts"], st["players"][seat]["dwts"]
    if seat == you or not mine or not theirs:
        return DONE
    w = f["work"]
    if "give" not in w:
        a = mine[0] if len(set(mine)) == 1 else ask(st, f, you, "token", options=sorted(set(mine)), why="give")
        if a is WAIT:
            return WAIT
        w["give"] = a
    b = theirs[0] if len(set(theirs)) == 1 else ask(st, f, you, "token", options=sorted(set(theirs)), why="take")
    if b is WAIT:
        return WAIT
    st["players"][you]["dwts"] = without(mine, w["give"]) + [b]
    st["players"][seat]["dwts"] = without(theirs, b) + [w["give"]]
    return DONE


# -- control ops ---------------------------------------------------------------------------------


@handler("power")
def op_power(st, f, op):
    # AN-R17: Power only means something on your own turn.
    if st["phase"] == "turn" and f["env"].get("you") == st["active"] and not st["turn"]["ending"]:
        n = op["n"]
        st["turn"]["power"] += n if type(n) is int else num(st, f["env"], n)
    return DONE


@handler("if")
def op_if(st, f, op):
    branch = op["then"] if cond(st, f["env"], op["cond"]) else op.get("else", [])
    return push_then_done(st, f, [frame(branch, dict(f["env"]))])


@handler("may")
def op_may(st, f, op):
    seats = targets(st, f, op.get("who", "you"))
    if seats is WAIT:
        return WAIT
    if not seats:
        return DONE
    a = ask(st, f, seats[0], "yesno", options=["yes", "no"], card=f["env"].get("card"))
    if a is WAIT:
        return WAIT
    if a == "no":
        return DONE
    return push_then_done(st, f, [frame(op["do"], dict(f["env"]))])


@handler("choose_one")
def op_choose_one(st, f, op):
    w = f["work"]
    if "answer" in w:
        a = w.pop("answer")  # ask's return, without building the question's lists again
    else:
        labels = [o["label"] for o in op["options"]]
        ask(
            st, f, f["env"]["you"], "option", options=list(range(len(labels))), labels=labels, card=f["env"].get("card")
        )
        return WAIT
    return push_then_done(st, f, [frame(op["options"][a]["do"], dict(f["env"]))])


@handler("for_each")
def op_for_each(st, f, op):
    seats = targets(st, f, op["who"])
    if seats is WAIT:
        return WAIT
    return push_then_done(st, f, [frame(op["do"], child_env(f, it=s)) for s in seats])


def defense_options(st: dict, seat: int, can_defend: bool) -> list[str]:
    if not can_defend:
        return ["take"]
    hand = st["players"][seat]["hand"]
    return ["take"] + sorted({c for c in hand if "defense" in CARDS[c]})


@handler("attack")
def op_attack(st, f, op):
    """AN L209-227, L316-320: each affected player may use one Defense; a player's own
    non-interactive Attack hits each victim right after that victim decides (AN-R6); Mayhem,
    Group, interactive and deny-the-good-effect Attacks take every decision first. Every victim
    is asked, holding a Defense or not, so a prompt reveals nothing (AN-R7)."""
    env = f["env"]
    w = f["work"]
    if "_who" not in w:
        env["attacking"] = True
    named = targets(st, f, op["who"])
    if named is WAIT:
        return WAIT
    env.pop("attacking", None)
    deny = bool(op.get("deny"))
    # AN L396 / AN-R27: for a good effect, every player may spend a Defense to deny it to others.
    victims = _everyone(st, env) if deny else named
    attacker = None if (env.get("mayhem") or env.get("group")) else env["you"]
    if st.get("window") == "together":
        return _attack_together(st, f, op, victims, named, attacker, deny)
    batch = bool(env.get("mayhem") or env.get("group") or op.get("interactive") or deny)
    dec = w.setdefault("dec", {})
    i = w.get("i", 0)
    while i < len(victims):
        v = victims[i]
        if SEAT_KEYS[v] not in dec:
            if op.get("unavoidable"):
                dec[SEAT_KEYS[v]] = ["hit", None]
            else:
                can = not (env.get("mayhem") and static(st, v, "no_mayhem_defense"))
                a = ask(st, f, v, "defend", card=env.get("card"), attacker=attacker, can_defend=can)
                if a is WAIT:
                    w["i"] = i
                    return WAIT
                dec[SEAT_KEYS[v]] = ["hit", None] if a == "take" else _use_defense(st, op, v, a, attacker, deny)
        if not batch:
            w["i"] = i + 1
            frames = _resolution(st, f, op, v, dec[SEAT_KEYS[v]], attacker)
            if frames:
                push(st, frames)
                return PUSHED
        i += 1
    w["i"] = i
    if batch and not w.get("resolved"):
        w["resolved"] = True
        return push_then_done(st, f, _after_every_choice(st, f, op, victims, named, dec, attacker, deny))
    return DONE


def _use_defense(st, op, v, card, attacker, deny) -> list:
    """Seat ``v`` meets the Attack with the Defense ``card``: its decision (``["avoid" | "redirect",
    card]``). The Defense leaves the hand now and lies in the discard pile once the Attack is over
    for this player (so "per Defense in your discard" counts the ones already there, AN L225)."""
    st["players"][v]["hand"].remove(card)
    st["defending"].append([v, card])
    redirect = CARDS[card]["defense"].get("redirect", False)
    plain = op.get("interactive") or deny or attacker is None or attacker == v
    st["notes"].append(f"Seat {v} avoids the Attack with {CARDS[card]['name']}.")
    return ["redirect" if redirect and not plain else "avoid", card]


def _after_every_choice(st, f, op, victims, named, dec, attacker, deny) -> list[dict]:
    """The frames that resolve an Attack once every victim has decided (``dec``): the Defenses'
    texts and the Attack on who took it (interactive: once, on all of them; deny: on each named
    player no one else denied it to), else on each victim in turn, clockwise (_resolution)."""
    # Loops, not comprehensions, over ``dec``: it would be a cell made on every call.
    frames = []
    if op.get("interactive"):
        hit = []
        for v in victims:
            if dec[SEAT_KEYS[v]][1]:
                frames.append(_defense_then(st, f, v, dec[SEAT_KEYS[v]][1], attacker))
        for v in victims:
            if dec[SEAT_KEYS[v]][0] == "hit":
                hit.append(v)
        frames.append(frame(op["do"], child_env(f, participants=hit, scope=new_scope(st))))
    elif deny:
        defenders = set()
        for v in victims:
            if dec[SEAT_KEYS[v]][1]:
                defenders.add(v)
        for v in victims:
            if dec[SEAT_KEYS[v]][1]:
                frames.append(_defense_then(st, f, v, dec[SEAT_KEYS[v]][1], attacker))
        for b in named:
            if defenders <= {b}:
                frames.append(frame(op["do"], child_env(f, it=b, scope=new_scope(st))))
    else:
        for v in victims:
            frames += _resolution(st, f, op, v, dec[SEAT_KEYS[v]], attacker, not frames)
    return frames


def ask_together(st: dict, f: dict, seats: list[int], kind: str, **info):
    """The answers of several seats deciding at once (``{str(seat): value}``), or WAIT after
    posing the question to all of them. Each answer stays in the prompt, hidden from everyone
    but its seat, until the last one is in (engine.apply hands them over together)."""
    w = f["work"]
    if "answer" in w:
        return w.pop("answer")
    st["prompt"] = {"seat": None, "seats": list(seats), "kind": kind, "answers": {}, **info}
    return WAIT


def _attack_together(st, f, op, victims, named, attacker, deny):
    """Version 2 (RULES.md, "The defense window"): every affected player decides at the same
    time, unseen by the others (AN L209 "each affected player has an opportunity to avoid the
    Attack", AN L320 "until each player has had a chance to avoid it"); the decisions are shown
    together, then the Attack resolves on each player in turn, clockwise from the attacker (or
    the active player, AN L280, L320), each one "immediately affected" when their turn comes."""
    env = f["env"]
    w = f["work"]
    if "gone" in st:
        # Version 4: a seat that left is no victim, also of an Attack that named it before it left
        # (AN L320: it "does not participate in the Attack text in any way").
        gone = st["gone"]
        victims = [v for v in victims if v not in gone]
        named = [v for v in named if v not in gone]
        if not victims:
            w.pop("answer", None)  # every seat asked has left: the window closed with no answer
    if "dec" not in w:
        asked = [] if op.get("unavoidable") else list(victims)
        answers: dict = {}
        if asked:
            if "answer" in w:
                # ask_together's return of the answers: the question's ``can_defend`` is not built
                # again only to be dropped (issue 17, P1: a static test per victim per defend).
                answers = w.pop("answer")
            else:
                can = {}  # a loop, not a comprehension: ``st`` and ``env`` would be cells on every call
                for v in asked:
                    can[SEAT_KEYS[v]] = not (env.get("mayhem") and static(st, v, "no_mayhem_defense"))
                ask_together(st, f, asked, "defend", card=env.get("card"), attacker=attacker, can_defend=can)
                return WAIT
        dec = {}
        shown = []
        for v in victims:
            key = SEAT_KEYS[v]
            a = answers.get(key, "take")
            dec[key] = ["hit", None] if a == "take" else _use_defense(st, op, v, a, attacker, deny)
            if key in answers:
                shown.append([v, a])
        takers = [v for v, a in shown if a == "take"]
        if takers:
            names = [SEAT_KEYS[v] for v in takers]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            st["notes"].append(
                f"Seat {listed} takes the Attack." if len(names) == 1 else f"Seats {listed} take the Attack."
            )
        if answers:
            st["last_defense"] = {"card": env.get("card"), "attacker": attacker, "choices": shown}
        w["dec"] = dec
    return push_then_done(st, f, _after_every_choice(st, f, op, victims, named, w["dec"], attacker, deny))


def _defense_then(st, f, v, card, attacker):
    then = [{"op": "_discard_defense", "seat": v, "card": card}] + CARDS[card]["defense"].get("then", [])
    return frame(
        then,
        {"you": v, "attacker": attacker, "source": v, "card": card, "scope": new_scope(st), "active": st["active"]},
    )


@handler("_discard_defense")
def op_discard_defense(st, f, op):
    st["defending"].remove([op["seat"], op["card"]])
    st["players"][op["seat"]]["discard"].append(op["card"])
    return DONE


def _resolution(st, f, op, v, decision, attacker, at_once: bool = True) -> list[dict]:
    """The frames that resolve an Attack on victim ``v`` as decided. A hit that only damages
    ``v`` without killing (PLAIN_HITS) is done here instead, when ``at_once`` says no frame
    is pending before it: what its frame would do, with its scope taken (issue 17, P1: most
    Attacks are one such hit). test_attack_at_once.py holds it to the frame."""
    kind, card = decision
    frames = []
    if kind == "hit":
        scope = new_scope(st)
        do = op["do"]
        hits = PLAIN_HITS.get(id(do)) if at_once else None
        if hits is not None and hits[0] is do:
            # op_damage for each of the frame's damage ops: the Wand's bonus (read for the victim,
            # as op_damage reads it), nothing for a count of 0 or less, and no death if the total
            # leaves 1 HP or more, so no kill check acts and "if killed" finds none.
            p = st["players"][v]
            extra = (
                static(st, v, "wand_extra", 0)
                if f["env"].get("card") == "wand" and (st["temp"] or not WAND_SETTERS.isdisjoint(p[WAND_ZONE]))
                else 0
            )
            total = 0
            for n in hits[1]:  # a loop, not a generator: ``extra`` would be a cell on every call
                if n + extra > 0:
                    total += n + extra
            if p["hp"] > total:
                p["hp"] -= total
                hits = True
        if hits is not True:
            frames.append(frame(do, child_env(f, it=v, scope=scope)))
    elif kind == "redirect":
        # AN L221-227: the effect the defender would have suffered, counted on the defender,
        # lands on the attacker, who gets no Defense; the defender is its source (AN-R15).
        frames.append(
            frame(op["do"], child_env(f, it=attacker, count_it=v, redirect=True, source=v, scope=new_scope(st)))
        )
    if card:
        frames.append(_defense_then(st, f, v, card, attacker))
    return frames


def _plain_hit(prog: list) -> tuple[int, ...] | None:
    """The damage counts of an Attack's effect that only damages "it" by fixed numbers, with at
    most "if killed" ops (no else) after; else None."""
    out = []
    for op in prog:
        if (
            op["op"] == "damage"
            and op["who"] == "it"
            and type(op["n"]) is int
            and op.keys() <= {"op", "who", "n", "fatality"}
        ):
            out.append(op["n"])
        elif not (op["op"] == "if" and op.keys() == {"op", "cond", "then"} and op["cond"].keys() == {"killed"}):
            return None
    return tuple(out)


def attack_ops(x):
    """Every Attack op anywhere in ``x`` (a card, a program, an op)."""
    if isinstance(x, dict):
        if x.get("op") == "attack":
            yield x
        for value in x.values():
            yield from attack_ops(value)
    elif isinstance(x, list):
        for value in x:
            yield from attack_ops(value)


#: id(an Attack's "do" list in the card table) -> (that list, its damage counts), for the effects
#: _plain_hit admits. Keyed by identity: a frame's program is the card table's own list (a
#: state read back from JSON holds equal copies, which simply take the frames).
PLAIN_HITS: dict[int, tuple[list, tuple[int, ...]]] = {
    id(op["do"]): (op["do"], hits)
    for op in attack_ops(list(CARDS.values()))
    if (hits := _plain_hit(op["do"])) is not None
}


@handler("pass")
def op_pass(st, f, op):
    """Interactive passing (AN L209, L320): every participant picks, then all cards move at
    once to the next participant on that side (AN-R8). Passing both ways with one card, the
    passer picks who gets it (AN L388). Passed cards are shown (RULES.md)."""
    env = f["env"]
    parts = env.get("participants") or []
    w = f["work"]
    held = w.setdefault("held", {})
    n = st["seats"]

    def neighbour(s, step):
        r = (s + step) % n
        while r not in parts:
            r = (r + step) % n
        return r

    dirs = [1] if op["dir"] == "left" else [-1] if op["dir"] == "right" else [1, -1]
    for s in parts:
        mine = held.setdefault(str(s), {})
        hand = st["players"][s]["hand"]
        for step in dirs:
            key = str(step)
            if key in mine:
                continue
            if not hand:
                mine[key] = None
                continue
            if len(dirs) == 2 and not mine and len(hand) == 1 and neighbour(s, 1) != neighbour(s, -1):
                a = ask(st, f, s, "target", options=[neighbour(s, 1), neighbour(s, -1)], why="pass_to")
                if a is WAIT:
                    return WAIT
                card = hand.pop()
                mine["1"] = card if a == neighbour(s, 1) else None
                mine["-1"] = card if a != neighbour(s, 1) else None
                break
            a = ask(st, f, s, "card", zone="hand", of=s, filter=None, why="pass")
            if a is WAIT:
                return WAIT
            hand.remove(a)
            mine[key] = a
    for s in parts:
        for key, cid in sorted(held[str(s)].items()):
            if cid is not None:
                to_hand(st["players"][neighbour(s, int(key))], cid)
    return DONE


@handler("play_top")
def op_play_top(st, f, op):
    """Wild Magic (AN L292-302): play the top card of a foe's deck as if it were yours."""
    seats = targets(st, f, op["who"])
    if seats is WAIT:
        return WAIT
    if not seats:
        return DONE
    foe = seats[0]
    got = ensure_top(st, f, foe, 1, "all")
    if got is WAIT:
        return WAIT
    if not got:
        return DONE
    cid = st["players"][foe]["top"].pop(0)
    you = f["env"]["you"]
    st["turn"]["played_log"].append(cid)
    st["turn"]["borrowed"].append(cid)
    st["notes"].append(f"Seat {you} plays {CARDS[cid]['name']} from the top of seat {foe}'s deck.")
    env = {"you": you, "source": you, "card": cid, "scope": new_scope(st), "via_wild": True, "active": st["active"]}
    frames = [
        frame(CARDS[cid].get("play", []), env),
        frame([{"op": "_after_play", "card": cid, "owner": foe}], {"you": you}),
    ]
    return push_then_done(st, f, frames)


@handler("play_mayhem")
def op_play_mayhem(st, f, op):
    """Play the top card of the Mayhem pile: the player is its source and may take the Trophy
    for a kill it makes (AN L346)."""
    if not st["mayhem_pile"]:
        return DONE
    pile = st["mayhem_pile"]
    cid = pile[-1]
    st["mayhem_pile"] = pile[:-1]  # replaced (engine.copy_state shares it)
    you = f["env"]["you"]
    return push_then_done(st, f, [frame([{"op": "_mayhem", "card": cid, "source": you}], {"you": you})])


@handler("grant_standee")
def op_grant_standee(st, f, op):
    you = f["env"]["you"]
    for p in st["players"]:
        if p["standee"] == op["id"]:
            p["standee"] = None
    st["players"][you]["standee"] = op["id"]
    return DONE


def after_play_triggers(st: dict, seat: int, cid: str) -> list[dict]:
    """AN L282: a played card resolves fully, then what it triggers (tile, Ongoing cards)."""
    # The loop's own tests before any state is read, asked at once of the texts that pass them
    # (issue 17, P1: almost no play sets anything off, and the loop walked a filter per text).
    trigs = PLAY_TRIGGERS[cid]
    if not trigs or not controls_any(st, seat, trigs):
        return []
    frames = []
    for trig in controlled_having(st, seat, trigs):
        spec = CARDS[trig]["on_play"]
        env = {"you": seat, "source": seat, "card": trig, "scope": new_scope(st), "active": st["active"]}
        if "cond" in spec and not cond(st, env, spec["cond"]):
            continue
        frames.append(frame(spec["do"], env))
    return frames


@handler("_after_play")
def op_after_play(st, f, op):
    cid = op["card"]
    owner = op.get("owner")
    you = f["env"]["you"]
    p = st["players"][you]
    if owner is None:
        # played from hand: an Ongoing card stays in front of its player (AN L245-247)
        if cid in ONGOING:
            st["turn"]["played"].remove(cid)
            p["ongoing"] = p["ongoing"] + [cid]  # replaced, not appended to (see without)
    else:
        # via Wild Magic: an Ongoing card is now yours and in play; any other card goes to its
        # owner's discard at once, so its end-of-turn text never happens (AN L302, L384)
        st["turn"]["borrowed"].remove(cid)
        if cid in ONGOING:
            p["ongoing"] = p["ongoing"] + [cid]
        else:
            st["players"][owner]["discard"].append(cid)
    # after_play_triggers' first test here: almost no play sets anything off, and then
    # push_then_done of no frames is DONE (two calls less per play of a program).
    trigs = PLAY_TRIGGERS[cid]
    if not trigs or not controls_any(st, you, trigs):
        return DONE
    return push_then_done(st, f, after_play_triggers(st, you, cid))
