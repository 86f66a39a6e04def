"""Each HTTP request's sync code runs on a thread an earlier request left idle (config/asgi.py,
RequestThreads), not on a thread started for it from the event loop (issue 17, P5): one request at
a time per thread, as before, and a request that nested async and sync code still finishes."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import SyncToAsync, async_to_sync, sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_finished, request_started
from django.http import HttpResponse
from django.test import override_settings

from config.asgi import OneThreadASGIHandler, RequestThreads, application


def thread_app(seen: list, hold: asyncio.Event | None = None):
    """An app whose request records the thread its thread-sensitive sync code ran on."""

    async def app(scope, receive, send):
        def work():
            seen.append(threading.get_ident())
            # Sync code that calls async code that calls sync code again (Django's middleware).
            return seen[-1], async_to_sync(sync_to_async(threading.get_ident, thread_sensitive=True))()

        outer, inner = await sync_to_async(work, thread_sensitive=True)()
        assert inner == outer
        if hold is not None:
            await hold.wait()

    return app


def test_requests_one_after_another_run_on_one_thread_and_start_none():
    seen = []
    app = RequestThreads(thread_app(seen))

    async def three():
        for _ in range(3):
            await app({"type": "http"}, None, None)
        return threading.active_count()

    async def run():
        before = threading.active_count()
        await app({"type": "http"}, None, None)  # the first request's thread
        return before, await three()

    before, after = asyncio.run(run())
    assert len(set(seen)) == 1 and seen[0] != threading.get_ident()
    assert after == before + 1


def test_requests_at_once_each_have_a_thread_of_their_own():
    seen = []

    async def run():
        hold = asyncio.Event()
        app = RequestThreads(thread_app(seen, hold))
        first = asyncio.ensure_future(app({"type": "http"}, None, None))
        second = asyncio.ensure_future(app({"type": "http"}, None, None))
        while len(seen) < 2:
            await asyncio.sleep(0.01)
        hold.set()
        await asyncio.gather(first, second)
        # Both idle again: a third request takes one of them.
        await app({"type": "http"}, None, None)
        return len(app.idle)

    idle = asyncio.run(run())
    assert len(set(seen[:2])) == 2 and seen[2] in seen[:2] and idle == 2


def test_past_a_burst_only_so_many_idle_threads_are_kept():
    seen = []

    async def run():
        hold = asyncio.Event()
        app = RequestThreads(thread_app(seen, hold))
        app.IDLE_MAX = 2
        burst = [asyncio.ensure_future(app({"type": "http"}, None, None)) for _ in range(5)]
        while len(seen) < 5:
            await asyncio.sleep(0.01)
        hold.set()
        await asyncio.gather(*burst)
        return app.idle

    idle = asyncio.run(run())
    assert len(set(seen)) == 5 and len(idle) == 2


def test_a_request_whose_app_raises_leaves_its_thread_to_the_next():
    seen = []

    async def failing(scope, receive, send):
        await sync_to_async(lambda: seen.append(threading.get_ident()), thread_sensitive=True)()
        raise RuntimeError("boom")

    async def run():
        app = RequestThreads(failing)
        with pytest.raises(RuntimeError):
            await app({"type": "http"}, None, None)
        app.app = thread_app(seen)
        await app({"type": "http"}, None, None)

    asyncio.run(run())
    assert seen[0] == seen[1]


def http_scope(path: str) -> dict:
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 1234),
        "http_version": "1.1",
        "root_path": "",
    }


async def get(path: str) -> int:
    """The status of a GET of ``path`` through the server's ASGI application."""
    communicator = ApplicationCommunicator(application, http_scope(path))
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(30)
    while (await communicator.receive_output(30)).get("more_body"):
        pass
    return start["status"]


@pytest.mark.django_db(transaction=True)
def test_the_servers_http_requests_go_through_request_threads():
    names = []

    def started(**kwargs):
        names.append(threading.current_thread().name)

    async def run():
        return [await get("/api/engines/") for _ in range(3)]

    request_started.connect(started)
    try:
        statuses = asyncio.run(run())
    finally:
        request_started.disconnect(started)
    # Django's own context would have started a "ThreadPoolExecutor-..." thread per request.
    assert statuses == [200, 200, 200]
    assert len(names) == 3 and len(set(names)) == 1 and names[0].startswith("request"), names


@pytest.mark.django_db(transaction=True)
def test_a_request_crosses_to_its_thread_once_for_its_start_its_view_and_its_end(monkeypatch):
    # Loaded for ASGI, Django's middleware ran each of its sync hooks (sessions, CSRF,
    # authentication...) through sync_to_async of its own: a dozen crossings from the loop to the
    # request's thread and back per request, and Django's handler crossed twice more, for the
    # request_started receivers and for the response's close (issue 17, P5). Now one crossing.
    crossed = []
    original = SyncToAsync.__init__

    def recording(self, func, *args, **kwargs):
        crossed.append(getattr(func, "__name__", type(func).__name__))
        original(self, func, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__init__", recording)
    assert asyncio.run(get("/api/engines/")) == 200
    assert asyncio.run(get("/api/no-such-thing/")) == 404
    assert crossed == ["_serve", "_serve"], crossed


@pytest.mark.django_db(transaction=True)
def test_the_requests_end_has_run_on_its_thread_before_its_answer_is_sent():
    # request_finished gives the database connection back to its pool: before the answer goes
    # out, so a connection is not held while the loop sends.
    seen = []

    def started(**kwargs):
        seen.append(("started", threading.current_thread().name))

    def finished(**kwargs):
        seen.append(("finished", threading.current_thread().name))

    async def run():
        communicator = ApplicationCommunicator(application, http_scope("/api/engines/"))
        await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await communicator.receive_output(30)
        seen.append(("sent", start["status"]))
        while (await communicator.receive_output(30)).get("more_body"):
            pass

    request_started.connect(started)
    request_finished.connect(finished)
    try:
        asyncio.run(run())
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)
    assert [what for what, _ in seen] == ["started", "finished", "sent"], seen
    assert seen[0][1] == seen[1][1] and seen[0][1].startswith("request"), seen


class Probe(OneThreadASGIHandler):
    """The server's handler with a view that holds its thread until released, counting how many
    requests run their sync code at once."""

    def __init__(self):
        super().__init__()
        self.lock, self.release = threading.Lock(), threading.Event()
        self.running = self.peak = self.served = 0

    def get_response(self, request):
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        self.release.wait(30)
        with self.lock:
            self.running -= 1
            self.served += 1
        return HttpResponse("ok")


def post_scope() -> dict:
    scope = http_scope("/api/anything/")
    return {**scope, "method": "POST", "headers": [*scope["headers"], (b"content-type", b"application/json")]}


async def until(condition) -> None:
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


@override_settings(WEB_REQUEST_THREADS=2)
def test_no_more_requests_than_the_limit_run_their_views_at_once_and_every_one_is_answered():
    # Fifty POSTs at once ran their views interleaved under the GIL, all finishing near the end of
    # the burst (issue 17, P5); past the limit a request waits for a turn, and loses nothing.
    probe = Probe()

    async def run():
        talks = [ApplicationCommunicator(probe, post_scope()) for _ in range(5)]
        for talk in talks:
            await talk.send_input({"type": "http.request", "body": b"{}", "more_body": False})
        await until(lambda: probe.running == 2)
        await asyncio.sleep(0.2)  # time for a third to start, were it allowed to
        waiting = probe.running
        probe.release.set()
        statuses = [(await talk.receive_output(30))["status"] for talk in talks]
        return waiting, statuses

    waiting, statuses = asyncio.run(run())
    assert waiting == 2 and probe.peak == 2
    assert statuses == [200] * 5 and probe.served == 5


@override_settings(WEB_REQUEST_THREADS=1)
def test_a_client_sending_its_body_slowly_holds_no_turn_from_the_others():
    probe = Probe()
    probe.release.set()

    async def run():
        slow = ApplicationCommunicator(probe, post_scope())
        await slow.send_input({"type": "http.request", "body": b"{", "more_body": True})
        await asyncio.sleep(0.1)
        quick = ApplicationCommunicator(probe, post_scope())
        await quick.send_input({"type": "http.request", "body": b"{}", "more_body": False})
        status = (await quick.receive_output(30))["status"]
        await slow.send_input({"type": "http.request", "body": b"}", "more_body": False})
        return status, (await slow.receive_output(30))["status"]

    assert asyncio.run(run()) == (200, 200)
    assert probe.served == 2
