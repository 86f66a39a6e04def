"""A seat already out of the game (a Dueling Wizards wizard knocked out, a SpellCaster caster
retired) cannot resign: the game goes on without it, its place is the one it fell to, and a
resignation would have ended the match for the seats still playing, placing the fallen seat second
and sharing first among them. Its clock never runs (it is never to move), so it never loses on time
either; the verifier holds a recorded resignation to a seat still in the game."""

from __future__ import annotations

import random

import pytest

from audit.matchverify import verify_match_stream
from engines import registry
from matches import services
from matches.models import Match

from .helpers import event_count, fresh
from .test_resign import rechained, records_of

pytestmark = pytest.mark.django_db


def three_wizards_one_knocked_out(users) -> Match:
    """A three-seat Dueling Wizards match played (random legal moves, a fixed seed) until one wizard
    is knocked out and two play on."""
    engine = registry.get("dueling-wizards")
    for attempt in range(20):
        rng = random.Random(attempt)
        match = services.match_create(
            game="dueling-wizards", seats=[services.SeatSpec(user=u) for u in users], created_by=users[0]
        )
        for _ in range(500):
            m = fresh(match)
            if m.status == Match.Status.FINISHED:
                break
            alive = m.state["alive"]
            if alive.count(False) == 1:
                return m
            seat = engine.to_move(m.state)[0]
            action = rng.choice(engine.legal_actions(m.state, seat))
            services.match_act(match_id=m.id, user=users[seat], seat=seat, action=action, expected_seq=m.state_seq)
    raise AssertionError("no game left a wizard knocked out with two playing on")


def test_a_knocked_out_wizard_cannot_resign_and_the_match_plays_on(alice, bob, carol):
    users = [alice, bob, carol]
    match = three_wizards_one_knocked_out(users)
    out = match.state["alive"].index(False)
    before = event_count(match)
    with pytest.raises(services.MatchError) as refused:
        services.match_resign(match_id=match.id, user=users[out], expected_seq=match.state_seq)
    assert refused.value.code == "seat_out_of_game" and refused.value.status == 409
    m = fresh(match)
    assert event_count(m) == before and m.status == Match.Status.LIVE and m.result is None
    # A wizard still standing may resign: the fallen one keeps the place it fell to.
    standing = next(s for s in range(3) if m.state["alive"][s])
    done = services.match_resign(match_id=m.id, user=users[standing], expected_seq=m.state_seq)
    assert fresh(done.match).result["resigned"] == standing


def test_the_verifier_disputes_a_resignation_by_a_seat_already_out(alice, bob, carol):
    users = [alice, bob, carol]
    match = three_wizards_one_knocked_out(users)
    out = match.state["alive"].index(False)
    standing = next(s for s in range(3) if match.state["alive"][s])
    services.match_resign(match_id=match.id, user=users[standing], expected_seq=match.state_seq)
    records = records_of(match)
    assert verify_match_stream(records).verified
    # The resignation forged as the fallen seat's, with the result the engine gives it.
    at = next(i for i, r in enumerate(records) if r["type"] == "match.resigned")
    forged = [dict(r) for r in records]
    forged[at] = {**forged[at], "data": {"seat": out}, "actor": f"user:{users[out].pk}"}
    engine = registry.get("dueling-wizards")
    result = engine.result_on_resign(match.state, out, 3)
    forged[-1] = {**forged[-1], "data": {**forged[-1]["data"], "result": result}}
    verdict = verify_match_stream(rechained(forged, at))
    assert not verdict.verified and verdict.seq == records[at]["seq"]
    assert "already out of the game" in verdict.reason


def test_the_match_says_which_seats_are_still_in_the_game(alice, bob, carol, client):
    users = [alice, bob, carol]
    match = three_wizards_one_knocked_out(users)
    out = match.state["alive"].index(False)
    client.force_login(users[out])
    seats = client.get(f"/api/matches/{match.id}/").json()["seats"]
    assert [s["in_game"] for s in seats] == [s != out for s in range(3)]
    standing = next(s for s in range(3) if match.state["alive"][s])
    services.match_resign(match_id=match.id, user=users[standing], expected_seq=match.state_seq)
    seats = client.get(f"/api/matches/{match.id}/").json()["seats"]
    assert [s["in_game"] for s in seats] == [False, False, False]  # over: nobody plays on
