"""What an append costs in statements (issue 17, P2), and that the cheaper path keeps every guarantee:
a stale head writes nothing, a reused event_id is still a retry or a refusal, the chain holds and
concurrent writers still serialise. Counts, not times: the benchmark is benchmarks/bench_event_store.py."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from config.rows import Statement
from engines import registry
from engines.base import InvalidConfig
from matches import eventstore, services
from matches.commands import AT_HEAD, command_create, command_run
from matches.eventstore import EventIdReused, NewEvent, StaleSequence
from matches.models import Event, Match, OutboxMessage, Seat, Stream
from matches.services import MatchError, SeatSpec, match_act, match_create, match_create_or_get

from .helpers import event_count, first_legal, fresh, new_duel


def _append(stream_id: str, count: int, expected_seq: int) -> list[Event]:
    stream = eventstore.stream_lock(stream_id=stream_id)
    eventstore.check_expected_seq(stream=stream, expected_seq=expected_seq)
    return eventstore.events_append(
        stream=stream, new_events=[NewEvent(type="noted", data={"n": i}, actor="system") for i in range(count)]
    )


def _writes_to(queries, table: str) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "WITH")) and table in q["sql"]
    ]


@pytest.mark.parametrize("count", [1, 100])
@pytest.mark.django_db
def test_an_append_is_the_stream_lock_and_one_statement_for_one_event_or_a_hundred(count):
    eventstore.stream_create(stream_id="note:1", kind="note")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        events = _append("note:1", count, 0)
    # SELECT ... FOR UPDATE of the stream; then the INSERT that moves the head in the same statement.
    assert len(queries) == 2, [q["sql"][:80] for q in queries]
    stream = Stream.objects.get(pk="note:1")
    assert (stream.head_seq, stream.head_hash) == (count, events[-1].hash)
    stored = eventstore.stream_events(stream_id="note:1")
    assert [e.seq for e in stored] == list(range(1, count + 1))
    assert [e.pk for e in stored] == [e.pk for e in events]
    assert eventstore.chain_check(stored).ok


@pytest.mark.django_db
def test_a_writer_chaining_from_a_head_that_has_moved_writes_nothing():
    eventstore.stream_create(stream_id="note:1", kind="note")
    with transaction.atomic():
        behind = eventstore.stream_lock(stream_id="note:1")
        _append("note:1", 1, 0)
        # As if this writer had slipped past the lock: its seq 1 is taken, its head is gone.
        with pytest.raises(StaleSequence):
            eventstore.events_append(stream=behind, new_events=[NewEvent(type="noted", data={}, actor="system")])
        # Refused by the guard, not by a failed statement: the transaction is still usable.
        assert Stream.objects.get(pk="note:1").head_seq == 1
    assert [e.data for e in eventstore.stream_events(stream_id="note:1")] == [{"n": 0}]


@pytest.mark.django_db
def test_a_head_at_the_right_seq_with_another_hash_writes_nothing():
    eventstore.stream_create(stream_id="note:1", kind="note")
    with transaction.atomic():
        stream = eventstore.stream_lock(stream_id="note:1")
        stream.head_hash = "f" * 64
        with pytest.raises(StaleSequence):
            eventstore.events_append(stream=stream, new_events=[NewEvent(type="noted", data={}, actor="system")])
    assert Stream.objects.get(pk="note:1").head_seq == 0
    assert not Event.objects.filter(stream_id="note:1").exists()


@pytest.mark.django_db
def test_off_postgresql_the_orm_path_keeps_the_same_guard_and_chain(monkeypatch):
    # The first-run default is SQLite, where the single statement is not used; its path runs here.
    monkeypatch.setattr(connection, "vendor", "sqlite")
    eventstore.stream_create(stream_id="note:1", kind="note")
    with transaction.atomic():
        behind = eventstore.stream_lock(stream_id="note:1")
        events = _append("note:1", 3, 0)
        with pytest.raises(StaleSequence):
            eventstore.events_append(stream=behind, new_events=[NewEvent(type="noted", data={}, actor="system")])
    stored = eventstore.stream_events(stream_id="note:1")
    assert [e.pk for e in stored] == [e.pk for e in events]
    assert eventstore.chain_check(stored).ok
    assert Stream.objects.get(pk="note:1").head_hash == stored[-1].hash


def _reads_of(queries, table: str) -> list[str]:
    return [
        q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT") and f'FROM "{table}"' in q["sql"]
    ]


@pytest.mark.django_db
def test_a_move_reads_no_event_id_and_its_seats_once_and_writes_its_event_and_head_in_one_statement(
    alice, bob, client_for
):
    match = new_duel(alice, bob)
    action = first_legal(client_for(bob), match, 1)[0]
    seq = fresh(match).state_seq
    with CaptureQueriesContext(connection) as queries:
        done = match_act(match_id=match.id, user=bob, seat=1, action=action, expected_seq=seq, event_id=uuid.uuid4())
    assert [e.seq for e in done.events] == [seq + 1]
    sql = [q["sql"] for q in queries]
    assert not _reads_of(queries, "matches_event"), "a new command looks up no event"
    assert len(_reads_of(queries, "matches_seat")) == 1, "the seat check and the bots' turn share one read"
    assert len(_writes_to(queries, "matches_event")) == 1
    assert not [s for s in sql if s.startswith("UPDATE") and "matches_stream" in s]
    [locked] = [s for s in sql if "FOR UPDATE" in s]
    assert '"matches_match"' in locked and '"matches_stream"' in locked, "the match and its stream in one lock"
    assert 'FROM "matches_seat"' in locked, "the seats come back with the lock, in the same round trip"
    # Inside the test's transaction the command's own is a savepoint. The statements: SAVEPOINT; the
    # match and its stream locked, and the seats read (with their users) in the same execute; the
    # event inserted with the head moved, the match's projection saved with the log line and the
    # outbox row, in one execute (they were three round trips); RELEASE SAVEPOINT.
    [saved] = _writes_to(queries, "matches_matchlog")
    assert '"matches_match" SET' in saved, "the log line goes in with the match's projection"
    assert "matches_event" in saved and '"matches_outboxmessage"' in saved, "and in the event's round trip"
    assert len(queries) == 4, [s[:80] for s in sql]


def _play_to_the_last_move(match, users):
    """Both people play their first legal action; returns the queries of the move that ends it."""
    engine = registry.get(match.game, match.engine_version)
    while True:
        current = fresh(match)
        seat = engine.to_move(current.state)[0]
        action = engine.legal_actions(current.state, seat)[0]
        with CaptureQueriesContext(connection) as queries:
            match_act(
                match_id=match.id,
                user=users[seat],
                seat=seat,
                action=action,
                expected_seq=current.state_seq,
                event_id=uuid.uuid4(),
            )
        if fresh(match).status == Match.Status.FINISHED:
            return queries


@pytest.mark.django_db
def test_the_move_that_ends_a_match_writes_its_three_outbox_messages_in_one_insert(
    alice, bob, django_capture_on_commit_callbacks
):
    match = new_duel(alice, bob)
    with django_capture_on_commit_callbacks() as delivered:
        queries = _play_to_the_last_move(match, {0: alice, 1: bob})
    outbox_inserts = _writes_to(queries, "matches_outboxmessage")
    assert len(outbox_inserts) == 1
    rows = list(OutboxMessage.objects.filter(payload__match_id=str(match.id)).order_by("id"))
    assert [r.topic for r in rows[-3:]] == ["match.broadcast", "match.verify", "match.finished"]
    # Written with the closing event, delivered only once the commit is done.
    assert all(r.delivered_at is None for r in rows[-3:])
    assert len(_reads_of(queries, "matches_seat")) == 1, "the seats are read once, with their users"
    # The winner's name: the users came with the seats, and the seats' read told that none has
    # partners (a team's would be one read for all seats).
    assert not _reads_of(queries, "auth_user")
    assert len(_writes_to(queries, "matches_event")) == 1, "the move and the closing event in one statement"
    assert len(_writes_to(queries, "matches_matchlog")) == 1
    # SAVEPOINT; match and stream locked together, the seats with them; the move's and the
    # closing event, the match saved with their log lines, and the outbox, in one execute; RELEASE.
    assert len(queries) == 4, [q["sql"][:80] for q in queries]
    finished = fresh(match)
    assert finished.status == Match.Status.FINISHED
    assert finished.log.last().text.startswith("Match over.")
    for callback in delivered[-3:]:
        callback()
    assert OutboxMessage.objects.filter(pk__in=[r.pk for r in rows[-3:]], delivered_at__isnull=False).count() == 3


@pytest.mark.django_db
def test_a_create_with_an_event_id_looks_nothing_up_and_takes_no_lock_on_its_new_stream(alice, bob):
    with CaptureQueriesContext(connection) as queries:
        match, created = match_create_or_get(
            game="dueling-wizards",
            seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
            created_by=alice,
            event_id=uuid.uuid4(),
        )
    assert created
    assert not _reads_of(queries, "matches_event"), "a new create looks up no event_id"
    assert not _reads_of(queries, "matches_stream"), "nobody else can see the new stream: no lock"
    # SAVEPOINT; stream, match and seats inserted; the seats read for the bots; the created event
    # and the two dealing events, with the match saved with their log lines in the same execute;
    # the outbox; RELEASE.
    assert len(queries) == 8, [q["sql"][:80] for q in queries]


@pytest.mark.django_db
def test_a_whole_bot_match_is_written_in_one_statement_of_events_and_one_of_log_lines():
    with CaptureQueriesContext(connection) as queries:
        match = match_create(
            game="dueling-wizards", seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], created_by=None
        )
    stored = eventstore.stream_events(stream_id=match.stream_id)
    assert len(stored) > 20 and stored[-1].type == "match.finished"
    assert len(_writes_to(queries, "matches_event")) == 1
    assert len(_writes_to(queries, "matches_matchlog")) == 1
    # As a create's (above): the match is saved in the events' execute.
    assert len(queries) == 8, [q["sql"][:80] for q in queries]
    # One statement, the same record: an unbroken salted chain, a log line per event, the head moved.
    assert eventstore.chain_check(stored, bytes.fromhex(match.seed_hex)).ok
    assert list(match.log.values_list("seq", flat=True)) == [e.seq for e in stored]
    finished = fresh(match)
    assert (finished.state_seq, finished.head_hash) == (stored[-1].seq, stored[-1].hash)
    assert Stream.objects.get(pk=match.stream_id).head_hash == stored[-1].hash


@pytest.mark.django_db
def test_a_create_sent_again_returns_the_first_match_and_another_create_under_its_id_is_refused(alice, bob, carol):
    event_id, seats = uuid.uuid4(), [SeatSpec(user=alice), SeatSpec(user=bob)]
    first, made = match_create_or_get(game="dueling-wizards", seats=seats, created_by=alice, event_id=event_id)
    counts = (Match.objects.count(), Stream.objects.count(), Event.objects.count(), Seat.objects.count())
    again, made_again = match_create_or_get(game="dueling-wizards", seats=seats, created_by=alice, event_id=event_id)
    assert (made, made_again) == (True, False)
    assert again.pk == first.pk
    # The retry's own rows went with its rolled-back savepoint.
    assert (Match.objects.count(), Stream.objects.count(), Event.objects.count(), Seat.objects.count()) == counts
    with pytest.raises(MatchError) as refused:
        match_create_or_get(
            game="dueling-wizards",
            seats=[SeatSpec(user=alice), SeatSpec(user=carol)],
            created_by=alice,
            event_id=event_id,
        )
    assert refused.value.code == "event_id_reused"
    assert (Match.objects.count(), Stream.objects.count(), Event.objects.count(), Seat.objects.count()) == counts


@pytest.mark.django_db
def test_a_create_sent_again_is_answered_as_a_retry_even_where_its_setup_would_now_be_refused(alice, bob, monkeypatch):
    event_id, seats = uuid.uuid4(), [SeatSpec(user=alice), SeatSpec(user=bob)]
    body = {"game": "dueling-wizards", "seats": seats, "created_by": alice, "config": {"jokers": True}}
    first = match_create(**body, event_id=event_id)

    def refuse_jokers(config, seats):
        raise InvalidConfig("Jokers are no longer played.", code="bad_option_value")

    # A later release refuses what this one accepted: the retry still gets the match it made.
    monkeypatch.setattr(registry.get("dueling-wizards"), "validate_config", refuse_jokers)
    with pytest.raises(MatchError) as refused:
        match_create(**body)
    assert refused.value.code == "bad_option_value"
    again, made = match_create_or_get(**body, event_id=event_id)
    assert (again.pk, made) == (first.pk, False)
    # Another create under that id is not taken for a retry because the server cannot check it now.
    with pytest.raises(MatchError) as reused:
        match_create_or_get(**{**body, "config": {"jokers": False}}, event_id=event_id)
    assert reused.value.code == "event_id_reused"


def _create_note(stream_id: str, event_id, data: dict, *, fail: bool = False):
    def execute(appender):
        if fail:
            raise ValueError("refused before appending")
        return appender.append([NewEvent(type="noted", data=data, actor="system")])[0].stream_id

    return command_create(
        stream_id=stream_id,
        kind="note",
        event_id=event_id,
        execute=execute,
        found=lambda existing: existing.stream_id,
        same=lambda existing: existing.data == data,
    )


@pytest.mark.django_db
def test_a_stream_create_sent_again_returns_the_first_stream_and_leaves_no_second():
    event_id = uuid.uuid4()
    assert _create_note("note:a", event_id, {"n": 1}) == ("note:a", True)
    # The retry names a new stream (as a match create does): its insert meets the stored event_id.
    assert _create_note("note:b", event_id, {"n": 1}) == ("note:a", False)
    # A retry that fails before it appends is still answered from the stored event.
    assert _create_note("note:c", event_id, {"n": 1}, fail=True) == ("note:a", False)
    with pytest.raises(EventIdReused):
        _create_note("note:d", event_id, {"n": 2})
    assert list(Stream.objects.filter(kind="note").values_list("id", flat=True)) == ["note:a"]
    assert Event.objects.filter(stream_id="note:a").count() == 1
    with pytest.raises(ValueError):
        _create_note("note:e", uuid.uuid4(), {"n": 3}, fail=True)
    assert not Stream.objects.filter(pk="note:e").exists()


@pytest.mark.django_db
def test_a_move_sent_again_with_its_event_id_returns_the_stored_event_and_appends_nothing(alice, bob, client_for):
    match = new_duel(alice, bob)
    action = first_legal(client_for(bob), match, 1)[0]
    seq, event_id = fresh(match).state_seq, uuid.uuid4()
    first = match_act(match_id=match.id, user=bob, seat=1, action=action, expected_seq=seq, event_id=event_id)
    count = event_count(match)
    again = match_act(match_id=match.id, user=bob, seat=1, action=action, expected_seq=seq, event_id=event_id)
    assert (first.created, again.created) == (True, False)
    assert [e.pk for e in again.events] == [first.events[0].pk]
    assert event_count(match) == count
    with pytest.raises(EventIdReused):
        match_act(match_id=match.id, user=alice, seat=0, action=action, expected_seq=seq, event_id=event_id)


def _note(stream_id: str, event_id, data: dict, *, append: bool = True):
    def execute(_subject, appender):
        return appender.append([NewEvent(type="noted", data=data, actor="system")]) if append else []

    return command_run(
        stream_id=stream_id,
        expected_seq=AT_HEAD,
        event_id=event_id,
        execute=execute,
        same=lambda existing: existing.data == data,
    )


@pytest.mark.django_db
def test_a_command_at_the_head_sent_twice_is_stored_once_and_a_different_one_under_its_id_refused():
    eventstore.stream_create(stream_id="note:1", kind="note")
    event_id = uuid.uuid4()
    first = _note("note:1", event_id, {"n": 1})
    # At the head nothing is stale: the unique event_id catches the retry, then the lookup finds it.
    again = _note("note:1", event_id, {"n": 1})
    assert (first.created, again.created) == (True, False)
    assert [e.pk for e in again.events] == [e.pk for e in first.events]
    assert Event.objects.filter(stream_id="note:1").count() == 1
    with pytest.raises(EventIdReused):
        _note("note:1", event_id, {"n": 2})
    assert Stream.objects.get(pk="note:1").head_seq == 1


@pytest.mark.django_db
def test_a_retry_that_would_append_nothing_now_still_returns_the_event_its_first_send_stored():
    eventstore.stream_create(stream_id="note:1", kind="note")
    event_id = uuid.uuid4()
    first = _note("note:1", event_id, {"n": 1})
    again = _note("note:1", event_id, {"n": 1}, append=False)
    assert again.created is False
    assert [e.pk for e in again.events] == [e.pk for e in first.events]


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_to_one_stream_serialise_into_one_unbroken_chain():
    eventstore.stream_create(stream_id="note:race", kind="note")
    barrier = threading.Barrier(3)
    failures = []

    def write(writer: int) -> None:
        try:
            barrier.wait()
            for i in range(10):
                _note("note:race", uuid.uuid4(), {"writer": writer, "i": i})
        except Exception as exc:  # reported below: an assertion in a thread would pass unseen
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(w,)) for w in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    stored = eventstore.stream_events(stream_id="note:race")
    assert [e.seq for e in stored] == list(range(1, 31))
    assert eventstore.chain_check(stored).ok
    assert Stream.objects.get(pk="note:race").head_hash == stored[-1].hash


@pytest.mark.django_db(transaction=True)
def test_a_move_waiting_on_the_match_lock_sees_the_head_the_move_before_it_committed(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    engine = registry.get(match.game, match.engine_version)
    current = fresh(match)
    first_seat = engine.to_move(current.state)[0]
    first_action = engine.legal_actions(current.state, first_seat)[0]
    users = {0: alice, 1: bob}

    def first_move():
        return match_act(
            match_id=match.id,
            user=users[first_seat],
            seat=first_seat,
            action=first_action,
            expected_seq=current.state_seq,
            event_id=uuid.uuid4(),
        )

    # Where the first move leaves the match (dealt cards included), found by making it and rolling back.
    with pytest.raises(_RolledBack), transaction.atomic():
        after = first_move().match
        raise _RolledBack(after.state_seq, after.state)
    head, state = _RolledBack.last
    second_seat = engine.to_move(state)[0]
    second_action = engine.legal_actions(state, second_seat)[0]

    holding, release, outcome = threading.Event(), threading.Event(), {}
    real_outbox = services.outbox_add_all_statement

    def outbox_then_wait(*, messages, **held):
        # The outbox's row goes in the execute that writes the move: the first waits once it has run.
        statement = real_outbox(messages=messages, **held)

        def read(cursor):
            statement.read(cursor)
            if threading.current_thread().name == "first":
                holding.set()
                release.wait(30)  # the first move holds its locks until the second is queued on them

        return Statement(statement.sql, statement.params, read)

    def run(name, fn):
        try:
            outcome[name] = fn()
        except Exception as exc:  # reported below: an assertion in a thread would pass unseen
            outcome[name] = exc
        finally:
            connection.close()

    second = lambda: match_act(  # noqa: E731
        match_id=match.id,
        user=users[second_seat],
        seat=second_seat,
        action=second_action,
        expected_seq=head,
        event_id=uuid.uuid4(),
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "outbox_add_all_statement", outbox_then_wait)
        threads = [threading.Thread(target=run, args=("first", first_move), name="first")]
        threads[0].start()
        assert holding.wait(30)
        threads.append(threading.Thread(target=run, args=("second", second), name="second"))
        threads[1].start()
        _wait_until_a_backend_waits_on_a_lock()
        release.set()
        for t in threads:
            t.join()
    # The second read the match and the stream after the first committed, not the rows it first saw.
    assert not isinstance(outcome["second"], Exception), outcome["second"]
    assert outcome["second"].events[0].seq == head + 1
    stored = eventstore.stream_events(stream_id=match.stream_id)
    assert eventstore.chain_check(stored, bytes.fromhex(fresh(match).seed_hex)).ok


class _RolledBack(Exception):
    last = None

    def __init__(self, *value):
        super().__init__()
        _RolledBack.last = value


def _wait_until_a_backend_waits_on_a_lock() -> None:
    import time

    with connection.cursor() as cursor:
        for _ in range(300):
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.1)
    raise AssertionError("the second move never waited on the first's lock")


@pytest.mark.django_db
def test_statements_sent_with_an_append_run_in_its_round_trip_and_are_read_once_it_is_in():
    eventstore.stream_create(stream_id="note:1", kind="note")
    read = []

    def then(rows):
        assert [e.seq for e in rows] == [1, 2] and all(e.pk is None for e in rows)
        return [Statement("SELECT %s", [41], lambda cursor: read.append((cursor.fetchone()[0], rows[0].pk)))]

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        stream = eventstore.stream_lock(stream_id="note:1")
        events = eventstore.events_append(
            stream=stream,
            new_events=[NewEvent(type="noted", data={"n": i}, actor="system") for i in range(2)],
            then=then,
        )
    assert read == [(41, events[0].pk)] and events[0].pk is not None
    assert len(queries) == 2, [q["sql"][:80] for q in queries]  # the lock; the events with the SELECT


@pytest.mark.django_db
def test_a_refused_append_reads_none_of_the_statements_sent_with_it():
    eventstore.stream_create(stream_id="note:1", kind="note")
    read = []
    with pytest.raises(StaleSequence), transaction.atomic():
        behind = eventstore.stream_lock(stream_id="note:1")
        _append("note:1", 1, 0)
        eventstore.events_append(
            stream=behind,
            new_events=[NewEvent(type="noted", data={}, actor="system")],
            then=lambda rows: [Statement("SELECT 1", [], read.append)],
        )
    assert read == []


@pytest.mark.django_db
def test_a_statement_sent_with_an_append_that_breaks_a_constraint_fails_as_itself_not_as_a_stale_seq():
    from django.db import IntegrityError

    eventstore.stream_create(stream_id="note:1", kind="note")
    duplicate = Statement("INSERT INTO auth_group (name) VALUES ('twice'), ('twice')", [], lambda cursor: None)
    with pytest.raises(IntegrityError) as failed, transaction.atomic():
        stream = eventstore.stream_lock(stream_id="note:1")
        eventstore.events_append(
            stream=stream, new_events=[NewEvent(type="noted", data={}, actor="system")], then=lambda rows: [duplicate]
        )
    assert not isinstance(failed.value, StaleSequence)
    assert not Event.objects.filter(stream_id="note:1").exists()
