"""PostgreSQL unreachable for several seconds (a restart, a failover, a network cut), then back.

Django reaches the test database through a TCP proxy started here, which can cut every open
connection and refuse new ones (the port closed, as when PostgreSQL is down), then let them through
again. While it is down every request, page or API, answers 503 with a stable code and a
Retry-After, and writes nothing; once it is back the same requests are served, a command sent again
with the same event_id lands once, and what was committed before the cut leaves through the outbox
and the verification requeue."""

from __future__ import annotations

import select
import socket
import threading
import time
import uuid
from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.db import OperationalError, connection
from django.test import Client
from django.utils import timezone

from matches import eventstore, outbox
from matches.autoplay import autoplay_match
from matches.models import Event, Match, OutboxMessage
from matches.tasks import REQUEUE_AFTER_SECONDS, requeue_unverified, verify_match
from tests.hardening.moves import next_move, send
from tests.matches.helpers import event_count

pytestmark = pytest.mark.django_db(transaction=True)


class Outage:
    """A TCP proxy to PostgreSQL that can be cut (open connections reset, new ones refused) or
    stalled (connections open and new ones accepted, but nothing answered: a frozen server, a
    black hole after a failover), and restored."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = self._listen(0)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.held: list[socket.socket] = []  # accepted while stalled, never connected on
        self.cuts = 0
        self.down = False
        self.stalled = False
        self._serve()

    @staticmethod
    def _listen(port: int) -> socket.socket:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
        return listener

    def _serve(self) -> None:
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # the listener was closed: the outage, or the end of the test
            with self.lock:
                if self.stalled:  # accepted, and then never a byte in answer
                    self.held.append(client)
                    continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.down:  # accepted just before the cut: it goes with the others
                    self._close(client, upstream)
                    continue
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        ends = [a, b]
        try:
            while True:
                ready, _, _ = select.select(ends, [], [])
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if not self.stalled:  # stalled: read and dropped, so nothing is ever answered
                        (b if sock is a else a).sendall(data)
        except (OSError, ValueError):
            return
        finally:
            self._close(a, b)

    def _close(self, *socks: socket.socket) -> None:
        for sock in socks:
            try:
                # A reset, as a dead server's host answers: no orderly goodbye for the client to read.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                sock.close()
            except OSError:
                pass

    def cut(self) -> None:
        """Refuse new connections and reset every open one."""
        # shutdown first: close alone leaves the socket listening while a thread waits in accept().
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            self.down = True
            pairs, self.pairs = self.pairs, []
            held, self.held = self.held, []
        self._close(*held)
        for pair in pairs:
            for sock in pair:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self._close(*pair)
        self.cuts += 1

    def stall(self) -> None:
        """Keep every connection open and accept new ones, but answer nothing on any of them."""
        with self.lock:
            self.stalled = True

    def restore(self) -> None:
        if self.stalled:
            # What was sent while stalled was dropped: those connections are out of step with the
            # server, so they go as in a cut (the listener is closed and opened again below).
            self.cut()
            with self.lock:
                self.stalled = False
        with self.lock:
            self.down = False
        self.listener = self._listen(self.port)
        self._serve()

    def close(self) -> None:
        self.cut()


def rebuild_pool() -> None:
    connection.close()
    if getattr(connection, "pool", None) is not None:
        connection.close_pool()


@pytest.fixture
def outage(monkeypatch):
    """Django's connections go through the proxy; the pool waits two seconds for a connection (not
    DB_POOL_TIMEOUT's ten), so a request during the outage answers promptly."""
    settings_dict = connection.settings_dict
    proxy = Outage(settings_dict.get("HOST") or "127.0.0.1", int(settings_dict.get("PORT") or 5432))
    monkeypatch.setitem(settings_dict, "HOST", "127.0.0.1")
    monkeypatch.setitem(settings_dict, "PORT", str(proxy.port))
    options = settings_dict["OPTIONS"]
    if "pool" in options:
        monkeypatch.setitem(options, "pool", {**options["pool"], "timeout": 2})
    rebuild_pool()
    yield proxy
    proxy.close()
    rebuild_pool()
    monkeypatch.undo()  # the flush after the test goes straight to PostgreSQL
    rebuild_pool()


def is_json_error(response, status: int, code: str) -> bool:
    return (
        response.status_code == status
        and response["Content-Type"].startswith("application/json")
        and response.json()["code"] == code
        and bool(response.json()["detail"])
    )


def test_requests_during_an_outage_answer_503_and_after_it_the_same_requests_are_served(outage, duel, alice):
    match, clients = duel
    before = event_count(match)
    command = next_move(clients, match)
    page = Client(raise_request_exception=False)
    page.force_login(alice)
    assert page.get(f"/matches/{match.id}/").status_code == 200  # through the proxy, before the cut

    outage.cut()
    cut_at = time.monotonic()
    posted = send(match, command)
    read = clients[0].get(f"/api/matches/{match.id}/")
    shown = page.get(f"/matches/{match.id}/")
    anonymous = Client(raise_request_exception=False).get("/")
    # Several seconds down: long enough that a reconnection backing off 1, 2, 4 ... seconds would
    # make its next try up to 7 s after the return, past the pool's two-second wait below.
    time.sleep(max(0.0, 9.0 - (time.monotonic() - cut_at)))
    outage.restore()

    assert is_json_error(posted, 503, "database_unavailable"), (posted.status_code, posted.content[:300])
    assert posted["Retry-After"]
    assert is_json_error(read, 503, "database_unavailable"), (read.status_code, read.content[:300])
    for response in (shown, anonymous):
        # A page says what happened and when to come back, not "server error".
        assert response.status_code == 503, (response.status_code, response.content[:300])
        assert response["Retry-After"]
        assert b"database is briefly unavailable" in response.content
    assert event_count(match) == before  # nothing was written

    # Back: the same command (the same event_id, as a client retries after a 503) lands, once.
    retried = send(match, command)
    assert retried.status_code == 201, (retried.status_code, retried.content[:300])
    assert event_count(match) == before + 1
    assert send(match, command).status_code == 200  # the stored event again, not a second one
    assert event_count(match) == before + 1
    assert clients[0].get(f"/api/matches/{match.id}/").status_code == 200
    assert page.get(f"/matches/{match.id}/").status_code == 200


def test_an_outage_between_the_append_and_the_commit_writes_nothing(outage, duel, monkeypatch):
    match, clients = duel
    before = event_count(match)
    append = eventstore.events_append

    def append_then_lose_the_database(**kwargs):
        rows = append(**kwargs)
        outage.cut()
        return rows

    monkeypatch.setattr(eventstore, "events_append", append_then_lose_the_database)
    command = next_move(clients, match)
    response = send(match, command)
    monkeypatch.setattr(eventstore, "events_append", append)
    assert outage.cuts == 1, "the database was never cut: the test did not test anything"
    also_refused = send(match, next_move_blind(clients, command))
    outage.restore()

    assert is_json_error(response, 503, "database_unavailable"), (response.status_code, response.content[:300])
    assert is_json_error(also_refused, 503, "database_unavailable")
    assert event_count(match) == before
    assert not OutboxMessage.objects.filter(delivered_at__isnull=True).exists()
    assert send(match, command).status_code == 201
    assert event_count(match) == before + 1


def next_move_blind(clients, command) -> tuple:
    # While the database is down the match cannot be read: the same move under a new event_id.
    client, body = command
    return client, {**body, "event_id": str(uuid.uuid4())}


def test_what_a_command_committed_just_before_an_outage_is_delivered_after_it(outage, duel, monkeypatch):
    match, clients = duel
    before = event_count(match)
    deliver = outbox._deliver_quietly
    undelivered = []

    def lose_the_database_then_deliver(message_id, *held):
        # After the commit (transaction.on_commit), before the view answers: the database goes away.
        if not undelivered:
            outage.cut()
            undelivered.append(message_id)
        deliver(message_id, *held)

    monkeypatch.setattr(outbox, "_deliver_quietly", lose_the_database_then_deliver)
    command = next_move(clients, match)
    response = send(match, command)
    monkeypatch.setattr(outbox, "_deliver_quietly", deliver)
    assert undelivered, "the database was never cut: the test did not test anything"
    # The beat's sweep during the outage fails as a task (the next tick retries) and changes nothing.
    with pytest.raises(OperationalError):
        outbox.outbox_sweep()
    outage.restore()

    assert response.status_code == 201, (response.status_code, response.content[:300])  # it committed
    assert event_count(match) == before + 1
    assert OutboxMessage.objects.get(pk=undelivered[0]).delivered_at is None
    assert outbox.outbox_sweep() >= 1
    assert OutboxMessage.objects.get(pk=undelivered[0]).delivered_at is not None
    assert not OutboxMessage.objects.filter(delivered_at__isnull=True).exists()


def test_a_verification_that_met_the_outage_is_sent_again_and_ends_verified(outage):
    match = autoplay_match(game="dueling-wizards", seats=2)
    assert match.status == Match.Status.FINISHED
    # As if its task had not run yet, and the match had ended longer ago than the requeue waits.
    Match.objects.filter(pk=match.pk).update(
        verdict=Match.Verdict.PENDING,
        verified_at=None,
        finished_at=timezone.now() - timedelta(seconds=REQUEUE_AFTER_SECONDS + 1),
    )
    events = Event.objects.filter(stream_id=match.stream_id).count()

    outage.cut()
    # The task asks to be tried again (a worker would, after its backoff); here the outage outlasts it.
    with pytest.raises(Retry):
        verify_match.apply(args=(str(match.pk),), throw=True)
    connection.close()  # as a Celery worker does after every task (its Django fixup)
    outage.restore()

    assert Match.objects.get(pk=match.pk).verdict == Match.Verdict.PENDING  # nothing half-written
    assert requeue_unverified() == 1  # the beat's requeue finds it and sends it again
    assert Match.objects.get(pk=match.pk).verdict == Match.Verdict.VERIFIED
    assert Event.objects.filter(stream_id=match.stream_id).count() == events
