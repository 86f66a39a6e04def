"""An answer to a target, option or defense question is taken without building the question
again (issue 17, P1): ``targets``, ``op_choose_one`` and ``_attack_together`` return the
answer in the frame's work before their tests. Along random playouts of every version:

- the question an op poses again from the state it was answered in is the one answered (the
  shortcut's premise: nothing between the question and its answer changes what it asks);
- every event leaves the state it leaves when the answer goes through the whole question, as
  before the shortcut."""

import json

import pytest

from engines import registry
from engines.annihilageddon import interp
from engines.annihilageddon.engine import copy_state

from ..test_conformance import playout


def _answers(version: str, seats: int) -> list[tuple[dict, dict]]:
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-answers:{version}:{seats}", bound=900, prefix=True)
    return [
        (st, ev)
        for st, ev in zip(states, events)
        if ev["kind"] == "action" and ev["action"]["type"] in ("choose", "defend")
    ]


def _question(pr: dict) -> dict:
    return {k: v for k, v in pr.items() if k != "answers"}  # the answers in so far are not the question


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_an_op_run_again_poses_the_question_that_was_answered(version, seats):
    kinds = set()
    for st, _ in _answers(version, seats):
        again = copy_state(st)
        again["prompt"] = None
        interp.run(again)
        assert again["need"] is None
        assert _question(again["prompt"]) == _question(st["prompt"])
        kinds.add(st["prompt"]["kind"])
    assert {"target", "option", "defend"} <= kinds


def _targets_whole(st, f, who):
    """targets as before the shortcut: the whole question built, then its answer taken."""
    w = f["work"]
    if "_who" in w or "answer" not in w:
        return _targets(st, f, who)
    answer = w.pop("answer")
    asked = st["prompt"]
    assert _targets(st, f, who) is interp.WAIT
    st["prompt"] = asked
    res = w["_who"] = [answer]
    return res


def _choose_one_whole(st, f, op):
    """op_choose_one as before the shortcut."""
    labels = [o["label"] for o in op["options"]]
    a = interp.ask(
        st, f, f["env"]["you"], "option", options=list(range(len(labels))), labels=labels, card=f["env"].get("card")
    )
    if a is interp.WAIT:
        return interp.WAIT
    return interp.push_then_done(st, f, [interp.frame(op["options"][a]["do"], dict(f["env"]))])


_targets = interp.targets


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_an_answer_taken_at_once_leaves_the_state_the_whole_question_leaves(version, seats, monkeypatch):
    engine = registry.get("annihilageddon", version)
    cases = _answers(version, seats)
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    monkeypatch.setattr(interp, "targets", _targets_whole)
    monkeypatch.setitem(interp.HANDLERS, "choose_one", _choose_one_whole)
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    assert len(cases) > 20
    assert fast == slow
