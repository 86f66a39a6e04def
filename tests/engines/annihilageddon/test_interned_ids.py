"""The card table's strings are interned (cards.load), so a state's card ids are the table's own
objects and every look-up of one (CARDS, HAVING, PLAY_TRIGGERS, a handler by op name) is met by
identity, not by comparing the characters (issue 17, P1). Equal strings either way: these tests
hold only the identity, which a state copied by marshal (engines.treecopy, a replay's owned
copy of its setup) keeps only for interned strings."""

import json
import sys

from engines import registry
from engines.annihilageddon.cards import CARDS, LIMP_WAND, WILD_MAGIC
from engines.base import replay

from ..test_conformance import playout


def _strings(value, out: list) -> list:
    if type(value) is str:
        out.append(value)
    elif type(value) is dict:
        for k, v in value.items():
            out.append(k)
            _strings(v, out)
    elif type(value) is list:
        for v in value:
            _strings(v, out)
    return out


def test_every_string_of_the_card_table_is_interned():
    strings = _strings(CARDS, [])
    assert len(strings) > 1000
    assert all(sys.intern(s) is s for s in strings)


def test_the_stacks_ids_the_code_puts_into_a_state_are_the_card_table_s():
    keys = {cid: cid for cid in CARDS}
    assert keys["wild-magic"] is WILD_MAGIC and keys["limp-wand"] is LIMP_WAND


def test_a_replay_s_owned_setup_holds_the_card_table_s_own_ids():
    engine = registry.get("annihilageddon")
    config = engine.validate_config({}, 3)
    st = engine.owned_copy(engine.setup(config, 3))
    ids = st["main"] + [c for c in st["lineup"] if c] + [c for p in st["players"] for c in p["pool"] + p["hand"]]
    assert len(ids) > 50
    keys = {cid: cid for cid in CARDS}
    assert all(keys[cid] is cid for cid in ids)


def test_a_card_played_from_the_hand_is_the_hand_s_string_not_the_event_s():
    for version in ("1", "2"):
        engine = registry.get("annihilageddon", version)
        config = engine.validate_config({}, 2)
        states, events = playout(engine, 2, f"an-interned:{version}", bound=300, prefix=True)
        plays = 0
        st = engine.owned_copy(engine.setup(config, 2))
        for ev in events:
            ev = json.loads(json.dumps(ev))  # a new string per card, as the event store's events hold
            play = ev["kind"] == "action" and ev["action"]["type"] == "play"
            if play:
                cid = ev["action"]["card"]
                own = next(c for c in st["players"][ev["seat"]]["hand"] if c == cid)
            st = engine.apply_in_place(st, ev)
            if play:
                assert st["turn"]["played_log"][-1] is own and own is not cid
                plays += 1
        assert plays > 20
        assert json.dumps(st) == json.dumps(replay(engine, config, 2, events))
