"""validate checks an action directly instead of finding it in legal_actions' list (issue 17, P1):
over random and heuristic playouts of 2 to 4 seats it must accept exactly the listed actions and
refuse every near miss with the code the list-based check gave; a chance outcome likewise."""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.chance import check_outcome
from engines.spellcaster.engine import _explain, _typed

from ..near_misses import DirectCheckAudit, near_misses, written_as_listed
from .helpers import E
from .playouts import playout


def _states(seed, n, bots=None, max_events=1500):
    states = []
    playout(seed, n=n, bots=bots, max_events=max_events, every=lambda before, event, after: states.append(before))
    return states


def _listed_refusal(state, seat, action):
    # Before the direct checks: an action not in the list was refused with _explain's code; one
    # not typed as the list writes it is refused as malformed first (RULES.md, "Answers are typed").
    if not _typed(action):
        return "bad_action"
    return _explain(state, seat, action).code


def test_validate_accepts_exactly_the_listed_actions_and_refuses_near_misses_as_before():
    audit = DirectCheckAudit(E, _listed_refusal, seed="sc-direct", listed=written_as_listed)
    for seed, n, bot in ((1, 2, "random"), (2, 3, "random"), (3, 4, "random"), (4, 3, "heuristic")):
        audit.walk(_states(seed, n, bots={s: bot for s in range(n)}))
    assert audit.accepted > 2000 and audit.refused > 20000
    # The checks written out per type were all reached, not only the fallbacks.
    for kind in ("conjure", "rest", "move", "end_turn", "draw", "keep", "place", "launch", "will", "step", "return"):
        assert kind in audit.kinds


def test_keep_none_is_accepted_only_when_no_card_of_the_hand_fits_anywhere():
    audit = DirectCheckAudit(E, _listed_refusal, seed="sc-direct:keep-none", listed=written_as_listed)
    seen = 0
    for seed in range(5, 12):
        for state in _states(seed, 2, max_events=800):
            top = state["stack"][-1] if state["phase"] == "play" and state["stack"] else None
            if top and top["p"] == "keep":
                seat = top["seat"]
                audit.check(state, seat)
                seen += {"type": "keep_none"} in E.legal_actions(state, seat)
    assert seen >= 1


def _outcome_misses(outcome):
    return [outcome, None, "x", [], outcome + [0], outcome * 2] + [
        m["o"] for m in near_misses({"type": "chance", "o": outcome})[1:] if "o" in m
    ]


@pytest.mark.parametrize(("seed", "n"), [(21, 2), (22, 4)])
def test_a_chance_outcome_is_accepted_exactly_when_the_spec_allows_it(seed, n):
    checked = 0
    for state in _states(seed, n):
        spec = E.chance(state)
        if E.to_move(state) != [CHANCE] or spec is None:
            continue
        outcome = [0] if spec["kind"] == "draw" else [lo for lo, _ in spec["dice"]]
        for candidate in _outcome_misses(outcome) + _outcome_misses([hi for _, hi in spec.get("dice", [[0, 0]])]):
            try:
                check_outcome(spec, candidate)
                want = None
            except IllegalAction as exc:
                want = exc.code
            try:
                E.apply(state, {"kind": "chance", "outcome": candidate})
                got = None
            except IllegalAction as exc:
                got = exc.code
            assert got == want, f"{candidate!r} for {spec}"
            checked += 1
    assert checked > 200
