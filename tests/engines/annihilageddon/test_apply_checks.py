"""apply_in_place checks an event itself, inline, instead of calling validate (issue 17, P1): over
random playouts of every version it must refuse exactly the events the list-based checks refuse
(an action: validate's order of refusals, with membership in legal_actions for whether the action
itself is allowed; a chance outcome: check_outcome), with their codes, and accept the rest.

The candidates are every legal action of every seat (to move or not, and seats that are no seat),
their near misses, actions legal elsewhere in the playout, and near misses of every drawn outcome."""

import json

import pytest

from engines import registry
from engines.annihilageddon.cards import CARDS, of_kind
from engines.annihilageddon.engine import copy_state
from engines.base import CHANCE, IllegalAction
from engines.chance import check_outcome

from ..near_misses import _variants, near_misses
from ..test_conformance import playout


def _code(fn) -> str | None:
    try:
        fn()
    except IllegalAction as exc:
        return exc.code
    return None


#: validate's refusals of an action not allowed now: whether one is due is the legal list's to say.
NOT_ALLOWED = {
    "play": "card_not_in_hand",
    "buy": "cannot_buy",
    "choose": "bad_choice",
    "defend": "bad_choice",
    "keep": "bad_choice",
}


def _refusal_by_validate(engine, state, seat, action) -> str | None:
    """validate's refusal, the action's own allowance judged by membership in legal_actions
    (validate shares its direct check with apply_in_place: it cannot be the reference for it)."""
    code = _code(lambda: engine.validate(state, seat, action))
    if code is not None and code not in (*NOT_ALLOWED.values(), "illegal_action"):
        return code
    if _listed(action, engine.legal_actions(state, seat)):
        return None
    if action["type"] == "buy" and action.get("from") == "lineup" and type(action.get("slot")) in (bool, float):
        return "bad_action"  # a slot retyped: refused as malformed, saying why (RULES.md, "Actions and prompts")
    return NOT_ALLOWED.get(action["type"], "illegal_action")


def _listed(action, legal) -> bool:
    """Membership in the list as the engine means it: an answer is an offered choice exactly as
    JSON tells values apart (1.0 and true are not the option 1); anything else as the list's ==
    says, but for a Line-Up slot of true or 1.0, which JSON tells from 1."""
    if action["type"] in ("choose", "defend", "keep"):
        return _json(action) in map(_json, legal)
    if "slot" in action and type(action["slot"]) is not int:
        return False
    return action in legal


def _json(value) -> str:
    return json.dumps(value, sort_keys=True)


def _refusal_by_check_outcome(engine, state, outcome) -> str | None:
    if state["need"] is None:
        return "no_chance_due"
    return _code(lambda: check_outcome(engine.chance(state), outcome))


def _edge_outcomes(spec) -> list:
    """Outcomes at the edges of a draw: the lowest and highest indices, one past them, a repeat,
    a bool and a float among ints, one too few and one too many."""
    if spec["kind"] != "draw":
        return [[0], [-1], [0.0]]
    pool, count = spec["pool"], spec["count"]
    low, high = list(range(count)), list(range(pool - count, pool))
    out = [low, high, low[:-1], low + [count], [*low[:-1], pool], [-1, *low[1:]], [*low[:-1], low[0]]]
    out += [[True, *low[1:]], [*high[:-1], float(high[-1])], high[:-1] + [pool]]
    return out


def _prompt_variants(state) -> list[dict]:
    """``state`` and, for an open question, the same question asked otherwise: a defense window
    in which no one may defend, a card asked for optionally or not, with the owner's tokens or
    not (and the owner holding one), so each of the direct check's tests meets both answers."""
    pr = state["prompt"]
    if pr is None:
        return [state]
    out = [state]
    if "can_defend" in pr:
        for may in (False, True):
            # Each asked seat holding a Defense too (the playouts' hands seldom hold one).
            st = copy_state(state)
            can = pr["can_defend"]
            st["prompt"] = {**pr, "can_defend": {k: may for k in can} if "seats" in pr else may}
            for p in st["players"]:
                p["hand"].append(DEFENSE)
                p["hand"].sort()
            out.append(st)
    if pr["kind"] == "card":
        for optional in (False, True):
            for tokens in (False, True):
                st = copy_state(state)
                st["prompt"] = {**pr, "optional": optional, "tokens": tokens}
                owner = st["players"][pr["of"]]
                owner["dwts"] = owner["dwts"] + [TOKENS[0]]
                out.append(st)
    return out


#: A Defense card.
DEFENSE = next(cid for cid in sorted(CARDS) if "defense" in CARDS[cid])

#: Every Dead Wizard Token's id.
TOKENS = of_kind("dwt")


def _answers(state) -> list:
    """Answers worth trying at ``state``'s question: the plain words, every token, every card
    of every zone of every player."""
    out: list = ["none", "take", "participate", "decline", 0, 1, 1.0, True, 0.0, False, "1"]
    for p in state["players"]:
        out += [f"token:{t}" for t in p["dwts"]]
        for zone in ("hand", "discard", "top", "pool"):
            out += sorted(set(p[zone]))
    out += [f"token:{t}" for t in TOKENS[:3]]
    return out


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_apply_in_place_refuses_exactly_what_validate_and_check_outcome_refuse(version):
    engine = registry.get("annihilageddon", version)
    seen: list[dict] = []
    judged = {"accepted": 0, "refused": 0, "look-alikes": 0}
    kinds: set[str] = set()

    def judge(state, event, want, *, made_up=False):
        try:
            got = _code(lambda: engine.apply_in_place(copy_state(state), event))
        except (TypeError, IndexError, ValueError):
            # Past the checks, which is all this test judges: _prompt_variants' questions are not
            # always ones their op can take every answer to. A question the game asked takes
            # every answer the checks let through.
            if not made_up:
                raise
            got = None
        assert got == want, f"{event!r}: apply_in_place says {got!r}, the reference says {want!r}"
        judged["refused" if want else "accepted"] += 1
        action, seat = event.get("action"), event.get("seat")
        if type(action) is dict and type(action.get("value")) in (bool, float) and seat in range(state["seats"]):
            if action in engine.legal_actions(state, seat):
                # An answer the list's == finds (1.0 or true for the option 1): refused as not
                # offered, never taken.
                assert want == "bad_choice" == got, f"{event!r}: {got!r}"
                judged["look-alikes"] += 1

    for seats in (2, 3, 5):
        states, events = playout(engine, seats, f"an-apply-checks:{version}:{seats}", bound=260, prefix=True)
        for state, event in zip(states, events):
            movers = engine.to_move(state)
            if movers == [CHANCE]:
                outcomes = [event["outcome"], *_variants(event["outcome"]), *_edge_outcomes(engine.chance(state))]
                for outcome in outcomes:
                    want = _refusal_by_check_outcome(engine, state, outcome)
                    judge(state, {"kind": "chance", "outcome": outcome}, want)
                # An action while a draw is due.
                action = seen[-1] if seen else {"type": "end_turn"}
                judge(state, {"kind": "action", "seat": 0, "action": action}, "chance_pending")
                continue
            judge(state, {"kind": "chance", "outcome": [0]}, "no_chance_due")
            for variant in _prompt_variants(state):
                for seat in range(seats):
                    for value in _answers(variant):
                        for kind in ("choose", "defend"):
                            action = {"type": kind, "value": value}
                            judge(
                                variant,
                                {"kind": "action", "seat": seat, "action": action},
                                _refusal_by_validate(engine, variant, seat, action),
                                made_up=variant is not state,
                            )
            candidates = []
            for seat in range(seats):
                for action in engine.legal_actions(state, seat):
                    candidates += [action, *near_misses(action)]
                    seen.append(action)
            candidates += seen[-60:]
            for seat in [*range(seats), seats, -1, True, 1.0, "0", None]:
                for action in candidates:
                    want = _refusal_by_validate(engine, state, seat, action)
                    judge(state, {"kind": "action", "seat": seat, "action": action}, want)
                    if want is None:
                        kinds.add(action["type"])
                for action in (None, [], "end_turn", {"type": 1}, {}):
                    want = _refusal_by_validate(engine, state, seat, action)
                    assert want is not None
                    judge(state, {"kind": "action", "seat": seat, "action": action}, want)
    assert judged["accepted"] > 500 and judged["refused"] > 20000 and judged["look-alikes"] > 50, judged
    assert kinds >= {"play", "buy", "end_turn", "choose"} | ({"defend"} if version != "1" else set())
