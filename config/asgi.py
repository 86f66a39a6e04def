import asyncio
import contextvars
import gc
import os
import weakref

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)


class OneThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler, with a request served as under WSGI: the request's start, its
    middleware and view, and its end in one call on the request's thread.

    Loaded for ASGI, every middleware that can run async does, and Django's own (sessions, CSRF,
    authentication, messages...) then run each of their sync hooks through ``sync_to_async``: an
    action POST crossed from the event loop to its thread and back about a dozen times, each
    crossing a turn of the loop that waits behind every socket's frames, and about 2 ms of CPU
    over the test client's path (issue 17, P5; ``bench_action_post.py --via asgi``). Django's
    handler also crosses once for the ``request_started`` signal's receivers and once more for
    the response's ``close`` (``request_finished``): about 0.1 ms of CPU each, and a turn of the
    loop before the view could start. Here the one crossing does all three, and the database
    connection goes back to its pool before the response is sent. Nothing here awaits anything
    but the body and the sending: the views are sync, and the sockets have their own consumers.
    A streaming response (none of ours; the static files have their own handler) is closed
    after it is sent, as Django does. A client that leaves once its body is in still has its
    request served, as under WSGI (Django's handler cancels the view's task, which stops nothing
    once a sync view runs)."""

    def __init__(self):
        super().__init__()
        #: Per event loop (a process has one; tests run several), the turns to run sync code.
        self._slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def handle(self, scope, receive, send):
        try:
            body = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            set_script_prefix(get_script_prefix(scope))
            # At most WEB_REQUEST_THREADS requests run their sync code at once; the rest wait
            # here, on the event loop, in the order they came. The sync code holds the GIL for
            # most of its time (an action POST: about 5.5 ms of CPU in 8 ms), so more threads add
            # no throughput: fifty POSTs at once ran interleaved and all finished near the end of
            # the burst, while the loop's frames queued for the GIL behind them (issue 17, P5).
            # The wait comes after the body is read, so a client that sends its body slowly
            # holds no turn, and the response is sent after its turn is given back.
            loop = asyncio.get_running_loop()
            slots = self._slots.get(loop)
            if slots is None:
                slots = self._slots[loop] = asyncio.Semaphore(settings.WEB_REQUEST_THREADS)
            async with slots:
                response = await sync_to_async(self._serve, thread_sensitive=True)(scope, body)
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                pass  # the client went away while it was sent
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body.close()

    def _serve(self, scope, body):
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
        if not response.streaming:
            response.close()  # request_finished: the connection back to its pool
        return response


django_asgi_app = OneThreadASGIHandler()

from concurrent.futures import ThreadPoolExecutor  # noqa: E402

from asgiref.sync import ThreadSensitiveContext  # noqa: E402
from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry loaded)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.urls import re_path, reverse  # noqa: E402

from config.middleware import SocketOpenThrottle  # noqa: E402
from engines import registry  # noqa: E402
from league.routing import websocket_urlpatterns as league_websockets  # noqa: E402
from matches import live  # noqa: E402
from matches.consumers import NotFoundConsumer  # noqa: E402
from matches.routing import websocket_urlpatterns as match_websockets  # noqa: E402

# The URLconf (every view module and what it imports) loads, and its patterns compile, on the
# first reverse or resolve: left to the first request, that was 1.2-1.5 s of it on a new process,
# and of every request arriving with it (they wait on the import lock and the GIL; the live
# fan-out benchmark's first round at 10 x 100: p99 2.2-2.4 s against 0.4-0.8 s for the next
# rounds). Done here, a new process pays it before it serves. In a context of its own: each of
# the 22 resolvers marks its loading in an asgiref Local, a context variable, and set in the
# process's own context those 22 values were inherited by every task after it, and re-made
# (asgiref re-homes every Local's value) in a task's context by each sync_to_async that returns
# to it: ~70 objects kept per open socket, a quarter of what every full garbage collection walked
# per socket (issue 17, P5). The loaded patterns are on the resolvers themselves, not in the Local.
contextvars.copy_context().run(reverse, "login")

#: Objects the youngest generation holds before it is collected (CPython's default is 700).
GC_YOUNG_THRESHOLD = 10_000

# Every engine and its data (a content pack, its boards), which a process otherwise loaded on its
# first game, as part of that request: loaded now, they are frozen below with the rest.
registry.preload()

# Garbage collection in a server process (issue 17, P5). A full collection walks every object the
# collector tracks, with the GIL held, so every request and every socket of the process waits for
# it. In daphne with 1,000 sockets that was the ~170,000 objects loaded at start-up and ~300 per
# socket: 230-350 ms, and the live fan-out benchmark's slow rounds were the rounds with a full
# collection in them (10 x 100, p99 by round: 149, 146, then 404 ms with one of 227 ms). So:
# - what start-up loaded (modules, the URLconf, the engines) lives as long as the process: it is
#   frozen, and no collection walks it again (its garbage is collected first, not kept);
# - the youngest generation is larger: a frame's fan-out keeps thousands of short-lived objects
#   alive at once (each socket's message and the task steps that pass it on), and with 700 every
#   young collection moved them on to the older generations, whose growth is what sets off a full
#   collection. At 50 x 20, eight rounds of 50 POSTs: a full collection in four rounds with 700
#   (252-335 ms each), in none with 10,000, whose young collections take 6-10 ms.
gc.collect()
gc.freeze()
gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])

# The broadcast sender's Redis connections, opened before the first broadcasts would open them one
# after another (matches/live.py, warm_sender): as many as send at once, a request per database
# connection of the pool, each broadcast's sends pipelined on one connection at a time
# (``layers.group_send_all``). Nothing waits for it, so a Redis that is down at start-up holds
# nothing up.
live.warm_sender(sends=settings.DATABASES["default"].get("OPTIONS", {}).get("pool", {}).get("max_size", 10))


class RequestThreads:
    """Runs each HTTP request's sync code on a thread kept from an earlier request, not a new one.

    Django's ASGIHandler gives every request a ThreadSensitiveContext of its own, so asgiref starts
    a thread for it and a second thread to join the first at its end. Both are started from the
    event loop, and Thread.start waits until the new thread has run, which needs the GIL: while
    request threads were busy the loop stood still there, up to a switch interval each time
    (py-spy on daphne in the live fan-out benchmark at 50 x 20: a fifth of the loop's samples in
    Thread.start, with the frames of every other move waiting behind it). Here an outer context
    hands each request a one-thread executor that a finished request left idle (asgiref's
    ThreadSensitiveContext(executor=...); Django's own context inside it then adds nothing). A
    request still has its thread to itself while it runs, as before; between requests the thread
    is reused, as in a threaded WSGI server (the database connection goes back to its pool at
    each request's end either way)."""

    #: Idle threads kept; past a burst, the rest end (each ends once its request's work is done).
    IDLE_MAX = 32

    def __init__(self, app):
        self.app = app
        self.idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope, receive, send):
        executor = self.idle.pop() if self.idle else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            # A request cancelled while its sync code runs leaves that code running: the next
            # request on this executor waits for it, as its one worker takes one call at a time.
            if len(self.idle) < self.IDLE_MAX:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)


# Plain `daphne config.asgi:application` serves static files itself when asked to (a
# first run, the browser tests); production puts them behind a CDN or a web server.
http_app = RequestThreads(ASGIStaticFilesHandler(django_asgi_app) if settings.SERVE_STATIC else django_asgi_app)

application = ProtocolTypeRouter(
    {
        "http": http_app,
        # Anything else (a non-UUID match id, a path that does not exist) is closed with 4404, not a traceback.
        # Origins first (a foreign page's opens are refused, not counted), then opens per address.
        "websocket": AllowedHostsOriginValidator(
            SocketOpenThrottle(
                AuthMiddlewareStack(
                    URLRouter(match_websockets + league_websockets + [re_path(r"", NotFoundConsumer.as_asgi())])
                )
            )
        ),
    }
)
