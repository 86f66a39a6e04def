"""A command's broadcast built from what the command holds (issue 17, P5): its frames are byte for
byte the ones read back from the database after the commit, for the spectators and for each seat
(so no seat's secret reaches another), move after move to the end of the match."""

from __future__ import annotations

import copy

import pytest
from django.db import connection

from config.rows import copied
from matches import live, tasks
from matches.models import Event, Match, OutboxMessage

from .helpers import first_legal, fresh, new_duel, post_action

pytestmark = pytest.mark.django_db(transaction=True)


def held_frames(monkeypatch) -> list[tuple[str, list[tuple[str, str]]]]:
    """Records what each broadcast sends ((group, text) in order), and fails a broadcast that
    falls back to reading the match (then it would compare the database path with itself)."""
    sent = []

    def record(layer, match_id, frames):
        sent.append(
            (str(match_id), [(live.viewer_group(match_id, s), live.frame_message(f)["text"]) for s, f in frames])
        )

    def read_back(**kwargs):
        raise AssertionError(f"the broadcast read the match back: {kwargs}")

    monkeypatch.setattr(live, "send_frames", record)
    monkeypatch.setattr(live, "broadcast_match", read_back)
    return sent


def read_frames(match: Match, after: int) -> list[tuple[str, str]]:
    return [
        (live.viewer_group(match.pk, seat), live.frame_message(frame)["text"])
        for seat, frame in live._frames_read(fresh(match), after)
    ]


@pytest.mark.parametrize("bots", [(), ("random",)])
def test_a_commands_frames_from_memory_are_the_frames_read_back_byte_for_byte(bots, make_user, client_for, monkeypatch):
    people = [make_user("alice"), make_user("bob")][: 2 - len(bots)]
    match = new_duel(*people, bots=bots)
    clients = {i: client_for(user) for i, user in enumerate(people)}
    sent = held_frames(monkeypatch)
    # The verdict, reached after the broadcast (eager Celery), would be in the frames read back
    # later; it has its own frame (live.broadcast_matches).
    monkeypatch.setattr(tasks.verify_match, "delay", lambda match_id: None)
    moves = 0
    while fresh(match).status != Match.Status.FINISHED:
        before = fresh(match).state_seq
        seat = next(s for s in clients[0].get(f"/api/matches/{match.id}/").json()["to_move"] if s in clients)
        assert post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0]).status_code == 201
        moves += 1
        match_id, frames = sent.pop()
        assert match_id == str(match.pk) and not sent
        assert frames == read_frames(match, before), f"move {moves}"
        # The spectators' first; a seat's frame goes to that seat's group alone.
        assert [group for group, _ in frames] == [live.group_name(match.pk)] + [
            live.seat_group(match.pk, s) for s in range(2)
        ]
    assert moves > 5 and '"hidden": true' not in frames[0][1]  # the reveal reached the spectators
    assert not OutboxMessage.objects.filter(topic="match.broadcast", delivered_at__isnull=True).exists()


def test_a_hidden_card_in_a_frame_from_memory_reaches_its_seat_alone(make_user, client_for, monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    clients = {0: client_for(alice), 1: client_for(bob)}
    sent = held_frames(monkeypatch)
    seat = clients[0].get(f"/api/matches/{match.id}/").json()["to_move"][0]
    action = first_legal(clients[seat], match, seat)[0]
    assert action.get("card") is not None  # a face-down defence
    assert post_action(clients[seat], match, seat, action).status_code == 201
    (_, frames) = sent.pop()
    card = f'"card": "{action["card"]}"'
    mine = live.seat_group(match.pk, seat)
    assert [group for group, text in frames if card in text.split('"view"')[0]] == [mine]


def test_values_come_back_from_jsonb_as_the_broadcast_from_memory_expects():
    value = {"bb": 1, "a": [2, (3, 4)], "ab": {"z": None, "é": 1.5, "y": True}, "b": 0, "c": {1: "one"}}
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb::text", [live.json.dumps(value)])
        stored = cursor.fetchone()[0]
    assert live.json.dumps(live._as_stored(value), ensure_ascii=False) == stored
    for inexact in (1e16, -0.0, 1.5e-7):
        with pytest.raises(live._Inexact):
            live._as_stored({"x": inexact})


def test_a_broadcast_from_memory_that_fails_is_delivered_later_from_the_database(make_user, client_for, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from matches.outbox import outbox_sweep

    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    clients = {0: client_for(alice), 1: client_for(bob)}
    before = fresh(match).state_seq

    def redis_down(layer, match_id, frames):
        raise ConnectionError("Redis is away")

    monkeypatch.setattr(live, "send_frames", redis_down)
    seat = clients[0].get(f"/api/matches/{match.id}/").json()["to_move"][0]
    assert post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0]).status_code == 201
    pending = OutboxMessage.objects.get(topic="match.broadcast", delivered_at__isnull=True)
    assert pending.payload["after"] == before
    read = []
    monkeypatch.setattr(live, "send_frames", lambda layer, match_id, frames: read.append(list(frames)))
    assert outbox_sweep(now=timezone.now() + timedelta(minutes=10)) == 1
    assert [e["seq"] for e in read[0][0][1]["events"]] == list(range(before + 1, fresh(match).state_seq + 1))


def test_a_value_memory_cannot_give_exactly_is_read_back_from_the_database(make_user, client_for, monkeypatch):
    # A float jsonb would print otherwise (1e16 comes back as an int): the held frames would differ
    # from a reload, so the first delivery reads the match back instead, and sends what it read.
    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    clients = {0: client_for(alice), 1: client_for(bob)}
    before = fresh(match).state_seq
    sent, read_back = [], []

    def record(layer, match_id, frames):
        sent.append([(live.viewer_group(match_id, s), live.frame_message(f)["text"]) for s, f in frames])

    def inexact(value):
        raise live._Inexact(1e16)

    real_read = live.broadcast_match
    monkeypatch.setattr(live, "send_frames", record)
    monkeypatch.setattr(live, "broadcast_match", lambda **kw: (read_back.append(kw), real_read(**kw)))
    monkeypatch.setattr(live, "_as_stored", inexact)
    monkeypatch.setattr(live, "_as_json", inexact)
    seat = clients[0].get(f"/api/matches/{match.id}/").json()["to_move"][0]
    assert post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0]).status_code == 201
    after = fresh(match).state_seq
    assert read_back == [{"match_id": match.pk, "head_seq": after, "after": before}]
    assert sent == [read_frames(match, before)]
    assert not OutboxMessage.objects.filter(topic="match.broadcast", delivered_at__isnull=True).exists()


def test_events_with_a_gap_or_behind_the_match_are_not_broadcast_from_memory(make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    clients = {0: client_for(alice), 1: client_for(bob)}
    for _ in range(3):
        seat = clients[0].get(f"/api/matches/{match.id}/").json()["to_move"][0]
        assert post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0]).status_code == 201
    match = fresh(match)
    events = list(Event.objects.filter(stream_id=match.stream_id).order_by("seq"))
    assert live.frames_held(match=match, events=events[-3:], log=[]) is not None
    assert live.frames_held(match=match, events=[events[-3], events[-1]], log=[]) is None  # a gap
    assert live.frames_held(match=match, events=events[-3:-1], log=[]) is None  # the match moved on


def test_the_broadcasts_copy_of_a_model_is_the_one_copy_copy_makes(make_user):
    # config.rows.copied stands in for copy.copy (without pickling's round trip) where the
    # broadcast copies the command's match and events: the same values and related objects, its
    # own state, and a change to the copy leaves the command's instance as it was.
    match = fresh(new_duel(make_user("alice"), make_user("bob")))
    assert len(match.seats.all()) == 2 and match.created_by is not None  # prefetched, and a related object cached
    theirs, ours = copy.copy(match), copied(match)
    assert type(ours) is Match and ours is not match
    # copy.copy also leaves pickling's version mark on its copy, which nothing reads.
    assert {k: v for k, v in vars(ours).items() if k != "_state"} == {
        k: v for k, v in vars(theirs).items() if k not in ("_state", "_django_version")
    }
    assert all(vars(ours)[k] is vars(match)[k] for k in vars(match) if k != "_state")
    assert vars(ours._state) == vars(theirs._state) and ours._state is not match._state
    assert ours._state.fields_cache == match._state.fields_cache
    ours.state, ours._state.fields_cache["created_by"] = {"changed": True}, None
    assert match.state != {"changed": True} and match.created_by is not None
    event = Event.objects.filter(stream_id=match.stream_id).first()
    event_copy = copied(event)
    event_copy.data = {"changed": True}
    assert event.data != {"changed": True} and event_copy.pk == event.pk and event_copy._state.db == event._state.db
