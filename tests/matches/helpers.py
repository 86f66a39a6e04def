"""Shared moves for match tests: create a Dueling Wizards match and play through the API."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

from django.db import connection
from django.utils import timezone

from matches.models import Event, Match, Seat, Stream
from matches.services import SeatSpec, match_create


def new_duel(*users, mode=Match.Mode.SERVER, config=None, bots=()) -> Match:
    seats = [SeatSpec(user=u) for u in users] + [SeatSpec(bot=b) for b in bots]
    return match_create(
        game="dueling-wizards", seats=seats, created_by=users[0] if users else None, mode=mode, config=config
    )


def stored_finished_match(
    game: str, *, result: dict, users=(), verdict=Match.Verdict.PENDING, at=None, **fields
) -> Match:
    """A finished match stored directly (how it was played is the engines' business), with its
    seats and its closing event recorded ``at`` (now by default: ratings take results in the order
    of their closing events, so later calls come later)."""
    at = at or timezone.now()
    stream = Stream.objects.create(id=f"match:{uuid.uuid4()}", kind="match", head_seq=1)
    Event.objects.create(
        stream=stream,
        seq=1,
        type="match.finished",
        data={},
        actor="server",
        recorded_at=at,
        prev_hash="0" * 64,
        hash="1" * 64,
    )
    match = Match.objects.create(
        stream=stream,
        game=game,
        engine_version="1",
        status=Match.Status.FINISHED,
        verdict=verdict,
        result=result,
        finished_at=at,
        **fields,
    )
    for index, user in enumerate(users):
        Seat.objects.create(match=match, index=index, user=user)
    return match


def event_count(match: Match) -> int:
    return Event.objects.filter(stream_id=match.stream_id).count()


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def post_action(client, match, seat, action, *, expected_seq=None, event_id=None):
    # Given an ``expected_seq``, the match is not read again (a test counting the POST's queries).
    if expected_seq is None:
        expected_seq = fresh(match).state_seq
    body = {"seat": seat, "action": action, "expected_seq": expected_seq}
    body["event_id"] = str(event_id or uuid.uuid4())
    return client.post(f"/api/matches/{match.id}/actions/", body, format="json")


def first_legal(client, match, seat):
    response = client.get(f"/api/matches/{match.id}/legal/", {"seat": seat})
    assert response.status_code == 200, response.json()
    return response.json()["actions"]


def play_out(clients_by_seat: dict, match: Match, limit: int = 2000) -> Match:
    """Everyone plays their first legal action until the match ends."""
    for _ in range(limit):
        m = fresh(match)
        if m.status == Match.Status.FINISHED:
            return m
        summary = clients_by_seat[0].get(f"/api/matches/{m.id}/").json()
        for seat in summary["to_move"]:
            actions = first_legal(clients_by_seat[seat], m, seat)
            r = post_action(clients_by_seat[seat], m, seat, actions[0])
            assert r.status_code == 201, r.json()
            break
    raise AssertionError("match did not end")


def accept_invitation(client_for, response, *invitees) -> str:
    """A create that seats other people answers 202 with an invitation (issue 15): each of
    ``invitees`` accepts it, the last acceptance starts the match (or draft). Returns its id."""
    assert response.status_code == 202, response.json()
    invitation = response.json()
    for user in invitees:
        answered = client_for(user).post(f"/api/invitations/{invitation['id']}/accept/", format="json")
        assert answered.status_code == 200, answered.json()
    assert answered.json()["status"] == "accepted", answered.json()
    return answered.json()["match"]


def at_once(n: int, send) -> list:
    """``send(i)`` for i in 0..n-1, each in its own thread with its own database connection, all
    released together by a barrier (a double click, a form sent from two tabs): what each returned,
    or the name of what it raised."""
    start = threading.Barrier(n)

    def run(i):
        try:
            start.wait(timeout=60)
            return send(i)
        except Exception as exc:  # reported, so the test names it instead of a thread dying quietly
            return f"raised {type(exc).__name__}: {exc}"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(run, range(n)))
