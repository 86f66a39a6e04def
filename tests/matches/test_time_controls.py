"""Every match ends: clocks, a loss on time, and the verifier checking it (issue 20, item 1).

The clock is moved by hand (eventstore.stream_now, the database's clock, is what records every
event's time; django.utils.timezone.now what the clocks are shown at), so these tests take no real
time and a busy machine cannot make them flaky.
"""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from audit.chain import event_hash, payload_of
from audit.clocks import Clocks, micros
from audit.matchverify import verify_match_stream
from matches import eventstore, services
from matches.models import Event, Match

from .helpers import event_count, fresh, post_action

pytestmark = pytest.mark.django_db

FISCHER_60 = {"kind": "fischer", "base": 60, "increment": 0}


@pytest.fixture
def clock(monkeypatch):
    """The platform's now, moved on by tests: ``clock.advance(seconds)``."""

    class Clock:
        now = timezone.now().replace(microsecond=0)

        def advance(self, seconds: float):
            self.now += dt.timedelta(seconds=seconds)

    moving = Clock()
    monkeypatch.setattr(timezone, "now", lambda: moving.now)
    # The database's clock, which stamps events and decides claims (eventstore.stream_now), with it.
    monkeypatch.setattr(eventstore, "stream_now", lambda stream: moving.now)
    monkeypatch.setattr(eventstore, "database_now", lambda using=None: moving.now)
    return moving


def timed_duel(*users, control=FISCHER_60, **kwargs):
    return services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=u) for u in users],
        created_by=users[0],
        time_control=control,
        **kwargs,
    )


def claim(client, match):
    return client.post(
        f"/api/matches/{match.id}/timeout/",
        {"expected_seq": fresh(match).state_seq, "event_id": str(uuid.uuid4())},
        format="json",
    )


def test_a_player_who_stops_moving_loses_on_time(alice, bob, client_for, clock):
    match = timed_duel(alice, bob)
    summary = client_for(bob).get(f"/api/matches/{match.id}/").json()
    assert summary["clocks"]["running"] == [1] and summary["clocks"]["left"] == [60, 60]

    clock.advance(59)
    early = claim(client_for(alice), match)
    assert early.status_code == 409 and early.json()["code"] == "time_not_up"
    assert event_count(match) == 3

    clock.advance(2)  # bob, the first defender, has let his minute run out
    late = post_action(client_for(bob), match, 1, {"type": "defend", "card": fresh(match).state["hands"][1][0]})
    assert late.status_code == 409 and late.json()["code"] == "time_up"
    won = claim(client_for(alice), match)
    assert won.status_code == 201, won.json()
    body = won.json()
    assert body["status"] == "finished" and body["result"]["reason"] == "timeout"
    assert body["result"]["winners"] == [0] and body["result"]["placements"] == [1, 2]
    assert match_verdict(match) == Match.Verdict.VERIFIED


def test_only_the_seats_to_move_spend_time_and_the_increment_is_added_after_a_move(alice, bob, client_for, clock):
    match = timed_duel(alice, bob, control={"kind": "fischer", "base": 60, "increment": 5})
    clock.advance(20)
    card = fresh(match).state["hands"][1][0]
    assert post_action(client_for(bob), match, 1, {"type": "defend", "card": card}).status_code == 201
    left = client_for(alice).get(f"/api/matches/{match.id}/").json()["clocks"]
    # Bob spent 20 s and gained 5; alice's clock starts now that she must attack.
    assert left["left"] == [60, 45] and left["running"] == [0]


def test_correspondence_gives_a_fresh_allowance_for_every_move(alice, bob, client_for, clock):
    match = timed_duel(alice, bob, control={"kind": "correspondence", "days_per_move": 2})
    clock.advance(86_400 * 1.5)
    card = fresh(match).state["hands"][1][0]
    assert post_action(client_for(bob), match, 1, {"type": "defend", "card": card}).status_code == 201
    clock.advance(86_400 * 1.9)
    assert claim(client_for(bob), match).json()["code"] == "time_not_up"
    clock.advance(86_400 * 0.2)  # alice has let two days pass on one move: an abandoned match ends
    assert services.matches_claim_timeouts() == 1
    assert fresh(match).result["reason"] == "timeout" and fresh(match).result["winners"] == [1]


def test_a_bad_time_control_is_refused_and_creates_nothing(alice, bob, client_for):
    for control in (
        {"kind": "blitz"},
        {"kind": "fischer", "base": 1},
        {"kind": "fischer", "base": 60, "extra": 1},
        "60+0",
        # A kind that cannot be looked up (a list, an object) was a 500.
        {"kind": [], "base": 60},
        {"kind": {"fischer": 1}},
    ):
        response = client_for(alice).post(
            "/api/matches/",
            {
                "game": "dueling-wizards",
                "seats": [{"username": "alice"}, {"username": "bob"}],
                "time_control": control,
            },
            format="json",
        )
        assert response.status_code == 400 and response.json()["code"] == "bad_time_control", control
    assert Match.objects.count() == 0


def test_a_wizard_dodgeball_side_that_never_lets_go_of_the_ball_ends_on_time(alice, bob, client_for, clock):
    """Passing forever kept a game alive under the old stalling rule; a clock without increment ends it."""
    match = services.match_create(
        game="wizard-dodgeball",
        seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)],
        created_by=alice,
        time_control=FISCHER_60,
    )
    clients = {0: client_for(alice), 1: client_for(bob)}
    for _ in range(500):
        m = fresh(match)
        if m.status == Match.Status.FINISHED:
            break
        to_move = client_for(alice).get(f"/api/matches/{m.id}/").json()["to_move"]
        if to_move == ["chance"]:
            break
        seat = to_move[0]
        clock.advance(7)
        legal = clients[seat].get(f"/api/matches/{m.id}/legal/").json()["actions"]
        moves = [a for a in legal if a.get("type") != "end_turn"] or legal
        response = post_action(clients[seat], m, seat, moves[0])
        if response.status_code == 409 and response.json()["code"] == "time_up":
            assert claim(clients[1 - seat], m).status_code == 201
            break
        assert response.status_code == 201, response.json()
    m = fresh(match)
    assert m.status == Match.Status.FINISHED and m.result["reason"] == "timeout"
    assert match_verdict(m) == Match.Verdict.VERIFIED


def test_the_verifier_disputes_a_timeout_recorded_before_the_time_was_up(alice, bob, client_for, clock):
    match = timed_duel(alice, bob)
    clock.advance(61)
    assert claim(client_for(alice), match).status_code == 201
    records = [eventstore.event_record(e) for e in Event.objects.filter(stream_id=match.stream_id).order_by("seq")]
    assert verify_match_stream(records).verified
    # A forger moves the timeout (and everything after it) back by two seconds and re-chains it.
    timeout = next(i for i, r in enumerate(records) if r["type"] == "match.timeout")
    for record in records[timeout:]:
        record["recorded_at"] = (dt.datetime.fromisoformat(record["recorded_at"]) - dt.timedelta(seconds=2)).isoformat()
    prev = records[timeout - 1]["hash"]
    for record in records[timeout:]:
        record["prev_hash"] = prev
        record["hash"] = prev = event_hash(prev, payload_of(record))
    verdict = verify_match_stream(records)
    assert not verdict.verified and verdict.seq == records[timeout]["seq"]
    assert "before the seat's time was up" in verdict.reason


def test_the_clocks_are_a_projection_the_events_rebuild(alice, bob, client_for, clock):
    match = timed_duel(alice, bob, control={"kind": "fischer", "base": 90, "increment": 3})
    for step in (5, 9, 13):
        clock.advance(step)
        m = fresh(match)
        seat = m.state and client_for(alice).get(f"/api/matches/{m.id}/").json()["to_move"][0]
        player = alice if seat == 0 else bob
        card = m.state["hands"][seat][0]
        kind = "defend" if m.state["phase"] == "defend" else "attack"
        assert post_action(client_for(player), m, seat, {"type": kind, "card": card}).status_code == 201
    m = fresh(match)
    from engines import registry

    engine = registry.get(m.game, m.engine_version)
    events = Event.objects.filter(stream_id=m.stream_id).order_by("seq")
    rebuilt, state = None, engine.setup(m.config, 2)
    for e in events:
        at = micros(e.recorded_at)
        if e.seq == 1:
            rebuilt = Clocks.start(m.time_control, 2, at)
        else:
            state = engine.apply(
                state,
                {
                    "kind": e.type,
                    **(
                        {"outcome": e.data["outcome"]}
                        if e.type == "chance"
                        else {"seat": e.data["seat"], "action": e.data["action"]}
                    ),
                },
            )
        rebuilt.step(
            at, e.data.get("seat") if e.type == "action" else None, [s for s in engine.to_move(state) if s >= 0]
        )
    assert rebuilt.as_dict() == m.clocks


def match_verdict(match) -> str:
    from matches.verification import match_verify

    return match_verify(match_id=match.id).label


def test_a_claim_on_an_untimed_match_is_refused_and_a_retried_claim_is_recorded_once(alice, bob, client_for, clock):
    untimed = timed_duel(alice, bob, control={})
    refused = claim(client_for(alice), untimed)
    assert refused.status_code == 409 and refused.json()["code"] == "untimed"
    assert event_count(untimed) == 3

    match = timed_duel(alice, bob)
    clock.advance(61)
    body = {"expected_seq": fresh(match).state_seq, "event_id": str(uuid.uuid4())}
    first = client_for(alice).post(f"/api/matches/{match.id}/timeout/", body, format="json")
    again = client_for(alice).post(f"/api/matches/{match.id}/timeout/", body, format="json")  # reply lost
    assert first.status_code == 201 and again.status_code == 200
    assert Event.objects.filter(stream_id=match.stream_id, type="match.timeout").count() == 1
