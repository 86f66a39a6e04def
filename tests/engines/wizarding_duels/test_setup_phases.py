"""Set-up (rulebook L1496-1559; spec G1-C1, WD-19..WD-28)."""

from engines.wizarding_duels import geometry, rules
from engines.wizarding_duels.state import board

from .helpers import E, drive, front


def at(step):
    return lambda s: front(s) == step


def test_potions_are_chosen_secretly_after_both_groups_are_revealed():
    """WD-17 (L1136): Stocks come after the Groups, chosen in secret, revealed together."""
    s = drive(E.setup({}, 2), at("stock"))
    assert s["players"][0]["group"] and s["players"][1]["group"] and E.view(s, 1)["models"]
    assert E.to_move(s) == [0, 1]
    a = E.legal_actions(s, 0)[0]
    s = E.apply(s, {"kind": "action", "seat": 0, "action": a})
    assert s["players"][0]["potions"] == [] and E.redact_action(0, a, 1) == {"type": "potions"}
    s = E.apply(s, {"kind": "action", "seat": 1, "action": E.legal_actions(s, 1)[0]})
    assert len(s["players"][0]["potions"]) == 6 and len(s["players"][1]["potions"]) == 6


def test_the_coin_winner_picks_the_map_and_the_loser_the_joining_and_zone():
    """WD-19 and WD-20 (L1506-1512, L299-305): a public coin, then the two choices."""
    s = drive(E.setup({}, 2), at("coin"))
    spec = E.chance(s)
    assert spec == {"kind": "dice", "dice": [[0, 1]], "visible_to": "all", "label": "coin (setup)"}
    s = E.apply(s, {"kind": "chance", "outcome": [1]})
    assert front(s) == "choose_map" and E.to_move(s) == [1]
    s = E.apply(s, {"kind": "action", "seat": 1, "action": {"type": "choose_map", "map": "ember-quarry"}})
    assert E.to_move(s) == [0]
    joins = E.legal_actions(s, 0)
    assert {a["half"] for a in joins} == {0, 1} and len({a["nexus"] for a in joins}) >= 2
    s = E.apply(s, {"kind": "action", "seat": 0, "action": {"type": "choose_joining", "nexus": "red", "half": 1}})
    assert s["zone_half"] == [1, 0] and s["nexus"] == "red"


def test_challenges_alternate_from_the_coin_winner_and_keep_their_distance():
    """WD-21 (L1514-1527, rulings A-28/A-29): Open, not Arrival, not at the edge, at least 3 apart."""
    s = drive(E.setup({}, 2), at("place_challenge"))
    w = s["coin_winner"]
    b = board(s)
    arrivals = set(b.arrival[0]) | set(b.arrival[1])
    for i in range(6):
        assert E.to_move(s) == [w if i % 2 == 0 else 1 - w]
        for a in E.legal_actions(s, E.to_move(s)[0]):
            h = geometry.parse(a["hex"])
            assert b.terrain[h] == "open" and h not in arrivals and not b.at_edge(h)
        a = E.legal_actions(s, E.to_move(s)[0])[-1]
        s = E.apply(s, {"kind": "action", "seat": E.to_move(s)[0], "action": a})
    hexes = [geometry.parse(o["hex"]) for o in s["overlays"] if o["kind"] == "challenge"]
    close = [(a, b_) for i, a in enumerate(hexes) for b_ in hexes[i + 1 :] if geometry.distance(a, b_) < 3]
    assert not close or all(geometry.distance(a, b_) >= 2 for a, b_ in close)
    assert all(not o["face_up"] and o["what"] is None for o in s["overlays"])


def test_each_player_places_one_terrain_overlay_then_everything_is_unveiled():
    """WD-22 and WD-23 (L1529-1535, A-30): one each, face down; then a public draw names the challenges."""
    s = drive(E.setup({}, 2), at("place_terrain"))
    assert E.to_move(s) == [s["coin_winner"]]
    s = drive(s, at("unveil"))
    assert sum(o["kind"] == "terrain" for o in s["overlays"]) == 2
    spec = E.chance(s)
    assert spec["kind"] == "draw" and spec["pool"] == 6 and spec["count"] == 6 and spec["visible_to"] == "all"
    s = E.apply(s, {"kind": "chance", "outcome": [5, 4, 3, 2, 1, 0]})
    assert all(o["face_up"] for o in s["overlays"])
    assert sorted(o["what"] for o in s["overlays"] if o["kind"] == "challenge") == sorted(rules.pack(s).challenges)


def test_three_quests_a_mulligan_and_back_to_three():
    """WD-24 (L1537-1545, L503-507) and WD-47 (L471): mulliganed quests go to the Quest Discard pile."""
    s = drive(E.setup({}, 2), at("mulligan"))
    assert all(len(p["qhand"]) == 3 and len(p["quest_deck"]) == 6 for p in s["players"])
    hand = sorted(s["players"][0]["qhand"])
    s = E.apply(s, {"kind": "action", "seat": 0, "action": {"type": "mulligan", "discard": hand[:2]}})
    s = E.apply(s, {"kind": "action", "seat": 1, "action": {"type": "mulligan", "discard": []}})
    assert s["players"][0]["quest_discard"] == hand[:2]
    spec = E.chance(s)
    assert spec["count"] == 2 and spec["visible_to"] == "all"
    s = E.apply(s, {"kind": "chance", "outcome": [0, 1]})
    assert len(s["players"][0]["active"]) == 3 and hand[2] in s["players"][0]["active"]
    assert set(s["players"][0]["active"]).isdisjoint(hand[:2])


def test_deployment_alternates_from_the_coin_winner_onto_own_arrival_spaces():
    """WD-26 (L1547-1551, ruling A-65)."""
    s = drive(E.setup({}, 2), at("deploy"))
    w = s["coin_winner"]
    order = []
    while front(s) == "deploy":
        seat = E.to_move(s)[0]
        a = E.legal_actions(s, seat)[0]
        assert geometry.parse(a["hex"]) in board(s).arrival[s["zone_half"][seat]]
        order.append(seat)
        s = E.apply(s, {"kind": "action", "seat": seat, "action": a})
    n = [sum(1 for m in s["models"].values() if m["seat"] == x) for x in (0, 1)]
    k = min(n)
    assert order[: 2 * k] == [w, 1 - w] * k
    assert all(x == order[-1] for x in order[2 * k :])


def test_the_pool_counts_cunning_with_neutral_points_chosen_and_hands_of_three_are_dealt():
    """WD-27 (L1553-1555, L1037-1051), WD-28 (L1557-1559) and WD-33 (L327-339): a deck and a hand each."""
    s = drive(E.setup({}, 2), lambda s: front(s) in ("neutral", "coin") and s["phase"] in ("pool", "hands", "start"))
    if front(s) == "neutral":
        seat = E.to_move(s)[0]
        options = E.legal_actions(s, seat)
        assert options[0] == {"type": "neutral", "light": 0}
    s = drive(s, lambda s: s["phase"] == "start" and front(s) == "coin")
    for seat in (0, 1):
        ms = [m for m in s["models"].values() if m["seat"] == seat]
        total = sum(m["cunning"]["light"] + m["cunning"]["dark"] + m["cunning"]["neutral"] for m in ms)
        total += sum(
            sum(1 for o in ms if o is not m and o["cunning"]["dark"]) for m in ms if "adoration" in m["traits"]
        )
        assert s["players"][seat]["pool"]["light"] + s["players"][seat]["pool"]["dark"] == total
        assert len(s["players"][seat]["hand"]) == 3 and len(s["players"][seat]["deck"]) == 17


def test_horcrux_maker_gives_the_rival_its_horcrux_and_deals_others_at_random():
    """WD-25 and WD-T16 (L1311-1328, ruling A-46)."""
    g_dark = {
        "type": "group",
        "models": ["ashen-regent", "cassius-vane", "umbral-acolyte", "veyra"],
        "leader": 0,
        "artifacts": [[], [], [], []],
        "spellbook": [],
        "quests": [
            "hold-the-line",
            "two-fronts",
            "relic-hunter",
            "lead-from-the-front",
            "at-the-gates",
            "onslaught",
            "advance-together",
            "hold-the-ground",
            "alchemists-gambit",
        ],
    }
    g_light = dict(g_dark, models=["isolde-marrow", "aldous-wren"], artifacts=[[], []])
    s = E.setup({"groups": [g_dark, g_light]}, 2)
    s = drive(s, at("horcrux_pick"))
    assert any(a["id"] == "isolde-shard" for a in s["models"]["1a"]["artifacts"])
    assert max(len(a["models"]) for a in E.legal_actions(s, 0)) == 2  # 2, since the rival is present
    s = E.apply(s, {"kind": "action", "seat": 0, "action": {"type": "horcrux", "models": ["0b", "0c"]}})
    spec = E.chance(s)
    assert spec["kind"] == "draw" and spec["count"] == 2 and spec["visible_to"] == "all"
    s = E.apply(s, {"kind": "chance", "outcome": [1, 0]})
    maker = s["models"]["0a"]
    kinds = sorted(h["kind"] for h in maker["horcruxes"])
    assert kinds == ["artifact", "artifact", "artifact", "model"]  # Isolde's shard, two dealt, and Veyra
