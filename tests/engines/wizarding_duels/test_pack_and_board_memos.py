"""A state's pack and board are read from plain dicts (``content._LOADED``, ``content._BOARDS``;
issue 17, P1) instead of through ``functools.cache``, and a character's traits are kept per pack
(``groups.character_traits``). Each must be what loading, building or reading anew gives."""

from __future__ import annotations

from engines.wizarding_duels import content, geometry, groups, state

from .playouts import random_playout, varied_configs


def test_a_states_pack_and_board_are_the_ones_loaded_and_built_for_it():
    boards = 0
    for seed, config in enumerate(varied_configs()[:3]):
        for _engine, s, _seat, _rng in random_playout("2", f"wzd-memos:{seed}", config):
            assert state.pack(s) is content.load(s["pack"])
            b = state.board(s)
            if s["map"] is None or s["nexus"] is None:
                assert b is None
                continue
            assert b is content.board(s["pack"], s["map"], s["nexus"])
            boards += 1
        fresh = geometry.Board(content.load(s["pack"]).maps[s["map"]], s["nexus"])
        assert (b.terrain, b.arrival, b.keys, b.zones) == (fresh.terrain, fresh.arrival, fresh.keys, fresh.zones)
    assert boards > 100


def test_a_pack_loaded_again_after_the_memo_is_cleared_is_the_one_states_read():
    s = {"pack": "original-v1", "map": None, "nexus": None}
    before = state.pack(s)
    content.load.cache_clear()
    try:
        again = content.load("original-v1")
        assert again is not before and state.pack(s) is again
    finally:
        content.load.cache_clear()


def test_a_characters_kept_traits_are_its_traits_and_a_models_are_its_own_copy():
    pk = content.load("original-v1")
    for cid, char in pk.characters.items():
        assert groups.character_traits(pk, cid) == groups.traits(char)
    engine_state = None
    for _engine, s, _seat, _rng in random_playout("2", "wzd-traits", {}):
        if s["models"]:
            engine_state = s
            break
    m = next(iter(engine_state["models"].values()))
    kept = groups.character_traits(pk, m["char"])
    assert m["traits"] == kept and m["traits"] is not kept
