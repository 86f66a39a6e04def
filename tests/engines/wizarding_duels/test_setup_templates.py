"""A new game's Clash decks and cards by uid (``Pack.starting_cards``) and each character's model
before its Group places it (``Pack.fresh_models``) are made once per pack and copied into every
game (issue 17, P1). So a model holds its character's fields as a Group's install writes them, and
two games set up alike share no container with each other or with what the pack keeps, but the
config's Groups (installed as given) and the effects of the models' attacks (never written)."""

from __future__ import annotations

import pytest

from engines.wizarding_duels import content, groups

from .playouts import ENGINES, group_with
from .test_owned_setup import _containers

_CONFIG = {"groups": [group_with("ashen-regent"), group_with("gorrin-oakhand")]}


def _expected_model(pk, seat: int, i: int, g: dict) -> dict:
    """A model of Group ``g`` as the install wrote it field by field, in this order."""
    c = pk.characters[g["models"][i]]
    uid = f"{seat}{'abcdefghijklmnopqrstuvwxyz'[i]}"
    return {
        "uid": uid,
        "seat": seat,
        "char": c["id"],
        "name": c["name"],
        "hex": None,
        "removed": False,
        "mastery": c["mastery"],
        "defense": c["defense"],
        "slots": c["slots"],
        "cunning": dict(c["cunning"]),
        "traits": groups.traits(c),
        "innate": list(c["innate_spells"]),
        "innate_clocks": {},
        "attacks": [dict(a) for a in c["attacks"]],
        "actions": {"move": 1, "advanced": 1, "quick": 1, **c.get("actions", {})},
        "artifacts": [{"id": a, "locked": False, "used": False} for a in g["artifacts"][i]],
        "spells": [],
        "impacts": 0,
        "burning": 0,
        "poison": 0,
        "slow": 0,
        "conceal": [],
        "ward": [],
        "markers": 0,
        "animal": False,
        "round": {},
        "horcruxes": [],
        "leader": i == g["leader"],
        "next_adv": 0,
    }


@pytest.mark.parametrize("version", ["1", "2"])
def test_an_installed_model_holds_its_characters_fields_in_the_install_order(version):
    s = ENGINES[version].setup(_CONFIG, 2)
    pk = content.load(s["pack"])
    for seat, g in enumerate(_CONFIG["groups"]):
        for i in range(len(g["models"])):
            m = s["models"][f"{seat}{'abcdefghijklmnopqrstuvwxyz'[i]}"]
            want = _expected_model(pk, seat, i, g)
            assert m == want
            assert list(m) == list(want)
    assert s["living"] == [sorted(uid for uid in s["models"] if uid[0] == str(seat)) for seat in (0, 1)]


@pytest.mark.parametrize("version", ["1", "2"])
@pytest.mark.parametrize("config", [{}, _CONFIG], ids=["groups-built", "groups-given"])
def test_two_games_set_up_alike_share_no_container_with_each_other_or_the_packs_templates(version, config):
    engine = ENGINES[version]
    first, second = engine.setup(config, 2), engine.setup(config, 2)
    if not config:
        # The Groups built in play: the same two answers applied to each game.
        for seat, g in enumerate(_CONFIG["groups"]):
            for s in (first, second):
                engine.apply_in_place(s, {"kind": "action", "seat": seat, "action": g})
    assert first == second and first["models"]
    pk = content.load(first["pack"])
    mine = _containers(first, {})
    for m in first["models"].values():
        for a in m["attacks"]:
            for i in _containers(a["effects"], {}):
                mine.pop(i, None)
    given = _containers(config, {})
    theirs = _containers(second, {})
    assert [mine[i] for i in mine.keys() & theirs.keys() if i not in given] == []
    kept = _containers(pk.starting_cards, {})
    _containers(list(pk.fresh_models.values()), kept)
    assert pk.fresh_models and [mine[i] for i in mine.keys() & kept.keys()] == []
