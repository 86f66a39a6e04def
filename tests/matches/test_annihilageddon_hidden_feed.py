"""What a live Annihilageddon match serves through the API hides what the rules hide (engines/
annihilageddon/RULES.md): a kept Ability tile in the events feed until the match is over (AN-R19),
and the cards of a deck being drawn in a past state's view (``?at=``), where only the drawer sees
them. Both through a real, server-dealt match of the version new matches play."""

from __future__ import annotations

import copy
import random

import pytest

from engines import registry
from engines.base import CHANCE
from matches import eventstore
from matches.models import Match
from matches.services import SeatSpec, match_act, match_create

from .helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def _feed(client, match) -> list[dict]:
    response = client.get(f"/api/matches/{match.id}/events/")
    assert response.status_code == 200, response.json()
    return [e for e in response.json()["events"] if e["type"] == "action"]


def test_a_kept_tile_reaches_the_other_seat_and_spectators_as_keep_without_its_salt(alice, bob, carol, client_for):
    match = match_create(game="annihilageddon", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    engine = registry.get("annihilageddon", fresh(match).engine_version)
    assert engine.version == registry.get("annihilageddon").version
    match = fresh(match)
    assert match.state["prompt"]["kind"] == "setup" and match.state["prompt"]["seat"] == 0
    kept = engine.legal_actions(match.state, 0)[-1]
    match_act(match_id=match.id, user=alice, seat=0, action=kept, expected_seq=match.state_seq)
    match = fresh(match)
    assert engine.view(match.state, 1)["players"][0]["tile"] is None  # bob has not chosen yet
    mine = _feed(client_for(alice), match)[-1]
    assert mine["data"]["action"] == kept and mine["salt"]
    for who in (bob, carol):
        shown = _feed(client_for(who), match)[-1]
        assert shown["data"] == {"seat": 0, "action": {"type": "keep"}}
        assert shown["salt"] is None  # with the salt and the hash, the two tiles could be tried
    # Bob's own keep is whole for bob; once both have kept, the view shows the tiles.
    bobs = engine.legal_actions(match.state, 1)[0]
    match_act(match_id=match.id, user=bob, seat=1, action=bobs, expected_seq=match.state_seq)
    match = fresh(match)
    assert _feed(client_for(bob), match)[-1]["data"]["action"] == bobs
    assert _feed(client_for(alice), match)[-1]["data"]["action"] == {"type": "keep"}
    assert engine.view(match.state, 1)["players"][0]["tile"] == kept["value"]


def _short_draw_at(engine, match, state, after):
    """Fold the stream's events past ``after`` into ``state``: (seq, state) at the first pending
    private draw whose seat's deck top holds the old deck on its way to the hand, else the state
    folded and the last seq."""
    seq = after
    for e in eventstore.stream_events(stream_id=match.stream_id, after=after):
        seq = e.seq
        if e.type == "action":
            state = engine.apply(state, {"kind": "action", "seat": e.data["seat"], "action": e.data["action"]})
        elif e.type == "chance":
            state = engine.apply(state, {"kind": "chance", "outcome": e.data["outcome"]})
        else:
            continue
        s = engine.drawing_privately(state)
        p = state["players"][s] if s is not None else None
        if p and p["top"] and any(c != p["top"][0] for c in p["hand"] + p["pool"]):
            return seq, state, True
    return seq, state, False


def test_a_spectator_stepping_back_sees_how_many_cards_a_short_deck_holds_not_which(alice, bob, carol, client_for):
    users = [alice, bob]
    match = match_create(game="annihilageddon", seats=[SeatSpec(user=u) for u in users], created_by=alice)
    match = fresh(match)
    engine = registry.get("annihilageddon", match.engine_version)
    rng = random.Random(7)
    state, seq, found = engine.setup(match.config, 2), 0, False
    for _ in range(600):  # random play meets a deck that runs short within a few turns
        seat = [s for s in engine.to_move(match.state) if s != CHANCE][0]
        action = engine.random_action(match.state, seat, rng)
        match_act(match_id=match.id, user=users[seat], seat=seat, action=action, expected_seq=match.state_seq)
        match = fresh(match)
        seq, state, found = _short_draw_at(engine, match, state, seq)
        if found or match.status == Match.Status.FINISHED:
            break
    assert found, "no private draw from a deck that ran short came up"
    assert match.status != Match.Status.FINISHED
    s = engine.drawing_privately(state)
    top = state["players"][s]["top"]
    for who, seat in ((carol, None), (users[1 - s], 1 - s), (users[s], s)):
        got = client_for(who).get(f"/api/matches/{match.id}/state/", {"at": seq})
        assert got.status_code == 200, got.json()
        shown = got.json()["view"]["players"][s]
        if seat == s:
            assert shown["deck_top"] == top
        else:
            assert shown["deck_top"] == [] and shown["deck_top_hidden"] == len(top)
    # Had another card of the seat's hand or new deck been on its way instead, nobody else could tell.
    other = copy.deepcopy(state)
    q = other["players"][s]
    zone = "hand" if any(c != q["top"][0] for c in q["hand"]) else "pool"
    j = next(i for i, c in enumerate(q[zone]) if c != q["top"][0])
    q["top"][0], q[zone][j] = q[zone][j], q["top"][0]
    q[zone].sort()
    seen = client_for(carol).get(f"/api/matches/{match.id}/state/", {"at": seq}).json()["view"]
    assert seen == engine.view(other, None)
