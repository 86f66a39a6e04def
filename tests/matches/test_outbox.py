"""A committed write is reported as the success it is, whatever is down after the commit (issue 15).

What follows a commit (the websocket broadcast, the verification task, the other apps' hooks) is
written to the outbox in the same transaction and delivered after it; when Redis or the broker is
unreachable the message waits and the sweeper delivers it once they are back.
"""

from __future__ import annotations

import socket
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from config.celery import app
from matches import tasks
from matches.models import Match, OutboxMessage
from matches.outbox import outbox_sweep

from .helpers import event_count, fresh, new_duel, post_action

pytestmark = pytest.mark.django_db

UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},  # nothing listens on port 1
    }
}
IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def fresh_layers():
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


def reset_connections():
    # The next publish opens its pools on the broker configured now, not on a cached one.
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker_down():
    """Celery talking to a broker that is not there, publishing without retries (fails at once)."""
    saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url", "task_publish_retry")}
    app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:1/0", task_publish_retry=False)
    reset_connections()
    yield saved
    app.conf.update(saved)
    reset_connections()


def pending(topic: str | None = None):
    qs = OutboxMessage.objects.filter(delivered_at__isnull=True)
    return qs.filter(topic=topic) if topic else qs


@pytest.fixture
def silent_redis():
    """Channel layers on a server that takes connections and never answers (a listening socket
    nobody reads: the kernel completes the handshakes), with a socket timeout far past the test's."""
    server = socket.create_server(("127.0.0.1", 0), backlog=64)
    address = f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    yield {
        "default": {
            "BACKEND": "matches.layers.SharedReaderRedisChannelLayer",
            "CONFIG": {"hosts": [{"address": address, "socket_timeout": 600, "socket_connect_timeout": 600}]},
        }
    }
    server.close()


@pytest.fixture(params=["refused", "silent"])
def redis_down(request):
    """(the channel layers, the error the outbox records): a Redis that refuses the connection
    fails the send at once; one that takes it and never answers is cut off by the broadcast's own
    bound (LIVE_BROADCAST_TIMEOUT), not by the socket's timeout."""
    if request.param == "refused":
        yield UNREACHABLE_REDIS, "Error"
    else:
        with override_settings(LIVE_BROADCAST_TIMEOUT=1):
            yield request.getfixturevalue("silent_redis"), "BroadcastTimeout"


@pytest.mark.timeout(120)  # without the broadcast's own bound, a silent Redis holds the request for the socket's 600 s
def test_a_move_committed_while_redis_is_down_answers_201_and_is_broadcast_once_redis_is_back(
    alice, bob, client_for, fresh_layers, redis_down, django_capture_on_commit_callbacks
):
    layers, error = redis_down
    with django_capture_on_commit_callbacks(execute=True):
        match = new_duel(alice, bob)
    before = event_count(match)
    assert not pending().exists()
    legal = client_for(bob).get(f"/api/matches/{match.id}/legal/").json()["actions"]
    with override_settings(CHANNEL_LAYERS=layers):
        channel_layers.backends = {}
        with django_capture_on_commit_callbacks(execute=True):
            response = post_action(client_for(bob), match, 1, legal[0])
        assert response.status_code == 201, response.content
        assert event_count(match) == before + 1
        [waiting] = pending("match.broadcast")
        assert waiting.attempts == 1 and error in waiting.last_error, waiting.last_error
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends = {}
        assert outbox_sweep(now=timezone.now() + timedelta(minutes=10)) == 1
    assert not pending().exists()


@pytest.mark.timeout(120)
def test_a_verdict_recorded_while_redis_is_down_reaches_the_spectators_once_redis_is_back(
    alice, bob, fresh_layers, redis_down, django_capture_on_commit_callbacks
):
    from matches.autoplay import autoplay_match
    from matches.live import group_name
    from matches.verification import match_verify

    layers, error = redis_down
    with django_capture_on_commit_callbacks(execute=False):
        match = autoplay_match(game="dueling-wizards", seats=2)
    OutboxMessage.objects.all().delete()  # the game's own broadcasts and verification never left
    with override_settings(CHANNEL_LAYERS=layers):
        channel_layers.backends = {}
        with django_capture_on_commit_callbacks(execute=True):
            assert match_verify(match_id=match.pk).verified
        [waiting] = pending("match.broadcast_many")
        assert waiting.attempts == 1 and error in waiting.last_error, waiting.last_error
    assert fresh(match).verdict == Match.Verdict.VERIFIED  # the verdict itself is kept
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends = {}
        layer = channel_layers["default"]
        spectator = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(group_name(match.pk), spectator)
        assert outbox_sweep(now=timezone.now() + timedelta(minutes=10)) == 1
        message = async_to_sync(layer.receive)(spectator)
    assert message["frame"]["type"] == "verdict" and message["frame"]["verification"]["verdict"] == "verified"
    assert not pending().exists()


def test_a_match_created_while_redis_is_down_returns_its_id(
    alice, bob, client_for, fresh_layers, django_capture_on_commit_callbacks
):
    invitation = (
        client_for(alice)
        .post(
            "/api/matches/",
            {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}]},
            format="json",
        )
        .json()
    )
    with override_settings(CHANNEL_LAYERS=UNREACHABLE_REDIS):
        channel_layers.backends = {}
        with django_capture_on_commit_callbacks(execute=True):
            # bob's acceptance creates the match (issue 15: nobody is seated without saying yes).
            response = client_for(bob).post(f"/api/invitations/{invitation['id']}/accept/", format="json")
    assert response.status_code == 200, response.content
    assert Match.objects.filter(pk=response.json()["match"]).exists()
    assert pending("match.broadcast").exists()


@pytest.mark.timeout(120)  # without the broadcast's own bound, a silent Redis holds the request for the socket's 600 s
def test_an_invitation_answered_while_redis_is_down_is_answered_at_once_and_its_pages_hear_of_it_once_redis_is_back(
    alice, bob, carol, client_for, fresh_layers, redis_down, django_capture_on_commit_callbacks
):
    from matches.invitations.live import invitation_group

    layers, error = redis_down
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends = {}
        with django_capture_on_commit_callbacks(execute=True):
            invitation = (
                client_for(alice)
                .post(
                    "/api/matches/",
                    {"game": "dueling-wizards", "seats": [{"username": n} for n in ("alice", "bob", "carol")]},
                    format="json",
                )
                .json()
            )
    assert not pending().exists()
    with override_settings(CHANNEL_LAYERS=layers):
        channel_layers.backends = {}
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            response = client_for(bob).post(f"/api/invitations/{invitation['id']}/accept/", format="json")
        took = time.monotonic() - started
        assert response.status_code == 200, response.content
        assert took < settings.LIVE_BROADCAST_TIMEOUT + 3, f"the answer was answered after {took:.1f} s"
        [waiting] = pending("invitation.changed")
        assert waiting.attempts == 1 and error in waiting.last_error, waiting.last_error
        # The sweeper meets the same Redis: it gives up within the same bound and keeps the message.
        started = time.monotonic()
        assert outbox_sweep(now=timezone.now() + timedelta(minutes=10)) == 0
        took = time.monotonic() - started
        assert took < settings.LIVE_BROADCAST_TIMEOUT + 3, f"the sweep took {took:.1f} s"
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends = {}
        layer = channel_layers["default"]
        page = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(invitation_group(invitation["id"]), page)
        assert outbox_sweep(now=timezone.now() + timedelta(hours=1)) == 1
        assert async_to_sync(layer.receive)(page) == {"type": "invitation.changed"}
    assert not pending().exists()


def test_a_match_ending_while_the_broker_is_down_is_verified_once_the_broker_is_back(
    alice, client_for, broker_down, django_capture_on_commit_callbacks
):
    match = new_duel(alice, bots=["random"])
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(400):
            match = fresh(match)
            if match.status == Match.Status.FINISHED:
                break
            legal = client_for(alice).get(f"/api/matches/{match.id}/legal/").json()["actions"]
            response = post_action(client_for(alice), match, 0, legal[0])
            assert response.status_code == 201, response.content  # never a 500 for a committed move
    assert match.status == Match.Status.FINISHED and match.verdict == Match.Verdict.PENDING
    assert pending("match.verify").exists()

    app.conf.update(broker_down)  # the broker is back (tasks run at once in tests)
    reset_connections()
    with django_capture_on_commit_callbacks(execute=True):
        outbox_sweep(now=timezone.now() + timedelta(minutes=10))
    assert fresh(match).verdict == Match.Verdict.VERIFIED
    assert not pending("match.verify").exists()


def test_a_finished_match_whose_verification_was_lost_is_requeued(alice, bob, django_capture_on_commit_callbacks):
    from matches.autoplay import autoplay_match

    with django_capture_on_commit_callbacks(execute=False):  # the verification message never leaves
        match = autoplay_match(game="dueling-wizards", seats=2)
    assert match.status == Match.Status.FINISHED and match.verdict == Match.Verdict.PENDING
    assert tasks.requeue_unverified() == 0  # too recent: its task may still be on its way
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.requeue_unverified() == 1
    assert fresh(match).verdict == Match.Verdict.VERIFIED
    assert tasks.requeue_unverified() == 0


def test_a_message_is_delivered_once_even_when_swept_twice(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        new_duel(alice, bob)
    assert pending().count() == 1
    assert outbox_sweep() == 1
    assert outbox_sweep() == 0


def test_the_sweeper_forgets_delivered_messages_after_two_days_and_keeps_pending_ones(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        new_duel(alice, bob)
    with django_capture_on_commit_callbacks(execute=False):
        new_duel(alice, bob)  # its broadcast is still pending
    assert OutboxMessage.objects.filter(delivered_at__isnull=False).count() == 1
    outbox_sweep(now=timezone.now() + timedelta(days=1), limit=0)
    assert OutboxMessage.objects.count() == 2
    outbox_sweep(now=timezone.now() + timedelta(days=3), limit=0)
    assert OutboxMessage.objects.filter(delivered_at__isnull=False).count() == 0
    assert pending().count() == 1


def test_a_handler_that_fails_leaves_none_of_its_writes_and_its_message_pending(monkeypatch, make_user):
    from django.contrib.auth import get_user_model

    from matches import outbox

    def write_then_fail(payload):
        make_user(payload["name"])
        raise RuntimeError("the receiver fell over")

    monkeypatch.setitem(outbox._HANDLERS, "test.write_then_fail", write_then_fail)
    message = OutboxMessage.objects.create(
        topic="test.write_then_fail", payload={"name": "ghost"}, available_at=timezone.now()
    )
    assert outbox.outbox_deliver(message_id=message.pk) is False
    assert not get_user_model().objects.filter(username="ghost").exists()
    message.refresh_from_db()
    assert message.delivered_at is None and message.attempts == 1 and "fell over" in message.last_error

    monkeypatch.setitem(outbox._HANDLERS, "test.write_then_fail", lambda payload: make_user(payload["name"]))
    assert outbox_sweep(now=timezone.now() + timedelta(minutes=10)) == 1
    assert get_user_model().objects.filter(username="ghost").exists()  # committed with its delivery
    message.refresh_from_db()
    assert message.delivered_at is not None


def test_messages_recorded_together_are_stored_as_given_in_their_order(monkeypatch):
    # The INSERT is written by hand on PostgreSQL (issue 17, P5): each row must read back as the
    # ORM would have stored it, and each returned message must carry its own row's id.
    from django.db import transaction

    from matches import outbox

    monkeypatch.setitem(outbox._HANDLERS, "test.note", lambda payload: None)
    payloads = [{"n": n, "text": 'Ünïcode "quoted" {braces}', "nested": {"list": [1, None, True]}} for n in range(3)]
    before = timezone.now()
    with transaction.atomic():
        rows = outbox.outbox_add_all(messages=[("test.note", payload) for payload in payloads])
    assert [row.pk for row in rows] == sorted(row.pk for row in rows)
    stored = {m.pk: m for m in OutboxMessage.objects.filter(pk__in=[row.pk for row in rows])}
    for row, payload in zip(rows, payloads, strict=True):
        message = stored[row.pk]
        assert (message.topic, message.payload, message.attempts, message.last_error) == ("test.note", payload, 0, "")
        assert message.delivered_at is None or message.delivered_at >= before  # delivered after the commit
        assert before <= message.created_at == message.available_at <= timezone.now()
