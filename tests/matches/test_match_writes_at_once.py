"""Moves, retries and claims on one match sent at the same moment (PostgreSQL, real threads).

Every write on a match holds the match's row lock and checks the head it was based on, so of
commands sent together at one head exactly one is written; a retry of that one gets the stored
event back, and the same event_id with another move is refused, whichever arrives first.
"""

from __future__ import annotations

import uuid

import pytest

from matches import services
from matches.models import Event, Match

from . import test_time_controls
from .helpers import at_once, fresh, post_action

pytestmark = pytest.mark.django_db(transaction=True)

clock = test_time_controls.clock  # the platform's now, moved on by hand (every thread sees it)


def duel(alice, bob, **kwargs) -> Match:
    return services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)],
        created_by=alice,
        **kwargs,
    )


def answered(response) -> tuple[int, str | None]:
    return response.status_code, response.json().get("code")


def actions_of(match) -> int:
    return Event.objects.filter(stream_id=match.stream_id, type="action").count()


def test_six_different_moves_sent_at_once_at_one_head_write_one(client_for, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = fresh(duel(alice, bob))
    head, hand = match.state_seq, match.state["hands"][1]

    def move(i):
        card = hand[i % len(hand)]
        return answered(post_action(client_for(bob), match, 1, {"type": "defend", "card": card}, expected_seq=head))

    answers = at_once(6, move)
    assert sorted(answers) == [(201, None)] + [(409, "stale_seq")] * 5, answers
    assert actions_of(match) == 1


def test_one_event_id_sent_at_once_with_two_moves_is_written_once_and_the_other_move_refused(client_for, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = fresh(duel(alice, bob))
    head, hand = match.state_seq, match.state["hands"][1]
    event_id = uuid.uuid4()

    def move(i):
        action = {"type": "defend", "card": hand[i % 2]}
        return i % 2, answered(post_action(client_for(bob), match, 1, action, expected_seq=head, event_id=event_id))

    answers = at_once(6, move)
    stored = Event.objects.get(event_id=event_id)
    written = hand.index(stored.data["action"]["card"])
    for card, answer in answers:
        if card == written:
            assert answer in ((201, None), (200, None)), answers
        else:
            assert answer == (409, "event_id_reused"), answers
    assert [answer for _, answer in answers].count((201, None)) == 1
    assert actions_of(match) == 1


def test_claims_sent_at_once_by_both_players_end_the_match_once(client_for, make_user, clock):
    alice, bob = make_user("alice"), make_user("bob")
    match = fresh(duel(alice, bob, time_control=test_time_controls.FISCHER_60))
    clock.advance(61)  # bob, to defend first, has let his minute run out
    users = [alice, bob]

    def claim(i):
        body = {"expected_seq": match.state_seq, "event_id": str(uuid.uuid4())}
        return answered(client_for(users[i % 2]).post(f"/api/matches/{match.id}/timeout/", body, format="json"))

    answers = at_once(6, claim)
    assert sorted(answers) == [(201, None)] + [(409, "stale_seq")] * 5, answers
    assert Event.objects.filter(stream_id=match.stream_id, type="match.timeout").count() == 1
    assert fresh(match).result["timed_out"] == 1
