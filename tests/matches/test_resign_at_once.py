"""A resignation sent at the same moment as another write on the match (PostgreSQL, real threads):
a move, a claim on time, the other seat's resignation. Every write holds the match's row lock and
checks the head it was based on, so exactly one is written, the other is a 409 that writes nothing,
and the match's stream verifies."""

from __future__ import annotations

import uuid

import pytest

from matches import services
from matches.models import Event, Match
from matches.verification import match_verify

from . import test_time_controls
from .helpers import at_once, fresh, post_action

pytestmark = pytest.mark.django_db(transaction=True)

clock = test_time_controls.clock


def answered(response) -> tuple[int, str | None]:
    return response.status_code, response.json().get("code")


def resign(client, match, head):
    body = {"expected_seq": head, "event_id": str(uuid.uuid4())}
    return answered(client.post(f"/api/matches/{match.id}/resign/", body, format="json"))


def ends(match) -> list[str]:
    return list(
        Event.objects.filter(stream_id=match.stream_id, type__in=["match.resigned", "match.timeout", "action"])
        .order_by("seq")
        .values_list("type", flat=True)
    )


def one_written_one_refused(answers):
    assert sorted(answers, key=lambda a: a[0]) == [(201, None), (409, "stale_seq")], answers


def test_a_resignation_and_a_move_sent_at_once_write_one(client_for, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = fresh(
        services.match_create(
            game="dueling-wizards", seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)], created_by=alice
        )
    )
    head, card = match.state_seq, match.state["hands"][1][0]
    answers = at_once(
        2,
        lambda i: (
            resign(client_for(alice), match, head)
            if i == 0
            else answered(post_action(client_for(bob), match, 1, {"type": "defend", "card": card}, expected_seq=head))
        ),
    )
    one_written_one_refused(answers)
    m = fresh(match)
    if answers[0][0] == 201:
        assert ends(m)[-1] == "match.resigned" and m.status == Match.Status.FINISHED and m.result["resigned"] == 0
        assert match_verify(match_id=m.pk).verified
    else:
        assert "match.resigned" not in ends(m) and m.status == Match.Status.LIVE and m.state_seq == head + 1


def test_a_resignation_and_a_claim_on_time_sent_at_once_end_the_match_once(client_for, make_user, clock):
    alice, bob = make_user("alice"), make_user("bob")
    match = fresh(
        services.match_create(
            game="dueling-wizards",
            seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)],
            created_by=alice,
            time_control=test_time_controls.FISCHER_60,
        )
    )
    clock.advance(61)  # bob, to defend first, has let his minute run out
    head = match.state_seq

    def send(i):
        if i == 0:
            return resign(client_for(bob), match, head)
        body = {"expected_seq": head, "event_id": str(uuid.uuid4())}
        return answered(client_for(alice).post(f"/api/matches/{match.id}/timeout/", body, format="json"))

    answers = at_once(2, send)
    one_written_one_refused(answers)
    m = fresh(match)
    assert m.status == Match.Status.FINISHED and m.result["winners"] == [0]
    assert [t for t in ends(m) if t != "action"] in (["match.resigned"], ["match.timeout"])
    assert Event.objects.filter(stream_id=m.stream_id, type="match.finished").count() == 1
    assert match_verify(match_id=m.pk).verified


def test_both_seats_resigning_at_once_end_the_match_once_and_the_later_is_refused(client_for, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = fresh(
        services.match_create(
            game="dueling-wizards", seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)], created_by=alice
        )
    )
    head, users = match.state_seq, [alice, bob]
    answers = at_once(2, lambda i: resign(client_for(users[i]), match, head))
    one_written_one_refused(answers)
    m = fresh(match)
    won = next(i for i, a in enumerate(answers) if a[0] == 201)
    assert m.result["resigned"] == won and ends(m).count("match.resigned") == 1
    assert Event.objects.filter(stream_id=m.stream_id, type="match.finished").count() == 1
    # The loser's retry at the new head is told the match is over.
    assert resign(client_for(users[1 - won]), m, m.state_seq) == (409, "match_finished")
    assert match_verify(match_id=m.pk).verified
