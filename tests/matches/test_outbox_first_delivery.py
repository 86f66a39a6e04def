"""The outbox's first delivery of a broadcast from memory (issue 17, P5): right after an action's
commit, in the request, it locks and marks its row in one statement instead of reading it under
a lock and delivering in a savepoint (seven queries around every move's broadcast, three now), and
keeps what the lock was for: a message the sweeper is delivering is neither delivered again nor
waited for, and a delivery that fails leaves its message pending for the sweeper."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.models import OutboxMessage
from matches.outbox import outbox_deliver

from .helpers import first_legal, new_duel, post_action

pytestmark = pytest.mark.django_db(transaction=True)


def a_pending_message() -> OutboxMessage:
    return OutboxMessage.objects.create(
        topic="match.broadcast", payload={"match_id": str(uuid.uuid4()), "head_seq": 1}, available_at=timezone.now()
    )


def sweeper_holding(message: OutboxMessage):
    """Another process's delivery of ``message`` in progress: its row locked until ``release``."""
    held, release = threading.Event(), threading.Event()

    def deliver():
        try:
            with transaction.atomic():
                OutboxMessage.objects.select_for_update().get(pk=message.pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=deliver)
    thread.start()
    assert held.wait(5)
    return thread, release


def test_a_first_delivery_skips_a_message_the_sweeper_holds_without_waiting_and_delivers_it_once_after():
    message = a_pending_message()
    thread, release = sweeper_holding(message)
    try:
        sent = []
        started = time.monotonic()
        assert outbox_deliver(message_id=message.pk, deliver=lambda: sent.append("frames")) is False
        # Skipped, not waited for: the request answers while the sweeper still holds the row.
        assert time.monotonic() - started < 5 and sent == []
    finally:
        release.set()
        thread.join()
    message.refresh_from_db()
    assert message.delivered_at is None and message.attempts == 0
    assert outbox_deliver(message_id=message.pk, deliver=lambda: sent.append("frames")) is True
    assert outbox_deliver(message_id=message.pk, deliver=lambda: sent.append("frames")) is False
    assert sent == ["frames"]
    message.refresh_from_db()
    assert message.delivered_at is not None


def test_a_first_delivery_that_fails_leaves_its_message_pending_with_the_attempt_recorded():
    message = a_pending_message()

    def redis_gone():
        raise ConnectionError("Redis went away")

    assert outbox_deliver(message_id=message.pk, deliver=redis_gone) is False
    message.refresh_from_db()
    assert message.delivered_at is None and message.attempts == 1
    assert "Redis went away" in message.last_error and message.available_at > timezone.now()


def test_an_action_posts_first_delivery_locks_and_marks_its_message_in_one_statement(make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    client = client_for(bob)
    action = first_legal(client, match, 1)[0]
    with CaptureQueriesContext(connection) as queries:
        response = post_action(client, match, 1, action)  # its read of the match comes before the command's BEGIN
    assert response.status_code == 201, response.content
    sql = [q["sql"] for q in queries]
    committed = sql.index("COMMIT")  # the command's; what follows is its delivery
    after = sql[committed + 1 :]
    touching = [s for s in after if "matches_outboxmessage" in s]
    assert len(touching) == 1 and touching[0].startswith("UPDATE") and "SKIP LOCKED" in touching[0], after
    assert not [s for s in sql if "SAVEPOINT" in s], sql
    # The seats' empty partners came with the seats' read (an EXISTS in it): none read after the commit.
    assert not [s for s in after if "matches_seat_partners" in s], after
    assert OutboxMessage.objects.filter(delivered_at__isnull=True).count() == 0


def test_a_failed_attempt_is_not_recorded_over_a_delivery_another_process_finished_meanwhile():
    from matches.outbox import _failed

    message = a_pending_message()
    # Between this process's rollback and its record of the failure, the sweeper delivered it.
    OutboxMessage.objects.filter(pk=message.pk).update(delivered_at=timezone.now())
    _failed(message.pk, ConnectionError("Redis went away"))
    message.refresh_from_db()
    assert message.delivered_at is not None and message.attempts == 0 and not message.last_error


def test_a_failed_attempt_leaves_a_message_another_process_is_delivering_to_that_process_without_waiting():
    from matches.outbox import _failed

    message = a_pending_message()
    thread, release = sweeper_holding(message)
    try:
        started = time.monotonic()
        _failed(message.pk, ConnectionError("Redis went away"))
        # Skipped, not waited for: the holder records its own outcome.
        assert time.monotonic() - started < 5
    finally:
        release.set()
        thread.join()
    message.refresh_from_db()
    assert message.delivered_at is None and message.attempts == 0 and not message.last_error


def test_a_message_added_without_a_delivery_of_its_own_is_first_delivered_from_what_was_written(monkeypatch):
    from matches import outbox

    received = []
    monkeypatch.setitem(outbox._HANDLERS, "match.finished", received.append)
    payload = {"match_id": str(uuid.uuid4()), "game": "dueling-wizards", "seats": (0, 1)}
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():
            outbox.outbox_add(topic="match.finished", payload=payload)
            payload["game"] = "changed after it was added"
    sql = [q["sql"] for q in queries]
    after = sql[sql.index("COMMIT") + 1 :]
    touching = [s for s in after if "matches_outboxmessage" in s]
    # Marked in one statement under the skip-locked lock; the row is not read back.
    assert len(touching) == 1 and touching[0].startswith("UPDATE") and "SKIP LOCKED" in touching[0], after
    stored = OutboxMessage.objects.get()
    assert stored.delivered_at is not None
    # What the sweeper would hand the handler: the row's JSON (a tuple comes back a list), as added.
    assert received == [stored.payload]
    assert received[0]["seats"] == [0, 1] and received[0]["game"] == "dueling-wizards"


def test_a_single_verification_writes_its_two_messages_at_once_and_reads_neither_back(make_user):
    from matches.verification import match_verify

    from .helpers import stored_finished_match

    ann, ben = make_user("ann"), make_user("ben")
    match = stored_finished_match("dueling-wizards", result={"placements": [1, 2]}, users=[ann, ben])
    with CaptureQueriesContext(connection) as queries:
        match_verify(match_id=match.pk)
    touching = [q["sql"] for q in queries if "matches_outboxmessage" in q["sql"]]
    assert [s.split()[0] for s in touching] == ["INSERT", "UPDATE", "UPDATE"], touching
    assert sorted(OutboxMessage.objects.values_list("topic", flat=True)) == ["match.broadcast_many", "match.verified"]
    assert not OutboxMessage.objects.filter(delivered_at__isnull=True).exists()
