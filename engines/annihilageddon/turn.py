"""The turn machine, written as internal ops on the interpreter's stack (``interp.py``).

Setup (AN L82-147), refill with Mayhems (AN L159, L316-326), start of turn (AN L160), end of
turn in the rulebook's order (AN L167-175), the Legend flip and its Group Attack (AN L229-235),
death and Dead Wizard Tokens (AN L330-340), the Trophy (AN L342-346) and the end check
(AN L183-189, L523-527).
"""

from __future__ import annotations

from .cards import CARDS
from .interp import (
    DONE,
    DRAW_LABELS,
    HAVING,
    MAX_HP,
    OVER,
    PUSHED,
    SINGLE,
    START_HP,
    STATIC_ZONES,
    WAIT,
    ask,
    child_env,
    controlled_having,
    controls_any,
    draw_from,
    ensure_top,
    frame,
    handler,
    heal_by,
    new_scope,
    next_in_game,
    passes_first,
    push,
    push_then_done,
    reshuffle,
    run,
    setters_zone,
    static,
    take_outcome,
    without,
)

LINEUP_SIZE = 5


#: The end of turn's draw: op_end_draw sets ``work["n"]`` first, so the op's own count is never read.
_END_DRAW = {"op": "draw", "who": "it", "n": 5}


# -- setup -----------------------------------------------------------------------------------


@handler("_deal")
def op_deal(st, f, op):
    """AN L86-88: two random tiles (one each with five players) and two random Familiars per
    player, seen only by that player."""
    cat = op["cat"]
    w = f["work"]
    n = st["seats"]
    count = 1 if (cat == "tile" and n == 5) else 2
    i = w.get("i", 0)
    while i < n:
        w["i"] = i
        if "gone" in st and i in st["gone"]:
            i += 1  # version 4: a seat that left during setup is dealt nothing more
            continue
        got = draw_from(st, f, ["box", cat], count, [i], f"Deal {count} {cat}s to seat {i}")
        if got is WAIT:
            return WAIT
        st["players"][i][f"{cat}_dealt"] = sorted(got)
        i += 1
    return DONE


@handler("_choose")
def op_choose(st, f, op):
    """Each player keeps one dealt card and returns the other unseen; the kept ones are shown
    together once everyone has chosen (AN L86-90, AN-R19)."""
    cat = op["cat"]
    w = f["work"]
    i = w.get("i", 0)
    while i < st["seats"]:
        w["i"] = i
        p = st["players"][i]
        dealt = p[f"{cat}_dealt"]
        if "gone" in st and i in st["gone"]:
            i += 1  # version 4: a seat that left keeps nothing; what it was dealt stays hidden
            continue
        if len(dealt) == 1:
            pick = dealt[0]
        else:
            pick = ask(st, f, i, "setup", cat=cat)
            if pick is WAIT:
                return WAIT
        p[f"{cat}_dealt"] = without(dealt, pick)  # replaced, not written into (see without)
        p[cat] = pick
        i += 1
    st["revealed"] = {**st["revealed"], cat: True}  # replaced (engine.copy_state shares it)
    return DONE


@handler("_refill")
def op_refill(st, f, op):
    """Fill each empty Line-Up slot from the main deck (AN L159). At setup a Mayhem goes to the
    Mayhem pile unresolved (AN L125-127); later the active player resolves it before the refill
    goes on (AN L318-322)."""
    lineup = st["lineup"]
    while True:
        # A slot holds a card id (never empty) or None, so ``all(lineup)`` says no slot is empty:
        # a truth test per slot, where ``None in lineup`` compares each id with None through
        # rich comparison's fallbacks (issue 17, P1).
        if all(lineup) or not st["main"]:
            return DONE
        got = draw_from(st, f, ["main"], 1, "all", "Line-Up refill")
        if got is WAIT:
            return WAIT
        cid = got[0]
        if CARDS[cid]["kind"] == "mayhem":
            if op.get("setup"):
                st["mayhem_pile"] = st["mayhem_pile"] + [cid]  # replaced (engine.copy_state shares it)
                continue
            push(st, [frame([{"op": "_mayhem", "card": cid, "source": None}], {"you": st["active"]})])
            return PUSHED
        lineup[lineup.index(None)] = cid


@handler("_mayhem")
def op_mayhem(st, f, op):
    """A Mayhem resolves with the active player (or the player who made it happen) as "you";
    players whose cards let them decline are asked first (AN L324, L366)."""
    cid = op["card"]
    you = f["env"]["you"]
    w = f["work"]
    st["mayhem_now"] = cid
    dec = w.setdefault("declined", [])
    asked = w.setdefault("asked", [])
    n = st["seats"]
    # Version 4: a seat that left takes no part and is not asked (AN L324: as a decliner).
    gone = st.get("gone") or ()
    for s in [(you + k) % n for k in range(n)]:
        if s in asked or s in gone or not static(st, s, "may_decline_mayhem"):
            continue
        a = ask(st, f, s, "decline", card=cid)
        if a is WAIT:
            return WAIT
        asked.append(s)
        if a == "decline":
            dec.append(s)
    parts = [s for s in range(n) if s not in dec and s not in gone]
    env = {
        "you": you,
        "mayhem": True,
        "participants": parts,
        "source": op["source"],
        "card": cid,
        "scope": new_scope(st),
        "active": st["active"],
    }
    return push_then_done(
        st, f, [frame(CARDS[cid]["mayhem"]["do"], env), frame([{"op": "_mayhem_done", "card": cid}], {"you": you})]
    )


@handler("_mayhem_done")
def op_mayhem_done(st, f, op):
    st["mayhem_pile"] = st["mayhem_pile"] + [op["card"]]  # replaced (engine.copy_state shares it)
    st["mayhem_now"] = None
    return DONE


@handler("_first_player")
def op_first_player(st, f, op):
    """AN L147: a random player goes first."""
    w = f["work"]
    if "outcome" not in w:
        st["need"] = {"dice": [[0, st["seats"] - 1]], "label": "Who goes first"}
        return WAIT
    st["first"] = w.pop("outcome")[0]
    return DONE


@handler("_opening_hands")
def op_opening_hands(st, f, op):
    # AN L147: everyone shuffles their deck and draws 5 (a lazy deck: drawing is the shuffle).
    gone = st.get("gone") or ()  # version 4: a seat that left during setup draws no hand
    frames = [
        frame([{"op": "draw", "who": "it", "n": 5}], {"you": s, "it": s}) for s in range(st["seats"]) if s not in gone
    ]
    first = st["first"]
    return push_then_done(st, f, frames + [frame([{"op": "_start_turn", "seat": first}], {"you": first})])


# -- the turn ----------------------------------------------------------------------------------


def fresh_turn() -> dict:
    return {
        "power": 0,
        "played": [],
        "played_log": [],
        "legend_taken": False,
        "activated": False,
        "ending": False,
        "bought": [],
        "borrowed": [],
    }


def _turn_begins(st: dict, seat: int) -> None:
    st["phase"] = "turn"
    st["active"] = seat
    st["turn"] = fresh_turn()
    st["temp"] = {}
    st["deaths"] = []


#: The program of a turn's start (op_start_turn and start_turn_to_refill push it): one list,
#: shared as END_OF_TURN is (no op writes into a program), by which apply_in_place knows the
#: refill's draw (fast.refill_drawn). A state read back from JSON holds an equal list.
START_OF_TURN = [{"op": "_refill"}, {"op": "_start_effects"}]


@handler("_start_turn")
def op_start_turn(st, f, op):
    seat = op["seat"]
    if "gone" in st and seat in st["gone"]:
        seat = next_in_game(st, seat)  # version 4: the first player left during setup
    _turn_begins(st, seat)
    env = {"you": seat, "active": seat, "source": seat}
    return push_then_done(st, f, [frame(START_OF_TURN, env)])


def _ordered_triggers(st, f, key: str):
    """Run the ``key`` programs of the cards in ``work["pending"]`` (those that have one, set by
    the op) one at a time, the active player choosing which comes next whenever they differ
    (AN-R18)."""
    seat = st["active"]
    pending = f["work"]["pending"]
    if not pending:
        return DONE
    options = sorted(set(pending))
    pick = options[0] if len(options) == 1 else ask(st, f, seat, "trigger", options=options, why=key)
    if pick is WAIT:
        return WAIT
    pending.remove(pick)
    push(
        st,
        [frame(CARDS[pick][key], {"you": seat, "source": seat, "card": pick, "scope": new_scope(st), "active": seat})],
    )
    return PUSHED


@handler("_start_effects")
def op_start_effects(st, f, op):
    """AN L160: "start of turn" effects of everything the active player controls."""
    w = f["work"]
    if "pending" not in w:
        pending = controlled_having(st, st["active"], HAVING["start_of_turn"])
        if not pending:
            return DONE  # what _ordered_triggers does with none, the work left as run clears it
        w["pending"] = pending
    return _ordered_triggers(st, f, "start_of_turn")


END_OF_TURN = [
    {"op": "_hand_to_discard"},
    {"op": "_end_effects"},
    {"op": "_played_to_discard"},
    {"op": "_end_draw"},
    {"op": "_trophy_discard"},
    {"op": "_legend_flip"},
    {"op": "_end_check"},
]


def end_turn(st: dict, seat: int) -> None:
    """An ``end_turn`` of ``seat`` (validated) on an empty stack (validate: no effect is running):
    the END_OF_TURN frame pushed with the ops that cannot wait or push done here, as run would do
    them, then run as end_turn_at_once runs it. The hand goes to the discard
    (op_hand_to_discard); when no end-of-turn text is pending (op_end_effects' test) the played
    cards follow it (op_played_to_discard) and the commonest case is written out here (issue 17,
    P1: a call and the fresh frame's reads per turn): a part of the deck to draw, whose draw is
    recorded due with the frame at its draw, its count in the work, as end_turn_at_once leaves
    it. test_turn_shortcuts.py holds the event to the whole frame pushed and run."""
    t = st["turn"]
    t["ending"] = True
    p = st["players"][seat]
    p["discard"] += p["hand"]  # _hand_to_discard
    p["hand"] = []
    played = t["played"]
    env = {"you": seat, "active": seat, "source": seat}
    if (played and not _END_HAVING.isdisjoint(played)) or (
        not _END_HAVING.isdisjoint(p["ongoing"]) if _END_IN_ONGOING else controls_any(st, seat, _END_HAVING)
    ):
        st["stack"].append({"prog": END_OF_TURN, "pc": 1, "env": env, "work": {}})
        run(st)
        return
    p["discard"] += played  # _played_to_discard
    t["played"] = []
    t["power"] = 0
    n = 6 if p["trophy"] else 5  # op_end_draw's count
    top = p["top"]
    need = n - len(top)
    pool = p["pool"]
    if 0 < need < len(pool):
        st["stack"].append({"prog": END_OF_TURN, "pc": _END_DRAW_AT, "env": env, "work": {"n": n}})
        st["need"] = {"zone": ["player", seat], "count": need, "visible": [seat], "label": DRAW_LABELS[seat][need]}
        return
    if need > len(pool) and p["discard"]:
        # end_turn_at_once's short deck (every third turn or so), here too (issue 17, P1: two
        # calls): the whole deck onto the top, the discard pile shuffled into a new deck, then
        # the draw due as above, or the frame handed to end_turn_at_once past its own such steps.
        top += pool
        pool.clear()
        pool = reshuffle(st, p, seat)
        need = n - len(top)
        if 0 < need < len(pool):
            st["stack"].append({"prog": END_OF_TURN, "pc": _END_DRAW_AT, "env": env, "work": {"n": n}})
            st["need"] = {"zone": ["player", seat], "count": need, "visible": [seat], "label": DRAW_LABELS[seat][need]}
            return
        f = {"prog": END_OF_TURN, "pc": _END_DRAW_AT, "env": env, "work": {"n": n}}
        st["stack"].append(f)
        end_turn_at_once(st, f)
        return
    f = {"prog": END_OF_TURN, "pc": _END_DRAW_AT, "env": env, "work": {}}
    st["stack"].append(f)
    end_turn_at_once(st, f)


#: Where the end-of-turn frame's draw is (end_turn_at_once runs the frame from there).
_END_DRAW_AT = END_OF_TURN.index({"op": "_end_draw"})
_END_CHECK = END_OF_TURN[-1]


def resume(st: dict) -> None:
    """``run(st)`` after a chance outcome (the stack is not empty): when the op due is the end of
    turn's draw or the Line-Up's refill at the start of a turn, as end_turn_at_once or
    refill_at_once does it."""
    f = st["stack"][-1]
    op = f["prog"][f["pc"]]["op"]
    if op == "_end_draw":
        end_turn_at_once(st, f)
    elif op == "_refill" and f["pc"] == 0 and len(f["prog"]) == 2 and "outcome" in f["work"]:
        refill_at_once(st, f)  # the start of a turn's frame (op_start_turn), not the setup's
    else:
        run(st)


def end_turn_at_once(st: dict, f: dict) -> None:
    """Run the end-of-turn frame ``f`` (on top of the stack, its draw due) as run would, its ops
    written out as straight code: the draw (op_end_draw), the Trophy's discard, the Legend flip
    and the end check. At the first op that would ask (the Trophy holder's sixth card) or draw
    (a Legend to flip), the frame is left at that op, its work empty as run leaves it, and run
    goes on from there (issue 17, P1: the chance events of the end of turn's draw were a
    quarter of the replay's bytecodes, counted with sys.settrace over the benchmark's events).
    test_turn_shortcuts.py holds it to run."""
    seat = st["active"]
    p = st["players"][seat]
    w = f["work"]
    if "n" not in w:
        n = w["n"] = 6 if p["trophy"] else 5  # op_end_draw's count
        top = p["top"]
        need = n - len(top)
        if 0 < need < len(p["pool"]):
            # What ensure_top and draw_from do with no outcome yet, a part of the deck to draw:
            # record the draw due (the common case: an end_turn), as _draw_due does.
            st["need"] = {"zone": ["player", seat], "count": need, "visible": [seat], "label": DRAW_LABELS[seat][need]}
            return
        if need > len(p["pool"]) and p["discard"]:
            # The deck runs short (every other turn or so): ensure_top's first steps written out,
            # the whole deck onto the top and the discard pile shuffled into a new deck, then the
            # draw due as above. Anything else (a deck of exactly the cards missing: no shuffle)
            # is left to ensure_top below, which goes on from here as it would have (issue 17,
            # P1: four calls less per such end of a turn).
            pool = p["pool"]
            top += pool
            pool.clear()
            pool = reshuffle(st, p, seat)
            need = n - len(top)
            if 0 < need < len(pool):
                _draw_due(st, seat, need)
                return
    # op_draw, from here to the sort. A draw that came in is taken as ensure_top takes it; it was
    # recorded for exactly the cards missing from the top n (here or by ensure_top), so the top
    # then holds n and ensure_top's loop would only count them.
    top = p["top"]
    if "outcome" in w:
        take_outcome(w, p["pool"], top)
    end_turn_drawn(st, f, seat, p, top, w["n"])


def _draw_due(st: dict, seat: int, need: int) -> None:
    """Record the end of a turn's draw of ``need`` (1 to 6) cards of ``seat``'s deck as due, as
    ensure_top and draw_from record it."""
    st["need"] = {"zone": ["player", seat], "count": need, "visible": [seat], "label": DRAW_LABELS[seat][need]}


def end_turn_drawn(st: dict, f: dict, seat: int, p: dict, top: list, n: int) -> None:
    """end_turn_at_once from the draw taken on (``top`` is the seat's top of the deck, ``n`` the
    draw's count): the cards to the hand, then the Trophy's discard, the Legend flip and the end
    check. fast.end_draw_at_once goes on here after taking the draw itself."""
    if len(top) >= n:
        got = n
    else:
        got = ensure_top(st, f, seat, n, [seat])
        if got is WAIT:
            return
    if got:
        p["hand"] += top[:got]
        del top[:got]
        p["hand"].sort()
    if p["trophy"] and len(p["hand"]) > 5:  # op_trophy_discard asks
        _run_from(st, f, _END_DRAW_AT + 1)
        return
    end_turn_from_flip(st, f)


#: Where the end-of-turn frame's Trophy discard is (trophy_discarded answers it).
_TROPHY_AT = _END_DRAW_AT + 1


def trophy_discarded(st: dict, f: dict, cid: str) -> None:
    """The Trophy holder's answer (``cid``, a card of their hand: apply_in_place checked it) to
    op_trophy_discard's question, the end-of-turn frame ``f`` at that op: the card discarded as
    the op does it, then the rest of the frame as end_turn_at_once runs it (issue 17, P1)."""
    st["prompt"] = None
    p = st["players"][st["active"]]
    p["hand"].remove(cid)
    p["discard"].append(cid)
    end_turn_from_flip(st, f)


def end_turn_from_flip(st: dict, f: dict) -> None:
    """The end-of-turn frame ``f`` run from its Legend flip on, as end_turn_at_once runs it."""
    leg = st["legend"]
    # The common handover (no Legend to flip, no end, the next turn started at once), through the
    # module, which test_hand_over_at_once patches to hold it to the ops below.
    if leg["up"] is not None and hand_over_at_once(st):
        stack = st["stack"]
        stack.pop()  # ``f``: its end check done, as below
        if stack:
            run(st)
        return
    if leg["up"] is None:
        if leg["down"]:  # op_legend_flip draws
            _run_from(st, f, _END_DRAW_AT + 2)
            return
        st["end_flags"] = st["end_flags"] + ["legends"]  # replaced (engine.copy_state shares it)
    f["pc"] = _END_DRAW_AT + 3
    f["work"] = {}
    r = op_end_check(st, f, _END_CHECK)
    if r is DONE:
        stack = st["stack"]
        stack.pop()  # run's pop of a frame whose last op is done
        if stack:
            run(st)
    elif r is PUSHED:
        run(st)


def _run_from(st: dict, f: dict, pc: int) -> None:
    f["pc"] = pc
    f["work"] = {}
    run(st)


@handler("_hand_to_discard")
def op_hand_to_discard(st, f, op):
    _hand_to_discard(st["players"][st["active"]])
    return DONE


def _hand_to_discard(p: dict) -> None:
    p["discard"] += p["hand"]
    p["hand"] = []


@handler("_end_effects")
def op_end_effects(st, f, op):
    """AN L169: "at the end of your turn" effects of the cards played this turn and of what the
    active player controls."""
    w = f["work"]
    if "pending" not in w:
        having = HAVING["end_of_turn"]
        pending = [c for c in st["turn"]["played"] if c in having] + controlled_having(st, st["active"], having)
        if not pending:
            return DONE
        w["pending"] = pending
    return _ordered_triggers(st, f, "end_of_turn")


@handler("_played_to_discard")
def op_played_to_discard(st, f, op):
    _played_to_discard(st, st["players"][st["active"]])
    return DONE


def _played_to_discard(st: dict, p: dict) -> None:
    p["discard"] += st["turn"]["played"]
    st["turn"]["played"] = []
    st["turn"]["power"] = 0


@handler("_end_draw")
def op_end_draw(st, f, op):
    # AN L344: the Trophy holder draws 6 (and discards 1 next).
    seat = st["active"]
    w = f["work"]
    if "n" not in w:
        w["n"] = 6 if st["players"][seat]["trophy"] else 5
    return SINGLE["draw"](st, f, _END_DRAW, seat)


@handler("_trophy_discard")
def op_trophy_discard(st, f, op):
    seat = st["active"]
    p = st["players"][seat]
    if not p["trophy"] or len(p["hand"]) <= 5:
        return DONE
    a = ask(st, f, seat, "card", zone="hand", of=seat, filter=None, why="trophy")
    if a is WAIT:
        return WAIT
    p["hand"].remove(a)
    p["discard"].append(a)
    return DONE


@handler("_legend_flip")
def op_legend_flip(st, f, op):
    """AN L171, L233: a face-down top Legend flips and its Group Attack hits every player,
    from the player about to take a turn. No Legend to flip ends the game (AN L525)."""
    leg = st["legend"]
    if leg["up"] is not None:
        return DONE
    if leg["down"] == 0:
        st["end_flags"] = st["end_flags"] + ["legends"]  # replaced (engine.copy_state shares it)
        return DONE
    got = draw_from(st, f, ["legend"], 1, "all", "Flip the next Legend")
    if got is WAIT:
        return WAIT
    leg["up"] = got[0]
    leg["down"] -= 1
    nxt = next_in_game(st, st["active"])
    prog = CARDS[got[0]].get("group_attack", [])
    env = {"you": nxt, "group": True, "source": None, "card": got[0], "scope": new_scope(st), "active": nxt}
    return push_then_done(st, f, [frame(prog, env)])


@handler("_end_check")
def op_end_check(st, f, op):
    """AN L523-527: the game ends now if a Legend could not be flipped, if the main deck cannot
    refill the Line-Up, or if the DWT stack is empty; also at the bot-game round bound
    (RULES.md)."""
    nxt = (st["active"] + 1) % st["seats"]
    new_round = nxt == st["first"]
    if "gone" in st:
        # Version 4: play passes to the next seat still in the game; a round ends where play passes
        # the first player's seat, whether or not that player is still in the game.
        nxt = next_in_game(st, st["active"])
        new_round = passes_first(st, st["active"], nxt)
    # The four tests below, each true almost never: asked first without building the flags (a
    # copy of end_flags per turn, issue 17, P1).
    if not (
        st["end_flags"]
        # A slot holds a card id or None; a main deck as long as the Line-Up fills any empty slots
        # (count(None) compares each id with None, so it is asked only of a short deck).
        or (len(st["main"]) < len(st["lineup"]) and len(st["main"]) < st["lineup"].count(None))
        or st["dwt"]["count"] == 0
        or (new_round and st["config"]["max_rounds"] is not None and st["round"] >= st["config"]["max_rounds"])
    ):
        if new_round:
            st["round"] += 1
        if start_turn_at_once(st, nxt):
            return DONE
        if start_turn_to_refill(st, f, nxt):
            return WAIT
        return push_then_done(st, f, [frame([{"op": "_start_turn", "seat": nxt}], {"you": nxt})])
    flags = st["end_flags"][:]  # engine.copy_state shares the list: it is replaced below if need be
    empty = st["lineup"].count(None)
    if len(st["main"]) < empty:
        flags.append("main_deck")
    if st["dwt"]["count"] == 0:
        flags.append("dead_wizard_tokens")
    bound = st["config"]["max_rounds"]
    if not flags and new_round and bound is not None and st["round"] >= bound:
        flags.append("round_limit")
    # One of the tests above held, so one flag at least is set.
    st["end_flags"] = flags
    st["phase"] = "over"
    st["end_reason"] = flags[0]
    st["active"] = None
    st["stack"] = []
    return OVER


def _plain(op: dict) -> bool:
    """Whether ``op`` is a Power or a heal of "you" by a fixed number, nothing else."""
    return type(op.get("n")) is int and (
        op.keys() == {"op", "n"} and op["op"] == "power" or op == {"op": "heal", "who": "you", "n": op["n"]}
    )


#: The start-of-turn texts start_turn_at_once runs itself: only Power and heals of "you" by a
#: fixed number (Grudge Golem, Marrow Baths, Thick Skull: in the benchmark's games 185 of 300
#: turns started with exactly one of them; the other turns with a text had two).
START_AT_ONCE: dict[str, list] = {
    cid: CARDS[cid]["start_of_turn"]
    for cid in sorted(HAVING["start_of_turn"])
    if all(_plain(op) for op in CARDS[cid]["start_of_turn"])
}


def start_turn_at_once(st: dict, seat: int) -> bool:
    """Start ``seat``'s turn here, as the frames op_end_check would push do it, when they would
    run to the end at once: the Line-Up needs no refill (no empty slot, or no main deck to fill
    it from) and ``seat`` controls no start-of-turn text, or one of START_AT_ONCE's; else False,
    nothing done. op_start_turn's writes touch nothing those two tests read (issue 17, P1: the
    turn handover ran three frames and five ops per turn, four frames and seven with a text).
    test_turn_shortcuts.py holds it to the frames."""
    if not all(st["lineup"]) and st["main"]:  # an empty slot (op_refill's test)
        return False
    # Most turns start with a text (controlled_having once, not controls_any first).
    texts = controlled_having(st, seat, HAVING["start_of_turn"])
    if not texts:
        _turn_begins(st, seat)
        return True
    prog = _start_text_at_once(texts)
    if prog is None:
        return False
    _turn_begins(st, seat)
    _run_start_text(st, seat, prog)
    return True


def hand_over_at_once(st: dict) -> bool:
    """What op_end_check and start_turn_at_once do when no end test holds and the next turn starts
    at once, as one straight path (issue 17, P1: the handover was eight calls a turn, most of the
    end of turn's chance event): the round counted, the next player's turn begun and its one
    START_AT_ONCE text run. Asks every test first and returns False before writing anything
    when one would not hold (an end, an empty Line-Up slot, a text that needs the frames); the
    caller then runs the ops. The end-of-turn frame is not touched: the caller pops it, done."""
    lineup = st["lineup"]
    # A slot empty: a refill due (op_refill's test) or, with no main deck to fill it, the end
    # check's main-deck test; a full Line-Up makes that test false (no slot to fill).
    if st["end_flags"] or not all(lineup) or st["dwt"]["count"] == 0:
        return False
    nxt = (st["active"] + 1) % st["seats"]
    new_round = nxt == st["first"]
    if "gone" in st:  # version 4: as op_end_check
        nxt = next_in_game(st, st["active"])
        new_round = passes_first(st, st["active"], nxt)
    if new_round:
        bound = st["config"]["max_rounds"]
        if bound is not None and st["round"] >= bound:
            return False
    # controlled_having's answer, asked only as far as START_AT_ONCE needs: none, or exactly one
    # text that is START_AT_ONCE's (in the order controlled_having lists them).
    texts = controlled_having(st, nxt, _START_HAVING)
    prog = None
    if texts:
        if len(texts) != 1:
            return False
        prog = START_AT_ONCE.get(texts[0])
        if prog is None:
            return False
    if new_round:
        st["round"] += 1
    # _turn_begins, its writes in its order.
    st["phase"] = "turn"
    st["active"] = nxt
    # fresh_turn's dict, written out (issue 17, P1: a call per turn); test_hand_over_at_once holds
    # it to _turn_begins'.
    st["turn"] = turn = {
        "power": 0,
        "played": [],
        "played_log": [],
        "legend_taken": False,
        "activated": False,
        "ending": False,
        "bought": [],
        "borrowed": [],
    }
    st["temp"] = {}
    st["deaths"] = []
    if prog is not None:
        # _run_start_text's ops (op_power's test holds: the seat's own new turn).
        st["scope"] += 1
        for op in prog:
            if op["op"] == "power":
                turn["power"] += op["n"]
            else:
                # op_heal, written out (issue 17, P1: a Thick Skull or Marrow Baths turn's two
                # calls): a heal of "you" by a fixed number (_plain), on a turn just begun, so no
                # grant in ``temp``; static's answer is then 1 unless a heal_multiplier setter is
                # among the player's Ongoing cards, its one zone (_HEAL_IN_ONGOING: else asked).
                p = st["players"][nxt]
                n = op["n"]
                if not _HEAL_IN_ONGOING or not _HEAL_SETTERS.isdisjoint(p["ongoing"]):
                    n *= static(st, nxt, "heal_multiplier", 1)
                heal_by(p, n)
    return True


_START_HAVING = HAVING["start_of_turn"]
_HEAL_SETTERS = STATIC_ZONES["heal_multiplier"][0]
_HEAL_IN_ONGOING = STATIC_ZONES["heal_multiplier"][1] == "ongoing"
_END_HAVING = HAVING["end_of_turn"]
#: Whether every end-of-turn text is a deck's card's, which a player controls only among their
#: Ongoing cards (interp.STATIC_ZONES' ruling): end_turn then asks that zone alone, not
#: controls_any (issue 17, P1: a call per turn).
_END_IN_ONGOING = setters_zone(_END_HAVING) == "ongoing"


def start_turn_to_refill(st: dict, f: dict, seat: int) -> bool:
    """Start ``seat``'s turn as op_end_check's frames would up to the Line-Up refill's draw, when
    a slot is empty and the main deck has two cards or more (fewer: op_refill takes them without
    a draw): ``f`` (the end-of-turn frame, at its end check) done as push_then_done leaves it, the
    _start_turn frame done with its op (op_start_turn), the start of the turn's frame pushed and
    its draw recorded as op_refill's draw_from records it. The caller stops as run stops at WAIT
    (issue 17, P1: a handover with a refill ran two runs, five frames' worth of calls). Else
    False, nothing done. test_fold_fast_paths.py holds it to the frames."""
    main = st["main"]
    if len(main) < 2 or all(st["lineup"]):
        return False
    f["pc"] += 1
    f["work"] = {}
    stack = st["stack"]
    stack.append({"prog": [{"op": "_start_turn", "seat": seat}], "pc": 1, "env": {"you": seat}, "work": {}})
    _turn_begins(st, seat)
    env = {"you": seat, "active": seat, "source": seat}
    stack.append({"prog": START_OF_TURN, "pc": 0, "env": env, "work": {}})
    st["need"] = {"zone": ["main"], "count": 1, "visible": "all", "label": "Line-Up refill"}
    return True


def _start_text_at_once(texts: list[str]) -> list | None:
    """The program of the one start-of-turn text of ``texts`` (controlled_having's, not empty)
    when START_AT_ONCE has it, else None (two texts may need the player to order them:
    _ordered_triggers)."""
    return START_AT_ONCE.get(texts[0]) if len(texts) == 1 else None


def _run_start_text(st: dict, seat: int, prog: list) -> None:
    """What op_start_effects' one frame does with ``prog``, the turn begun: its scope taken
    (new_scope), then each op. op_power's test holds (the seat's own turn, not ending);
    op_heal reads no frame for a fixed number."""
    st["scope"] += 1
    for op in prog:
        if op["op"] == "power":
            st["turn"]["power"] += op["n"]
        else:
            SINGLE["heal"](st, None, op, seat)


def refill_at_once(st: dict, f: dict) -> None:
    """Run the start of a turn's frame ``f`` ([_refill, _start_effects], on top of the stack) as
    run would when the refill's draw has come in: the card drawn goes to the Line-Up and, when
    the Line-Up is then full (or the main deck empty), the start-of-turn texts run, all as
    straight code (issue 17, P1). A Mayhem drawn, another card to draw, or a text not in
    START_AT_ONCE: the frame is left where run would be and run goes on."""
    w = f["work"]
    out = w["outcome"]
    main = st["main"]
    if len(out) != 1 or CARDS[main[out[0]]]["kind"] == "mayhem":
        run(st)  # (a Line-Up refill draws one card; a Mayhem pushes its frames)
        return
    del w["outcome"]  # op_refill's draw_from, taking the drawn card
    refill_taken(st, f, main.pop(out[0]))


def refill_taken(st: dict, f: dict, cid: str) -> None:
    """refill_at_once from the card drawn on (``cid``, out of the main deck, not a Mayhem): it goes
    to the first empty slot, then the next draw or the start-of-turn texts. fast.refill_drawn goes
    on here after taking the draw itself."""
    lineup = st["lineup"]
    lineup[lineup.index(None)] = cid
    if not all(lineup) and st["main"]:
        run(st)  # op_refill's next draw
        return
    seat = st["active"]
    texts = controlled_having(st, seat, HAVING["start_of_turn"])
    if texts:
        prog = _start_text_at_once(texts)
        if prog is None:
            f["pc"] = 1  # op_start_effects, its work empty (run leaves an empty one as it is)
            run(st)
            return
        _run_start_text(st, seat, prog)
    st["stack"].pop()  # the frame done; run unwinds the frames under it
    run(st)


# -- death --------------------------------------------------------------------------------------


def draw_token(st: dict, f: dict, key: str):
    """One token from the stack: a token id, None if the stack is empty, or WAIT. The stack holds
    ``count`` tokens: the known ones put back (``returned``) and unknown ones, which are drawn
    from the never-seen tokens. A die over the whole stack says which slot comes up; an unknown
    slot is then drawn from the unseen tokens (one public draw)."""
    d = st["dwt"]
    w = f["work"]
    if key in w:
        return w[key]
    if d["count"] == 0:
        w[key] = None
        return None
    unknown = d["count"] - len(d["returned"])
    slot_key = key + "_slot"
    if d["returned"] and slot_key not in w:
        if "outcome" not in w:
            st["need"] = {"dice": [[0, d["count"] - 1]], "label": "Dead Wizard Token: which one in the stack"}
            return WAIT
        w[slot_key] = w.pop("outcome")[0]
    slot = w.get(slot_key, len(d["returned"]))
    if slot < len(d["returned"]):
        token = d["returned"].pop(slot)
    else:
        got = draw_from(st, f, ["dwt"], 1, "all", "Dead Wizard Token")
        if got is WAIT:
            return WAIT
        token = got[0]
    d["count"] -= 1
    w[key] = token
    assert unknown >= 0
    return token


@handler("_die")
def op_die(st, f, op):
    """AN L332-340: the dead Wizard takes a random Dead Wizard Token face up, respawns at 20 HP
    (or the token's HP) and the token's text happens now. AN L344-346: killing a foe takes the
    Trophy; a self-kill or a Line-Up Mayhem/Legend kill takes nothing. With ``choose`` (a card's
    "fatality", AN L370) the killer draws two tokens, gives the victim one and shuffles the
    other back: the victim still gets only one."""
    seat, killer = op["seat"], op["killer"]
    if "gone" in st and killer in st["gone"]:
        # Version 4: a killer that left takes nothing and picks nothing (RULES.md, "A seat that
        # leaves"): the Trophy stays where it is, the victim keeps the first token drawn and a
        # second one already drawn for the killer's pick goes back into the stack. A second draw
        # still due when it left was withdrawn by the leave (Annihilageddon._second_token_due), so
        # no outcome for it comes in here.
        killer = None
    p = st["players"][seat]
    token = draw_token(st, f, "t1")
    if token is WAIT:
        return WAIT
    if op.get("choose") and token is not None and killer is None:
        back = f["work"].get("t2")
        if back is not None:
            st["dwt"]["returned"].append(back)
            st["dwt"]["returned"].sort()
            st["dwt"]["count"] += 1
    elif op.get("choose") and token is not None:
        second = draw_token(st, f, "t2")
        if second is WAIT:
            return WAIT
        if second is not None and second != token:
            pick = ask(st, f, killer, "token", options=sorted([token, second]), why="fatality")
            if pick is WAIT:
                return WAIT
            back = second if pick == token else token
            token = pick
        else:
            back = second
        if back is not None:
            st["dwt"]["returned"].append(back)
            st["dwt"]["returned"].sort()
            st["dwt"]["count"] += 1
    if token is not None:
        p["dwts"] = p["dwts"] + [token]  # replaced, not appended to (interp.without)
    p["hp"] = min(MAX_HP, CARDS[token].get("respawn_hp", START_HP) if token else START_HP)
    st["notes"].append(f"Seat {seat} dies" + (f" and takes {CARDS[token]['name']}." if token else "."))
    frames = []
    if killer is not None and killer != seat:
        for q in st["players"]:
            q["trophy"] = False
        st["players"][killer]["trophy"] = True
        for cid in controlled_having(st, killer, HAVING["on_kill"]):
            prog = CARDS[cid]["on_kill"]
            if prog:
                frames.append(
                    frame(
                        prog,
                        {"you": killer, "source": killer, "card": cid, "scope": new_scope(st), "active": st["active"]},
                    )
                )
    if token and CARDS[token].get("on_gain"):
        frames.append(
            frame(
                CARDS[token]["on_gain"],
                {
                    "you": seat,
                    "killer": killer,
                    "at_death": True,
                    "source": seat,
                    "card": token,
                    "scope": new_scope(st),
                    "active": st["active"],
                },
            )
        )
    return push_then_done(st, f, frames)


@handler("_activate")
def op_activate(st, f, op):
    """A tile's "Pay N HP" ability (AN L390, L420): pay, then (if still alive) the effect."""
    seat = f["env"]["you"]
    tile = st["players"][seat]["tile"]
    spec = CARDS[tile]["activated"]
    w = f["work"]
    if not w.get("paid"):
        w["paid"] = True
        st["players"][seat]["hp"] -= spec["pay_hp"]
        if st["players"][seat]["hp"] < 1:
            st["deaths"].append([f["env"].get("scope"), seat])
            w["died"] = True
            push(st, [frame([{"op": "_die", "seat": seat, "killer": seat}], {"you": seat})])
            return PUSHED
    if w.get("died"):
        return DONE
    return push_then_done(st, f, [frame(spec["do"], child_env(f))])
