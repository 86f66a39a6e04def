"""The direct legality check (``legal.allowed``, issue 17 P1) says exactly what membership in the
listed options says: on recorded random playouts of both rules versions, every listed answer is
accepted, and every near miss of one (a field changed, dropped or added, another type, a space
written another way) is accepted exactly when the list holds it, refused through ``validate``
with the same error code as before."""

import random
from collections import Counter

import pytest

from engines.base import CHANCE, IllegalAction
from engines.chance import draw as chance_draw
from engines.wizarding_duels import content, geometry, legal, rules
from engines.wizarding_duels.state import board

from ..near_misses import written_as_listed
from .playouts import ENGINES, group_with, random_playout

#: Decisions taken from a list in ``validate`` before and after (secret, simultaneous answers).
LISTED_ELSEWHERE = ("build", "stock", "mulligan")
ACT_TYPES = (
    "end",
    "move",
    "attack",
    "cast",
    "draw_quest",
    "draw_clash",
    "potion",
    "flip",
    "use_artifact",
    "slytherin",
    "dark_lord_swap",
    "herbology",
)


def strings_of(s, st):
    """Ids of the state that an answer may name: models, cards, spells, potions, quests, artifacts."""
    pk = content.load(s["pack"])
    out = set(s["models"]) | set(s["cards"]) | set(pk.spells) | set(pk.potions) | set(pk.artifacts)
    for p in s["players"]:
        out |= set(p["active"]) | set(p["qhand"])
    return sorted(out)


def spaces_near(s, k, rng):
    """Spaces written as the options write them: the neighbours of ``k``, a few of the board's,
    and ``k`` written in ways the options never write it."""
    out = []
    try:
        h = geometry.parse(k)
    except (ValueError, AttributeError):
        h = None
    if h is not None:
        out += [geometry.key(n) for n in geometry.neighbours(h)]
        out += [f"{h[0]}, {h[1]}", f"0{h[0]},{h[1]}" if h[0] >= 0 else f"-0{-h[0]},{h[1]}", f"{h[0]},{h[1]},0"]
    b = board(s)
    if b is not None:
        out += [geometry.key(x) for x in rng.sample(b.hexes, min(6, len(b.hexes)))]
    return out


def near_misses(s, st, answer, rng):
    """Answers one change away from ``answer``."""
    ids = strings_of(s, st)
    out = []
    for k, v in answer.items():
        if k == "type":
            continue
        out.append({x: y for x, y in answer.items() if x != k})  # the field dropped
        if isinstance(v, bool):
            values = [not v, int(v), None]
        elif isinstance(v, int):
            values = [v + 1, v - 1, float(v), str(v), True, None]
        elif isinstance(v, str):
            values = [v + " ", [v], None, 0] + rng.sample(ids, min(5, len(ids))) + spaces_near(s, v, rng)
        elif v is None:
            values = ["x", 0, False] + spaces_near(s, None, rng) + rng.sample(ids, min(3, len(ids)))
        elif isinstance(v, list):
            values = [v[::-1], v[:-1], v + v[:1], tuple(v), None]
        else:
            values = [None]
        out += [dict(answer, **{k: x}) for x in values]
    for k, vs in (("dangerous", (0, 1, 2, 3, 1.0)), ("animal", (True, False)), ("extra", (1,)), ("model", (None,))):
        if k not in answer:
            out += [dict(answer, **{k: x}) for x in vs]
    if st["step"] == "act":
        out += [dict(answer, type=t) for t in ACT_TYPES if t != answer["type"]]
    out.append(dict(answer, type=[answer["type"]]))
    return out


def check_state(engine, s, seat, rng, seen):
    st = s["queue"][0]
    listed = rules.options(s, st, seat)
    sample = listed if len(listed) <= 6 else rng.sample(listed, 6)
    for answer in listed:
        assert legal.allowed(s, st, seat, answer), (st, answer)
    for answer in sample:
        seen[(st["step"], answer.get("type"), "dangerous" in answer)] += 1
        for miss in near_misses(s, st, answer, rng):
            expected = miss in listed
            assert legal.allowed(s, st, seat, miss) is expected, (st, answer, miss)
            # The engine takes an answer only as the list writes it: ``true`` or ``1.0`` for a
            # count, or ``1`` for a flag, is equal to a listed answer in Python and still refused.
            if written_as_listed(miss, listed):
                engine.validate(s, seat, miss)
                seen["near misses accepted"] += 1
            else:
                with pytest.raises(IllegalAction) as refused:
                    engine.validate(s, seat, miss)
                assert refused.value.code == "illegal_action"
                seen["near misses refused"] += 1


def play_and_check(version, seed, config, seen):
    for engine, s, seat, rng in random_playout(version, seed, config):
        if seat is not None and s["queue"][0]["step"] not in LISTED_ELSEWHERE:
            check_state(engine, s, seat, rng, seen)


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_direct_check_agrees_with_the_listed_options_on_answers_and_near_misses(version):
    seen = Counter()
    for seed in range(4):
        play_and_check(version, seed, {}, seen)
    # The Free actions of the Dark Lord and the Herbology Expert, the Gryffindor move and the
    # Animagus form come from Groups that hold those models.
    special = {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]}
    play_and_check(version, 100, special, seen)
    special = {"groups": [group_with("isolde-marrow"), group_with("mira-quillfeather")]}
    play_and_check(version, 101, special, seen)
    kinds = {k[1] for k in seen if isinstance(k, tuple)}
    # Every kind of answer the direct check works out itself was met and mutated.
    assert {"move", "attack", "cast", "potion", "draw_quest", "flip", "deploy", "activate"} <= kinds
    assert {"place_challenge", "place_terrain", "place", "dark_lord_swap", "herbology"} <= kinds
    assert seen["near misses accepted"] > 0 and seen["near misses refused"] > 1000
    if version == "2":
        assert any(k[2] for k in seen if isinstance(k, tuple) and k[1] == "move")  # a riskier route


def test_a_move_written_with_padding_or_a_riskier_route_version_one_never_offered_is_refused():
    engine = ENGINES["1"]
    s = engine.setup({}, 2)
    rng = random.Random(7)
    for _ in range(5000):
        tm = engine.to_move(s)
        if tm and tm != [CHANCE] and s["queue"][0]["step"] == "act":
            moves = [a for a in rules.options(s, s["queue"][0], tm[0]) if a["type"] == "move"]
            if moves:
                break
        if tm == [CHANCE]:
            ev = {"kind": "chance", "outcome": chance_draw(engine.chance(s), rng.randrange)}
        else:
            ev = {"kind": "action", "seat": tm[0], "action": engine.bot_action("random", s, tm[0], rng)}
        s = engine.apply(s, ev)
    else:
        raise AssertionError("no move was offered")
    seat, move = tm[0], moves[0]
    engine.validate(s, seat, move)
    q, r = geometry.parse(move["to"])
    for bad in (dict(move, to=f" {q},{r}"), dict(move, to=f"{q},{r} "), dict(move, dangerous=5)):
        with pytest.raises(IllegalAction) as refused:
            engine.validate(s, seat, bad)
        assert refused.value.code == "illegal_action"


def containers(value, out):
    """The ids of every dict and list in ``value``."""
    if isinstance(value, dict):
        out.add(id(value))
        for v in value.values():
            containers(v, out)
    elif isinstance(value, list):
        out.add(id(value))
        for v in value:
            containers(v, out)
    return out


@pytest.mark.parametrize("version", ["1", "2"])
def test_no_answer_applied_in_place_shares_a_dict_or_list_with_the_state(version):
    # Only the answers the state keeps are copied (rules.KEPT_ANSWERS); a later in-place write
    # must never reach into an event, so no container of an event may end up in the state.
    engine = ENGINES[version]
    groups_ = {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]}
    kinds = Counter()
    for seed, config in ((0, {}), (1, {}), (2, groups_)):
        rng = random.Random(seed)
        s = engine.owned_copy(engine.setup(config, 2))
        for _ in range(5000):
            tm = engine.to_move(s)
            if not tm:
                break
            if tm == [CHANCE]:
                ev = {"kind": "chance", "outcome": chance_draw(engine.chance(s), rng.randrange)}
            else:
                seat = tm[int(rng.random() * len(tm))]
                ev = {"kind": "action", "seat": seat, "action": engine.bot_action("random", s, seat, rng)}
                kinds[s["queue"][0]["step"]] += 1
            s = engine.apply_in_place(s, ev)
            assert not containers(ev, set()) & containers(s, set()), ev
    # The secret answers the state holds whole, and the Horcrux pick, were among them.
    assert {"build", "stock", "mulligan", "neutral", "horcrux_pick", "act", "order"} <= set(kinds)
