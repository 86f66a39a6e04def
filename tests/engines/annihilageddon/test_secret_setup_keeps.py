"""Version 3: a kept Ability tile or Familiar is a ``keep`` action, and the event is redacted for
every other viewer while the match is live (AN L86-90, AN-R19: the choices "stay hidden until
everyone has chosen"; the view shows them then). In versions 1 and 2 a keep was a ``choose``, the
same action as a later public answer naming the same card (a Familiar discarded from a hand, the
tile's start-of-turn text picked to resolve next), so those versions could not redact it."""

import copy

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction

from .helpers import E, step_chance


def at_first_keep(seats=3, engine=E):
    st = engine.setup({}, seats)
    while engine.to_move(st) == [CHANCE]:
        st = step_chance(st)
    assert st["prompt"]["kind"] == "setup" and st["prompt"]["seat"] == 0
    return st


def test_each_keep_is_shown_to_its_keeper_only_while_the_match_is_live():
    st = at_first_keep()
    seen = 0
    while st["phase"] == "setup" and st["prompt"] is not None:
        seat = E.to_move(st)[0]
        action = E.legal_actions(st, seat)[-1]
        assert action["type"] == "keep"
        assert E.redact_action(seat, action, seat) == action
        for viewer in [None, *[s for s in range(3) if s != seat]]:
            assert E.redact_action(seat, action, viewer) == {"type": "keep"}
        st = E.apply(st, {"kind": "action", "seat": seat, "action": action})
        while E.to_move(st) == [CHANCE] and st["phase"] == "setup":
            st = step_chance(st)
        seen += 1
    assert seen == 6  # a tile and a Familiar for each of three seats
    # every answer after the setup is as public as before
    assert E.redact_action(0, {"type": "choose", "value": "fizzle"}, 1) == {"type": "choose", "value": "fizzle"}


def test_the_log_line_and_the_others_views_are_the_same_whichever_tile_was_kept():
    st = at_first_keep()
    first, second = E.prompt_options(st, 0)
    a = {"kind": "action", "seat": 0, "action": {"type": "keep", "value": first}}
    b = {"kind": "action", "seat": 0, "action": {"type": "keep", "value": second}}
    after_a, after_b = E.apply(st, a), E.apply(st, b)
    assert E.describe(st, a, after_a) == E.describe(st, b, after_b) == "Seat 0 keeps one of their Ability tiles."
    for viewer in (None, 1, 2):
        assert E.view(after_a, viewer) == E.view(after_b, viewer)
    assert E.view(after_a, 0)["players"][0]["tile"] == first


def test_a_setup_keep_sent_as_choose_is_refused_with_the_answer_it_needs_and_changes_nothing():
    st = at_first_keep()
    frozen = copy.deepcopy(st)
    value = E.prompt_options(st, 0)[0]
    with pytest.raises(IllegalAction) as refused:
        E.apply(st, {"kind": "action", "seat": 0, "action": {"type": "choose", "value": value}})
    assert refused.value.code == "prompt_pending"
    assert "'keep'" in refused.value.message
    assert st == frozen


@pytest.mark.parametrize("version", ["1", "2"])
def test_versions_1_and_2_still_keep_with_choose(version):
    """Their recorded matches replay as they were played."""
    engine = registry.get("annihilageddon", version)
    st = at_first_keep(engine=engine)
    assert [a["type"] for a in engine.legal_actions(st, 0)] == ["choose", "choose"]
    action = engine.legal_actions(st, 0)[0]
    assert engine.apply(st, {"kind": "action", "seat": 0, "action": action})["players"][0]["tile"] == action["value"]
    with pytest.raises(IllegalAction):
        engine.apply(st, {"kind": "action", "seat": 0, "action": {**action, "type": "keep"}})
