"""``interp.static`` (and ``turn.end_turn`` for the end-of-turn texts) looks for a standing modifier's setters in one zone (STATIC_ZONES, issue 17,
P1): a deck's card among the Ongoing ones, a Dead Wizard Token among the tokens. That rests on
where the rules put controlled cards; along random playouts of every version, every controlled
card must be where its kind says, and static must answer what statics answers."""

import pytest

from engines import registry
from engines.annihilageddon import turn
from engines.annihilageddon.cards import CARDS, STATICS
from engines.annihilageddon.interp import (
    STATIC_SETTERS,
    STATIC_ZONES,
    WAND_SETTERS,
    WAND_ZONE,
    controls_any,
    static,
    statics,
)

from ..test_conformance import playout
from .test_static import _variants

DECK_KINDS = {"main", "familiar", "legend", "starter"}


def test_every_modifier_with_a_zone_has_its_setters_of_that_zones_kind():
    assert STATIC_ZONES.keys() == STATIC_SETTERS.keys()
    for having, zone in STATIC_ZONES.values():
        kinds = {CARDS[cid]["kind"] for cid in having}
        assert zone is None or (zone == "dwts" and kinds == {"dwt"}) or (zone == "ongoing" and kinds <= DECK_KINDS)


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_controlled_cards_are_in_the_zone_of_their_kind_and_static_agrees_with_statics(version, seats):
    engine = registry.get("annihilageddon", version)
    states = []
    for game in range(3):
        states += playout(engine, seats, f"an-static-zones:{version}:{seats}:{game}", bound=1500, prefix=True)[0]
    met = 0
    for st in states:
        for seat, p in enumerate(st["players"]):
            assert all(CARDS[cid]["kind"] in DECK_KINDS for cid in p["ongoing"])
            assert all(CARDS[cid]["kind"] == "dwt" for cid in p["dwts"])
            met += len(p["ongoing"]) + len(p["dwts"])
            # turn.end_turn's test of the end-of-turn texts (their one zone) against controls_any.
            assert turn._END_IN_ONGOING
            ends = not turn._END_HAVING.isdisjoint(p["ongoing"])
            assert ends == controls_any(st, seat, turn._END_HAVING)
            whole = statics(st, seat)
            for key in STATICS:
                assert static(st, seat, key, 0) == whole.get(key, 0)
    assert met > 100  # Ongoing cards and tokens were met


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_wand_hit_asks_static_only_when_a_setter_is_in_its_zone_or_a_grant_in_temp(version):
    """interp.WAND_SETTERS and WAND_ZONE (a Wand hit's test in _resolution and
    fast.plain_hit_taken): where the test says no, static answers the default, at states of
    random playouts with every card that has a text of its own controlled by each seat, and with
    a wand_extra grant given."""
    assert WAND_ZONE == "dwts"
    engine = registry.get("annihilageddon", version)
    seats = 3
    states, _ = playout(engine, seats, f"an-wand-zone:{version}", bound=600, prefix=True)
    skipped = asked = 0
    for st in states[::15]:
        variants = list(_variants(st, seats))
        variants.append({**st, "temp": {**st["temp"], "1": {"wand_extra": 2}}})
        for v in variants:
            for seat in range(seats):
                if v["temp"] or not WAND_SETTERS.isdisjoint(v["players"][seat][WAND_ZONE]):
                    asked += static(v, seat, "wand_extra", 0) != 0
                else:
                    skipped += 1
                    assert static(v, seat, "wand_extra", 0) == 0
    assert skipped > 100 and asked > 10
