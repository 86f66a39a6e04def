"""An action POST's own cost, in process: CPU, wall time and queries per POST, against a bare
event-store append of the same event in the same run (issue 17, P5).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels \
        .venv/bin/python benchmarks/bench_action_post.py [--posts 200] [--matches 10] [--warmup 20] \
        [--layer memory|redis] [--debug] [--profile [--top 40] [--profile-out FILE]]

People playing Dueling Wizards through the REST API, as bench_live_fanout.py's client does: two
accounts per match, a token each, ``POST /api/matches/<id>/actions/`` with the seat, the head
it was based on, a new event_id and the first legal action. The POSTs go through Django's test
client (the whole middleware stack, DRF, token authentication, the command, its commit and the
outbox's first delivery of the broadcast, which is sent to nobody: no socket is open), on a
scratch test database on the given PostgreSQL that the run creates and drops. ``--layer``: the
broadcast's channel layer, Channels' in-memory one (default) or the project's Redis layer on
``REDIS_URL``. Choosing the next move (a read of the match and its legal actions) is outside the
measured region; a match that ends is replaced by a new one, also outside it.

The baseline, taken in turns with the POSTs (which goes first alternates): the same event's data
appended to a stream of its own the event store's plain way (one transaction: lock the stream,
check the expected seq, hash, insert, move the head), with no HTTP, no match and no broadcast.

Reported per POST and per baseline append: CPU (``time.process_time``, this process: the
client's and the server's Python alike), wall (``time.perf_counter``) and queries (counted by an
execute wrapper, ``BEGIN``/``COMMIT`` excepted, as Django issues them through the connection,
not the cursor); medians, quartiles, and the ratio of the medians besides the median of the
per-turn ratios. ``--profile``: the POSTs run again under cProfile afterwards (the timed run is
not profiled) and the top entries, in CPU time, are printed by own time and by cumulative time;
``--profile-out FILE`` also writes that profile for pstats (its callers, say). Beside this
process's CPU, each side's "PostgreSQL CPU": what every process named postgres on the machine
spent on a CPU during the turn (``/proc/PID/schedstat``, nanoseconds), the backend's parsing,
planning and executing and the WAL's flushing alike. It is only the POST's on an otherwise idle
server, and it runs on the same cores as the web processes.
DEBUG is off, as in production (``--debug`` turns it on, as every run before session 29 had it).

``--instructions K``: instead, the instructions this process runs per POST and per baseline append
under ``valgrind --tool=callgrind`` (bench_replay_callgrind.py's runner), which the machine's load
does not change. The POSTs are recorded once (``--warmup`` and K more, none ending a match), on a
database copied first; each counted child starts from its own copy of that database (PostgreSQL's
``CREATE DATABASE ... TEMPLATE``) and sends the recorded POSTs, or appends their events, the
warm-up's alone in one child and the warm-up's and K more in another: the difference over K is
one POST's (or append's) instructions, choosing the moves left out. Only this process is counted
(the client's and the server's Python), not PostgreSQL's or Redis's, nor the kernel's.

To compare with another commit, export it and run its copy of this file from the export's own
directory: Celery's Django fix-up puts the working directory first on ``sys.path`` at start-up,
so a copy run from here measures this tree's ``matches``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import os
import pstats
import secrets
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--posts", type=int, default=200, help="timed POSTs (and as many baseline appends)")
parser.add_argument("--matches", type=int, default=10, help="matches played side by side, a POST each in turn")
parser.add_argument("--warmup", type=int, default=20, help="untimed POSTs first (imports, URL resolution, caches)")
parser.add_argument("--layer", choices=["memory", "redis"], default="memory")
parser.add_argument(
    "--via",
    choices=["client", "asgi"],
    default="client",
    help="Django's test client, or the server's ASGI application (config/asgi.py) called in process",
)
parser.add_argument(
    "--debug", action="store_true", help="run with DEBUG on, as rounds before session 29 did (off: as in production)"
)
parser.add_argument("--profile", action="store_true", help="then profile as many POSTs again")
parser.add_argument("--top", type=int, default=40, help="profile entries to print")
parser.add_argument(
    "--profile-out", metavar="FILE", help="with --profile: also write the profile there (pstats' format)"
)
parser.add_argument("--instructions", type=int, metavar="K", help="count instructions per POST under callgrind instead")
parser.add_argument("--child", nargs=2, metavar=("SIDE", "FILE"), help=argparse.SUPPRESS)
args = parser.parse_args()

if args.child:
    # A counted child: its own copy of the recorded database, named in its file.
    os.environ["DATABASE_URL"] = json.loads(Path(args.child[1]).read_text())["database_url"]

# As production and bench_live_fanout.py's daphnes run: DEBUG on adds its own per-request work
# (query logging among it), which is no part of what a POST costs a player.
os.environ.update({"DEBUG": "true"} if args.debug else {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)})

if args.layer == "memory":
    # Read by config/settings.py: without a Redis URL the channel layer is the in-memory one.
    os.environ["REDIS_URL"] = ""

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402

from benchmarks._moves import first_legal_action_body  # noqa: E402
from benchmarks._proc_cpu import cpu_by_name  # noqa: E402

APPEND_STREAM = "bench:append"


class Counter:
    """Counts the statements sent through the connection's cursors."""

    def __init__(self):
        self.n = 0

    def __call__(self, execute, sql, params, many, context):
        self.n += 1
        return execute(sql, params, many, context)


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4)
    return q[0], statistics.median(values), q[2]


def main() -> None:
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    if args.child:
        child(*args.child)
        return
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run()
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)


def client_poster():
    """A POST through Django's test client, refused unless it is answered 201."""
    client = Client()

    def post(token, url, body) -> None:
        response = client.post(url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}")
        if response.status_code != 201:
            raise SystemExit(f"POST {url}: {response.status_code} {response.content[:300]!r}")

    return post


def append(body, seq: int) -> None:
    """The baseline: the event's data appended the event store's plain way at ``seq``."""
    from matches import eventstore

    with transaction.atomic():
        stream = eventstore.stream_lock(stream_id=APPEND_STREAM)
        eventstore.check_expected_seq(stream=stream, expected_seq=seq)
        eventstore.events_append(
            stream=stream,
            new_events=[
                eventstore.NewEvent(type="action", data={"seat": body["seat"], "action": body["action"]}, actor="bench")
            ],
        )


def child(side: str, path: str) -> None:
    """A counted run: the file's first ``n`` recorded POSTs sent (``side`` "post") or their events
    appended ("append"), on the file's copy of the database."""
    spec = json.loads(Path(path).read_text())
    post = asgi_poster() if args.via == "asgi" else client_poster()
    # As a server process runs (config/asgi.py): what start-up loaded is frozen out of collection.
    gc.collect()
    gc.freeze()
    for seq, (token, url, body) in enumerate(spec["posts"][: spec["n"]]):
        if side == "post":
            post(token, url, body)
        else:
            append(body, seq)


def asgi_poster():
    """A POST through the ASGI application daphne serves (config/asgi.py: its request threads,
    the middleware as Django adapts it for ASGI, the view), on an event loop of its own thread, as
    daphne's: what the test client leaves out besides the HTTP parsing. Its queries run on the
    request threads' connections, which the counter (this thread's) does not see."""
    from config.asgi import application

    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    async def call(token, url, body):
        raw = json.dumps(body).encode()
        headers = [
            (b"host", b"localhost"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(raw)).encode()),
            (b"authorization", f"Token {token}".encode()),
        ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": url,
            "raw_path": url.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        messages = [{"type": "http.request", "body": raw, "more_body": False}]
        answer = {"body": b""}

        async def receive():
            if messages:
                return messages.pop()
            await asyncio.Future()  # the client never goes away: Django stops listening when it answers

        async def send(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            else:
                answer["body"] += message.get("body", b"")

        await application(scope, receive, send)
        return answer

    def post(token, url, body) -> None:
        answer = asyncio.run_coroutine_threadsafe(call(token, url, body), loop).result()
        if answer.get("status") != 201:
            raise SystemExit(f"POST {url}: {answer.get('status')} {answer['body'][:300]!r}")

    return post


def run() -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from engines import registry
    from matches.models import Match, Stream
    from matches.services import SeatSpec, match_create

    engine = registry.get("dueling-wizards")
    User = get_user_model()

    def new_match():
        a = User.objects.create_user(f"a{uuid.uuid4().hex[:10]}", password="x")
        b = User.objects.create_user(f"b{uuid.uuid4().hex[:10]}", password="x")
        m = match_create(game="dueling-wizards", seats=[SeatSpec(user=a), SeatSpec(user=b)], created_by=a)
        return [m.pk, [Token.objects.create(user=a).key, Token.objects.create(user=b).key]]

    def next_move(game, replace: bool = True):
        """(token, url, body) of the next POST of ``game``; a finished match is replaced first."""
        while True:
            m = Match.objects.get(pk=game[0])
            to_move = [s for s in engine.to_move(m.state) if s >= 0]
            if to_move:
                break
            if not replace:
                raise SystemExit("a match ended while the POSTs were recorded: give --matches more, or K fewer")
            game[:] = new_match()
        seat = to_move[0]
        body = first_legal_action_body(engine, m, seat)
        return game[1][seat], f"/api/matches/{game[0]}/actions/", body

    t0 = time.perf_counter()
    games = [new_match() for _ in range(args.matches)]
    print(f"setup: {args.matches} matches in {time.perf_counter() - t0:.1f} s", flush=True)

    post = asgi_poster() if args.via == "asgi" else client_poster()
    Stream.objects.create(id=APPEND_STREAM, kind="bench")
    if args.instructions:
        count_instructions(games, next_move, post, args.instructions)
        return

    base_seq = 0
    t0 = time.perf_counter()
    for i in range(args.warmup):
        post(*next_move(games[i % len(games)]))
        append(next_move(games[i % len(games)])[2], base_seq)
        base_seq += 1
    print(f"warm-up: {args.warmup} POSTs and appends in {time.perf_counter() - t0:.1f} s", flush=True)

    counter = Counter()
    sides = {side: {"cpu": [], "wall": [], "queries": [], "postgres": []} for side in ("post", "append")}

    def timed(side: str, fn, *fn_args) -> None:
        counter.n = 0
        # Read outside this process's own measure: the listing of /proc is the bench's, not the POST's.
        pg0 = cpu_by_name(("postgres",))["postgres"]
        w0, c0 = time.perf_counter(), time.process_time()
        fn(*fn_args)
        c1, w1 = time.process_time(), time.perf_counter()
        pg1 = cpu_by_name(("postgres",))["postgres"]
        sides[side]["cpu"].append((c1 - c0) * 1000)
        sides[side]["wall"].append((w1 - w0) * 1000)
        sides[side]["queries"].append(counter.n)
        sides[side]["postgres"].append((pg1 - pg0) * 1000)

    # As a server process runs (config/asgi.py): what start-up loaded is frozen out of collection.
    gc.collect()
    gc.freeze()
    step = max(1, args.posts // 10)
    t0 = time.perf_counter()
    with connection.execute_wrapper(counter):
        for i in range(args.posts):
            token, url, body = next_move(games[i % len(games)])
            turns = [("post", post, token, url, body), ("append", append, body, base_seq)]
            for side, fn, *fn_args in turns if i % 2 == 0 else reversed(turns):
                timed(side, fn, *fn_args)
            base_seq += 1
            if (i + 1) % step == 0:
                done = sides["post"]["cpu"]
                print(
                    f"  {i + 1:5d}/{args.posts}  POST CPU median so far {statistics.median(done):6.2f} ms"
                    f"  ({time.perf_counter() - t0:.1f} s)",
                    flush=True,
                )

    post_s, base_s = sides["post"], sides["append"]
    print()
    print(
        f"{args.posts} action POSTs (Dueling Wizards, {args.layer} channel layer, through the {args.via})"
        " and as many appends, in turns"
    )
    print(f"{'':28} {'q1':>8} {'median':>8} {'q3':>8} {'mean':>8}")
    for label, values in (
        ("POST CPU ms", post_s["cpu"]),
        ("POST wall ms", post_s["wall"]),
        ("POST queries", post_s["queries"]),
        ("POST PostgreSQL CPU ms", post_s["postgres"]),
        ("append CPU ms", base_s["cpu"]),
        ("append wall ms", base_s["wall"]),
        ("append queries", base_s["queries"]),
        ("append PostgreSQL CPU ms", base_s["postgres"]),
    ):
        q1, med, q3 = quartiles(values)
        print(f"  {label:26} {q1:8.2f} {med:8.2f} {q3:8.2f} {statistics.fmean(values):8.2f}")
    for what in ("cpu", "wall"):
        per_turn = [p / b for p, b in zip(post_s[what], base_s[what]) if b > 0]
        print(
            f"  POST / append, {what:4}: {statistics.median(post_s[what]) / statistics.median(base_s[what]):5.2f}x"
            f" the medians; median of the turns {statistics.median(per_turn):5.2f}x"
        )

    if args.profile:
        # CPU time, not wall: a POST waits on PostgreSQL for about half its wall time.
        profiler = cProfile.Profile(time.process_time)
        for i in range(args.posts):
            move = next_move(games[i % len(games)])
            profiler.enable()
            post(*move)
            profiler.disable()
        if args.profile_out:
            profiler.dump_stats(args.profile_out)
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(args.top)
            print(f"\nprofile of {args.posts} POSTs, by {order}:")
            print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:20000])


def count_instructions(games, next_move, post, more: int) -> None:
    """``--instructions``: record the POSTs on the database as it is, then count them in children,
    each on its own copy of it as it was (module docstring)."""
    import psycopg
    from bench_replay_callgrind import instructions_per_item

    url = os.environ["DATABASE_URL"]
    name = connection.settings_dict["NAME"]
    template, copy = f"{name}_start", f"{name}_run"
    # The copies are made on the server's maintenance database, with no session on their source.
    admin = psycopg.connect(urlsplit(url)._replace(path="/postgres").geturl(), autocommit=True)

    def copy_of(source: str, target: str) -> None:
        connection.close()
        if hasattr(connection, "close_pool"):
            connection.close_pool()
        admin.execute(f'DROP DATABASE IF EXISTS "{target}"')
        admin.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')

    try:
        copy_of(name, template)
        posts = []
        for i in range(args.warmup + more):
            move = next_move(games[i % len(games)], replace=False)
            post(*move)
            posts.append(move)
        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(tmp)
            run_url = urlsplit(url)._replace(path=f"/{copy}").geturl()
            files = {}
            for n in (args.warmup, args.warmup + more):
                files[n] = workdir / f"posts-{n}.json"
                files[n].write_text(json.dumps({"database_url": run_url, "n": n, "posts": posts}))
            extra = ("--layer", args.layer, "--via", args.via, *(["--debug"] if args.debug else []))
            counts = {
                side: instructions_per_item(
                    side,
                    (files[args.warmup], files[args.warmup + more]),
                    more,
                    workdir,
                    script=__file__,
                    extra=extra,
                    before_each=lambda: copy_of(template, copy),
                )
                for side in ("post", "append")
            }
        print(
            f"{more} action POSTs (Dueling Wizards, {args.layer} channel layer, through the {args.via}) after"
            f" {args.warmup}, instructions under callgrind (this process only):"
        )
        print(f"  POST   {counts['post']:14,.0f} a POST")
        print(f"  append {counts['append']:14,.0f} an append")
        print(f"  POST / append: {counts['post'] / counts['append']:.2f}x")
    finally:
        connection.close()
        for db in (copy, template):
            admin.execute(f'DROP DATABASE IF EXISTS "{db}"')
        admin.close()


if __name__ == "__main__":
    main()
