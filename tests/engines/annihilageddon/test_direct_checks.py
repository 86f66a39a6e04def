"""validate checks an action directly instead of finding it in legal_actions' list (issue 17, P1):
over random playouts of every version and 2 to 5 seats it must accept exactly the listed actions
and refuse every near miss with the code the list-based check gave."""

import pytest

from engines import registry

from ..near_misses import DirectCheckAudit
from ..test_conformance import playout
from .helpers import E, act, table


def _listed_refusal(state, seat, action):
    # Before the direct check: the open prompt's answer type first, then membership in the list.
    pr = state["prompt"]
    answer = "defend" if pr is not None and "seats" in pr else "choose"
    if pr is not None and pr["kind"] == "setup" and "hand_questions" in state:
        answer = "keep"  # version 3: a setup keep is a secret action of its own
    kind = action["type"]
    if pr is not None and kind != answer:
        return "prompt_pending"
    if kind == "buy" and action.get("from") == "lineup" and type(action.get("slot")) in (bool, float):
        return "bad_action"  # a slot retyped: refused as malformed, saying why (RULES.md, "Actions and prompts")
    return {
        "play": "card_not_in_hand",
        "buy": "cannot_buy",
        "choose": "bad_choice",
        "defend": "bad_choice",
        "keep": "bad_choice",
    }.get(kind, "illegal_action")


def _listed(action, legal) -> bool:
    """Membership in the list as the engine means it: an answer is an offered choice exactly as
    JSON tells values apart (1.0 and true are not 1); anything else as the list's == says, but
    for a Line-Up slot of true or 1.0, which JSON tells from 1."""
    if action.get("type") in ("choose", "defend", "keep"):
        return False  # not in the list by JSON (the audit asks only then)
    if "slot" in action and type(action["slot"]) is not int:
        return False
    return action in legal


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_validate_accepts_exactly_the_listed_actions_and_refuses_near_misses_as_before(version):
    engine = registry.get("annihilageddon", version)
    audit = DirectCheckAudit(engine, _listed_refusal, seed=f"an-direct:{version}", listed=_listed)
    for seats in (2, 3, 5):
        states, _ = playout(engine, seats, f"an-direct:{version}:{seats}", bound=700, prefix=True)
        audit.walk(states)
    assert audit.accepted > 1000 and audit.refused > 10000
    for kind in ("play", "buy", "end_turn", "choose"):
        assert kind in audit.kinds
    if version != "1":
        assert "defend" in audit.kinds


def test_activate_is_judged_as_listed_before_and_after_it_was_used_and_without_the_hp():
    # No random playout draws Blood Price (the one tile with an activated ability): a table does.
    st = table(seats=3, tiles={0: "tile-blood-price"}, hands={0: ["glyph"]}, hp={0: 9})
    st["revealed"]["tile"] = True
    audit = DirectCheckAudit(E, _listed_refusal, seed="an-direct:activate", listed=_listed)
    audit.check(st, 0)
    assert {"type": "activate"} in E.legal_actions(st, 0)
    used = act(st, 0, type="activate")
    audit.check(used, 0)
    assert {"type": "activate"} not in E.legal_actions(used, 0)
    weak = table(seats=3, tiles={0: "tile-blood-price"}, hands={0: ["glyph"]}, hp={0: 3})
    audit.check(weak, 0)
    assert audit.kinds >= {"activate", "play", "end_turn"}
