"""The event store contract (shared/design/ARCHITECTURE.md, "The event store")."""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import subprocess
import threading
import uuid

import pytest
from django.db import DatabaseError, connection, transaction

from engines.base import canonical_json
from matches import eventstore, immutability
from matches.models import GENESIS_HASH, Event

from .helpers import event_count, fresh, new_duel, post_action

REFUSED_STATEMENTS = [
    "UPDATE matches_event SET data = '{}' WHERE seq = 1",
    "DELETE FROM matches_event WHERE seq = 1",
]


def test_events_are_numbered_from_one_and_chained_by_sha256(alice, bob):
    match = new_duel(alice, bob)
    events = list(Event.objects.filter(stream_id=match.stream_id).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[0].data["hash_scheme"] == 2 and events[0].salt is None
    secret = bytes.fromhex(match.seed_hex)
    prev = GENESIS_HASH
    for e in events:
        payload = {
            "stream": e.stream_id,
            "seq": e.seq,
            "event_id": str(e.event_id),
            "type": e.type,
            "data": e.data,
            "actor": e.actor,
            "recorded_at": e.recorded_at.isoformat(),
        }
        if e.seq > 1:
            # docs/AUDIT.md: every later event's hash covers HMAC-SHA256(secret, "salt:<stream>:<seq>").
            salt = hmac.new(secret, f"salt:{e.stream_id}:{e.seq}".encode(), hashlib.sha256).hexdigest()
            assert e.salt == salt
            payload["salt"] = salt
        assert e.prev_hash == prev
        assert e.hash == hashlib.sha256(prev.encode() + canonical_json(payload)).hexdigest()
        prev = e.hash
    assert eventstore.chain_check(events).ok


def test_many_streams_read_as_records_at_once_are_each_streams_event_records(alice, bob):
    """A batch of verifications reads its streams as rows in one query (streams_records): each
    record is what event_record gives for the stored event, the salted and unsalted alike."""
    from matches.autoplay import autoplay_match

    first, second = autoplay_match(game="dueling-wizards", seats=2), new_duel(bob, alice)
    read = eventstore.streams_records(stream_ids=[first.stream_id, second.stream_id, "match:none"])
    assert read == {
        m.stream_id: [eventstore.event_record(e) for e in eventstore.stream_events(stream_id=m.stream_id)]
        for m in (first, second)
    }
    assert any(r["salt"] for r in read[first.stream_id]) and read[first.stream_id][0]["salt"] is None


def test_creation_event_publishes_the_seed_commitment_but_not_the_seed(alice, bob):
    match = new_duel(alice, bob)
    created = Event.objects.get(stream_id=match.stream_id, seq=1)
    assert created.type == "match.created"
    assert created.data["seed_commitment"] == hashlib.sha256(bytes.fromhex(match.seed_hex)).hexdigest()
    assert match.seed_hex not in str(
        list(Event.objects.filter(stream_id=match.stream_id).values_list("data", flat=True))
    )


def test_stale_expected_seq_is_refused_with_409_and_writes_nothing(alice, bob, client_for):
    match = new_duel(alice, bob)
    client = client_for(bob)
    before = event_count(match)
    action = client.get(f"/api/matches/{match.id}/legal/").json()["actions"][0]
    response = post_action(client, match, 1, action, expected_seq=fresh(match).state_seq - 1)
    assert response.status_code == 409
    assert response.json()["code"] == "stale_seq"
    assert "Reload" in response.json()["detail"]
    assert event_count(match) == before


def test_same_event_id_sent_twice_stores_one_event_and_returns_it(alice, bob, client_for):
    match = new_duel(alice, bob)
    client = client_for(bob)
    action = client.get(f"/api/matches/{match.id}/legal/").json()["actions"][0]
    event_id = uuid.uuid4()
    seq = fresh(match).state_seq
    first = post_action(client, match, 1, action, expected_seq=seq, event_id=event_id)
    count = event_count(match)
    # The retry is based on the old head, as a client whose first answer was lost would send it.
    again = post_action(client, match, 1, action, expected_seq=seq, event_id=event_id)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["created"] is False
    assert again.json()["events"][0]["event_id"] == str(event_id)
    assert again.json()["events"][0]["hash"] == first.json()["events"][0]["hash"]
    assert event_count(match) == count
    assert Event.objects.filter(event_id=event_id).count() == 1


def test_reusing_an_event_id_for_a_different_command_is_refused(alice, bob, client_for):
    match = new_duel(alice, bob)
    client = client_for(bob)
    actions = client.get(f"/api/matches/{match.id}/legal/").json()["actions"]
    event_id = uuid.uuid4()
    assert post_action(client, match, 1, actions[0], event_id=event_id).status_code == 201
    count = event_count(match)
    response = post_action(client, match, 1, actions[1], event_id=event_id)
    assert response.status_code == 409
    assert response.json()["code"] == "event_id_reused"
    assert event_count(match) == count


@pytest.mark.parametrize("statement", REFUSED_STATEMENTS)
def test_the_database_refuses_to_change_or_remove_events(alice, bob, statement):
    match = new_duel(alice, bob)
    original = list(Event.objects.filter(stream_id=match.stream_id).values_list("seq", "hash", "data"))
    with pytest.raises(DatabaseError, match="immutable"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert list(Event.objects.filter(stream_id=match.stream_id).values_list("seq", "hash", "data")) == original


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("statement", ["UPDATE matches_event SET type = 'x'", "DELETE FROM matches_event"])
def test_psql_cannot_update_or_delete_events(make_user, statement):
    from tests.conftest import database_url

    match = new_duel(make_user("alice"), make_user("bob"))
    count = event_count(match)
    run = subprocess.run(
        ["psql", database_url(), "-v", "ON_ERROR_STOP=1", "-c", statement], capture_output=True, text=True, timeout=30
    )
    assert run.returncode != 0
    assert "events are immutable" in run.stderr
    assert event_count(match) == count


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_to_truncate_the_events_table(make_user):
    # Committed rows (a transactional test): inside an open transaction PostgreSQL would
    # refuse TRUNCATE for a different reason (pending foreign-key checks).
    match = new_duel(make_user("alice"), make_user("bob"))
    count = event_count(match)
    with pytest.raises(DatabaseError, match="immutable"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("TRUNCATE matches_event CASCADE")
    assert event_count(match) == count


def test_orm_updates_and_deletes_of_events_are_refused_too(alice, bob):
    match = new_duel(alice, bob)
    event = Event.objects.get(stream_id=match.stream_id, seq=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(type="tampered")
    with pytest.raises(DatabaseError), transaction.atomic():
        event.delete()
    assert Event.objects.get(pk=event.pk).type == "match.created"


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submissions_at_the_same_seq_store_one_event_and_refuse_the_other(make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    seq = fresh(match).state_seq
    actions = client_for(bob).get(f"/api/matches/{match.id}/legal/").json()["actions"]
    before = event_count(match)
    barrier = threading.Barrier(2)
    statuses = []

    def submit(action):
        client = client_for(bob)
        barrier.wait()
        try:
            statuses.append(post_action(client, match, 1, action, expected_seq=seq).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(a,)) for a in actions[:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201, 409]
    assert event_count(match) == before + 1


def test_sqlite_triggers_refuse_update_and_delete_of_events():
    # The first-run default database is SQLite; its triggers are plain SQL, checked here
    # on a scratch database because the suite itself runs on PostgreSQL.
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE matches_event (id INTEGER PRIMARY KEY, seq INTEGER, data TEXT)")
    for sql in immutability.SQLITE_INSTALL:
        db.execute(sql)
    db.execute("INSERT INTO matches_event (seq, data) VALUES (1, '{}')")
    for statement in ("UPDATE matches_event SET data = 'x'", "DELETE FROM matches_event"):
        with pytest.raises(sqlite3.IntegrityError, match="immutable"):
            db.execute(statement)
    assert db.execute("SELECT seq, data FROM matches_event").fetchall() == [(1, "{}")]
