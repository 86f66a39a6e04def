"""Leaving a game the others play on (the ruling "Leaving") at the same moment as another write on
the match (PostgreSQL, real threads): two seats of a duel of three resigning at once, a resignation
and a claim on time against another seat, a resignation and a move. Each holds the match's row lock
and checks the head it was based on: exactly one is written, the other is a 409 that writes nothing,
and a later retry at the new head is judged by the rules as they then stand."""

from __future__ import annotations

import uuid

import pytest

from engines import registry
from matches import services
from matches.models import Event, Match

from . import test_time_controls
from .helpers import at_once, fresh, post_action
from .test_resign_at_once import answered, one_written_one_refused, resign

pytestmark = pytest.mark.django_db(transaction=True)

clock = test_time_controls.clock


def three_wizards(users, **kwargs) -> Match:
    return fresh(
        services.match_create(
            game="dueling-wizards", seats=[services.SeatSpec(user=u) for u in users], created_by=users[0], **kwargs
        )
    )


def off_board(match) -> list[tuple[str, dict]]:
    rows = Event.objects.filter(stream_id=match.stream_id, type__in=["match.resigned", "match.timeout"])
    return list(rows.order_by("seq").values_list("type", "data"))


def test_two_seats_of_a_duel_of_three_resigning_at_once_leave_one_at_a_time(client_for, make_user):
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    match = three_wizards(users)
    head = match.state_seq
    answers = at_once(2, lambda i: resign(client_for(users[1 + i]), match, head))
    one_written_one_refused(answers)
    m = fresh(match)
    first = 1 + next(i for i, a in enumerate(answers) if a[0] == 201)
    assert off_board(m) == [("match.resigned", {"seat": first, "plays_on": True})]
    assert m.status == Match.Status.LIVE and m.left[first] == "resigned"
    # The other's retry comes with one other seat in the game: it ends the match, below alice.
    other = 3 - first
    assert resign(client_for(users[other]), m, m.state_seq) == (201, None)
    m = fresh(m)
    assert m.status == Match.Status.FINISHED and m.result["placements"][0] == 1
    assert m.result["placements"][other] == 2 and m.result["placements"][first] == 3


def test_a_resignation_and_a_claim_on_time_against_another_seat_sent_at_once_write_one(client_for, make_user, clock):
    alice, bob, carol = (make_user(n) for n in ("alice", "bob", "carol"))
    match = three_wizards([alice, bob, carol], time_control=test_time_controls.FISCHER_60)
    clock.advance(61)  # bob and carol, both to defend, have let their minutes run out
    head = match.state_seq

    def send(i):
        if i == 0:
            return resign(client_for(carol), match, head)
        body = {"expected_seq": head, "event_id": str(uuid.uuid4())}
        return answered(client_for(alice).post(f"/api/matches/{match.id}/timeout/", body, format="json"))

    answers = at_once(2, send)
    one_written_one_refused(answers)
    m = fresh(match)
    assert len(off_board(m)) == 1 and off_board(m)[0][1]["plays_on"] is True
    assert m.status == Match.Status.LIVE and m.left.count(None) == 2


def test_a_resignation_and_the_move_it_would_void_sent_at_once_write_one(client_for, make_user):
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    match = three_wizards(users)
    head, card = match.state_seq, match.state["hands"][1][0]
    engine = registry.get("dueling-wizards")
    answers = at_once(
        2,
        lambda i: (
            resign(client_for(users[0]), match, head)
            if i == 0
            else answered(
                post_action(client_for(users[1]), match, 1, {"type": "defend", "card": card}, expected_seq=head)
            )
        ),
    )
    one_written_one_refused(answers)
    m = fresh(match)
    if answers[0][0] == 201:
        # The attacker left: the round begins again, bob's defence never laid.
        assert off_board(m) == [("match.resigned", {"seat": 0, "plays_on": True})]
        assert card in m.state["hands"][1] and not engine.in_game(m.state, 0)
    else:
        assert off_board(m) == [] and m.state["defences"][1] == card
