"""Live fan-out under load: an action POSTed to daphne until its frame reaches every spectator,
against a bare channels-redis group_send of a frame of the same size to the same sockets, in the
same run (issue 17, P5).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels REDIS_URL=redis://127.0.0.1:6379/11 \
        .venv/bin/python benchmarks/bench_live_fanout.py [--layout 10x100 --layout 50x20] [--moves 4] \
        [--clients 4] [--setup core:1 --setup pubsub:2]

For each layout MATCHESxSPECTATORS: that many Dueling Wizards matches between two people, each
watched by that many anonymous websockets on the loopback (a daphne on a scratch database and
the Redis channel layer). Then ``--moves`` rounds: in each, one action is POSTed to every match
at once (the REST API, a token per player), and every socket's arrival time of the frame with
the new event is recorded; then the baseline, one bare ``group_send`` per match of a frame of the
same size (the last frame's length, padded), timed the same way. Reported: p50 and p99 of the
latencies, their ratio to the baseline, and frames missed (an event a socket never received) or
repeated (an event a socket received twice), and the CPU the daphnes, the clients and the
services (PostgreSQL, Redis: every process of theirs on the machine) spent in each phase: on a
machine with two cores a burst's latency follows the CPU all of them spend on it. Bounded: ``--timeout`` seconds per round, and the
socket count is the layout's.

The spectators' sockets are spread over ``--clients`` processes (round robin), away from the one
that POSTs and sends the baseline: 1,000 sockets read by one Python process on this 2-core machine
take long enough to read their frames that the client's own queue shows in both latencies. Every
time is ``time.monotonic`` (one clock across processes on Linux). ``--setup LAYER:SERVERS`` (may
repeat): the channel layer of the daphnes and of the baseline, ``core`` (channels-redis'
RedisChannelLayer, one list per channel), ``project`` (the project's layer, config/settings.py:
``matches.layers``, that list layer with one reader per process handing messages to the sockets)
or ``pubsub`` (its RedisPubSubChannelLayer, one PUBLISH per group), and how many daphne processes
share the sockets (round robin) and the POSTs (by match). Each setup runs every layout with its own
baseline. The issue's comparison is the project on its layer against a bare send on stock
channels-redis: by default both setups run (``--setup core:1 --setup project:1``), and a last line
per layout sets the project's latencies on ``project`` against the bare send's on ``core``.
The daphnes run with DEBUG off, as in production; ``--debug`` turns it on, as every round before
session 12 ran them.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import concurrent.futures
import json
import multiprocessing
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/11")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from benchmarks._moves import first_legal_action_body  # noqa: E402
from benchmarks._proc_cpu import cpu_by_name  # noqa: E402


class Watcher:
    """One spectator socket (a minimal RFC 6455 client on asyncio streams: daphne's autobahn is
    bound to Twisted in this process): records when each event seq and baseline marker arrived."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.seen, self.markers, self.frames, self.last_size = {}, {}, 0, 0

    def on_message(self, payload: bytes) -> None:
        now = time.monotonic()
        frame = json.loads(payload)
        self.frames += 1
        self.last_size = len(payload)
        if "bench" in frame:
            self.markers.setdefault(frame["bench"], []).append(now)
        for event in frame.get("events", []):
            self.seen.setdefault(event["seq"], []).append(now)

    def send(self, opcode: int, data: bytes = b"") -> None:
        mask = os.urandom(4)  # a client masks every frame it sends
        self.writer.write(
            bytes([0x80 | opcode, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        )

    async def run(self) -> None:
        parts = []
        try:
            while True:
                head = await self.reader.readexactly(2)
                opcode, size = head[0] & 0x0F, head[1] & 0x7F
                if size == 126:
                    size = int.from_bytes(await self.reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await self.reader.readexactly(8), "big")
                data = await self.reader.readexactly(size)
                if opcode == 8:
                    return
                if opcode == 9:
                    self.send(10, data)  # pong
                elif opcode in (0, 1):
                    parts.append(data)
                    if head[0] & 0x80:
                        self.on_message(b"".join(parts))
                        parts = []
        except (asyncio.IncompleteReadError, ConnectionError):
            return

    def close(self) -> None:
        try:
            self.send(8, (1000).to_bytes(2, "big"))
        finally:
            self.writer.close()


async def open_socket(port: int, match_id) -> Watcher:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws/matches/{match_id}/?after=0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    if b" 101 " not in answer.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"websocket refused: {answer[:80]!r}")
    watcher = Watcher(reader, writer)
    watcher.task = asyncio.ensure_future(watcher.run())
    return watcher


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def db_url() -> str:
    db = connection.settings_dict
    return f"postgresql://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def post(port: int, token: str, match_id, body: dict) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/matches/{match_id}/actions/",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status


def checkpoints() -> int:
    """PostgreSQL's checkpoints so far, server-wide, to set beside a run's slowest POSTs: on the
    shared machine every test run's CREATE and DROP DATABASE asks for one (30 in half an hour,
    0.59 s of sync each on average, session 14), and a checkpoint's sync can hold up commits."""
    with connection.cursor() as cursor:
        if connection.pg_version >= 170000:  # the counters moved to a view of their own in 17
            cursor.execute("SELECT num_timed + num_requested FROM pg_stat_checkpointer")
        else:
            cursor.execute("SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter")
        return cursor.fetchone()[0]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


#: The channel layers a setup may name (``--setup``), by the backend's import path.
LAYERS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "project": "matches.layers.SharedReaderRedisChannelLayer",
}

#: Starts daphne with the project's settings but another channel layer backend (argv[1]), so a
#: setup is tried without a settings change: the settings module is imported and patched before
#: Django reads it.
DAPHNE_BOOT = (
    "import sys, config.settings as s; s.CHANNEL_LAYERS['default']['BACKEND'] = sys.argv.pop(1); "
    "from daphne.cli import CommandLineInterface; CommandLineInterface.entrypoint()"
)


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of these processes so far (Linux /proc): the servers' work,
    which unlike the latencies does not grow with the other load on the machine."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


#: The services the servers share the machine's cores with, by their process name.
SERVICES = ("postgres", "redis-server")


def services_since(start: dict[str, float]) -> str:
    now = cpu_by_name(SERVICES)
    return ", ".join(f"{name} {now[name] - start[name]:.2f}" for name in SERVICES)


def client_main(conn, sockets: list[tuple[int, str]]) -> None:
    """One client process: opens its share of the sockets ((port, match id) each), then answers
    the parent's requests over the pipe until told to close."""
    asyncio.run(client_loop(conn, sockets))


async def client_loop(conn, plan: list[tuple[int, str]]) -> None:
    watchers = [(match_id, await open_socket(port, match_id)) for port, match_id in plan]
    conn.send("ready")
    started_cpu = time.process_time()
    while True:
        request = await asyncio.to_thread(conn.recv)
        kind = request[0]
        if kind == "events":  # {match id: seq}: first arrival of that seq per socket, or None
            _, targets, timeout = request
            # A match that is over by this round had no move POSTed: its sockets wait for nothing.
            waiting = [(m, w) for m, w in watchers if m in targets]
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not all(targets[m] in w.seen for m, w in waiting):
                await asyncio.sleep(0.005)
            conn.send([(m, w.seen[targets[m]][0] if targets[m] in w.seen else None) for m, w in waiting])
        elif kind == "marker":
            _, marker, timeout = request
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not all(marker in w.markers for _, w in watchers):
                await asyncio.sleep(0.005)
            conn.send([(m, w.markers[marker][0] if marker in w.markers else None) for m, w in watchers])
        elif kind == "size":
            conn.send([max((w.last_size for _, w in watchers), default=0)])
        elif kind == "close":
            # Counted before the baseline's markers could add frames: those carry no events.
            repeated = sum(len(times) - 1 for _, w in watchers for times in w.seen.values())
            cpu = time.process_time() - started_cpu
            for _, w in watchers:
                w.close()
            conn.send((repeated, cpu))
            return


class Clients:
    """The client processes of one layout, asked together."""

    def __init__(self, count: int, plan: list[tuple[int, str]]):
        context = multiprocessing.get_context("spawn")  # the parent holds database connections
        self.pipes, self.processes = [], []
        for i in range(count):
            parent, child = context.Pipe()
            process = context.Process(target=client_main, args=(child, plan[i::count]), daemon=True)
            process.start()
            self.pipes.append(parent)
            self.processes.append(process)

    async def ask(self, request) -> list:
        for pipe in self.pipes:
            pipe.send(request)
        answers = await asyncio.gather(*(asyncio.to_thread(pipe.recv) for pipe in self.pipes))
        return [item for answer in answers for item in (answer if isinstance(answer, list) else [answer])]

    def stop(self) -> None:
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


async def run_layout(
    ports: list[int],
    pids: list[int],
    layer_name: str,
    matches: int,
    spectators: int,
    moves: int,
    timeout: float,
    clients: int,
) -> None:
    from asgiref.sync import sync_to_async
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.utils.module_loading import import_string
    from rest_framework.authtoken.models import Token

    from engines import registry
    from matches import live
    from matches.models import Match
    from matches.services import SeatSpec, match_create

    engine = registry.get("dueling-wizards")

    @sync_to_async
    def make():
        made = []
        User = get_user_model()
        for _ in range(matches):
            a = User.objects.create_user(f"a{uuid.uuid4().hex[:10]}", password="x")
            b = User.objects.create_user(f"b{uuid.uuid4().hex[:10]}", password="x")
            m = match_create(game="dueling-wizards", seats=[SeatSpec(user=a), SeatSpec(user=b)], created_by=a)
            made.append((m.pk, [Token.objects.create(user=a).key, Token.objects.create(user=b).key]))
        return made

    @sync_to_async
    def next_move(match_id):
        m = Match.objects.get(pk=match_id)
        to_move = engine.to_move(m.state)
        if not to_move or to_move[0] < 0:
            return None
        seat = to_move[0]
        return seat, first_legal_action_body(engine, m, seat), m.state_seq + 1

    games = await make()
    # Socket k of the layout goes to daphne k mod servers; match i's POSTs to daphne i mod servers.
    plan = [
        (ports[(i * spectators + j) % len(ports)], str(match_id))
        for i, (match_id, _) in enumerate(games)
        for j in range(spectators)
    ]
    post_port = {str(match_id): ports[i % len(ports)] for i, (match_id, _) in enumerate(games)}
    pool = Clients(clients, plan)
    for pipe in pool.pipes:  # every socket open
        ready = await asyncio.to_thread(pipe.recv)
        assert ready == "ready", ready
    await asyncio.sleep(1.0)  # every socket has its connect frame
    latencies, answered, missing = [], [], 0
    by_round: list[list[float]] = [[] for _ in range(moves)]  # each round's latencies: its p99 apart
    # Per POST: (its frame's last arrival, its answer, round): p99 is the slowest POST or two.
    posts: list[tuple[float, float, int]] = []
    checkpoints_start = await sync_to_async(checkpoints)()
    # A mark to start a sampling profiler on (py-spy record -p DAPHNE --duration ...) after the
    # sockets' connect storm, so that its samples are the moves' alone.
    print(
        f"{time.strftime('%H:%M:%S')} {layer_name}:{len(ports)} {matches} x {spectators}: the moves start",
        file=sys.stderr,
        flush=True,
    )
    cpu_start, services_start = cpu_seconds(pids), cpu_by_name(SERVICES)
    # A thread per match, so a round's POSTs all go at once: ``asyncio.to_thread``'s default
    # executor has min(32, cores + 4) threads, six here, and sent a round's ten or fifty POSTs six
    # at a time (every round before session 16).
    posters = concurrent.futures.ThreadPoolExecutor(max_workers=len(games), thread_name_prefix="post")
    loop = asyncio.get_running_loop()
    for round_ in range(moves):
        planned = [(str(match_id), tokens, await next_move(match_id)) for match_id, tokens in games]
        planned = [(m, t, p) for m, t, p in planned if p is not None]
        started = {}

        answers = {}

        def send(match_id, tokens, plan):
            seat, body, _ = plan
            started[match_id] = time.monotonic()
            post(post_port[match_id], tokens[seat], match_id, body)
            answers[match_id] = time.monotonic() - started[match_id]
            answered.append(answers[match_id])

        await asyncio.gather(*(loop.run_in_executor(posters, send, m, t, p) for m, t, p in planned))
        last = {}
        for match_id, arrived in await pool.ask(("events", {m: p[2] for m, _, p in planned}, timeout)):
            if arrived is None:
                missing += 1
            else:
                latencies.append(arrived - started[match_id])
                by_round[round_].append(arrived - started[match_id])
                last[match_id] = max(last.get(match_id, 0.0), arrived - started[match_id])
        posts.extend((last[m], answers[m], round_) for m in last)
    cpu_project, services_project = cpu_seconds(pids) - cpu_start, services_since(services_start)
    posters.shutdown()
    checkpoints_during = await sync_to_async(checkpoints)() - checkpoints_start
    await asyncio.sleep(0.5)

    # The baseline: a bare group_send of a frame of the same size, through the same consumers.
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = import_string(LAYERS[layer_name])(**config)
    size = max(await pool.ask(("size",)))  # the largest frame a spectator received
    base, base_missing = [], 0
    cpu_start, services_start = cpu_seconds(pids), cpu_by_name(SERVICES)
    for round_ in range(moves):
        marker = f"r{round_}"
        frame = {
            "type": "update",
            "after": 0,
            "head_seq": 10**9,
            "match": {},
            "view": {},
            "events": [],
            "log": [],
            "bench": marker,
            "pad": "x" * max(0, size - 120),
        }
        started = {}

        async def bare(match_id):
            started[str(match_id)] = time.monotonic()
            await layer.group_send(live.group_name(match_id), {"type": "match.frame", "frame": frame})

        await asyncio.gather(*(bare(m) for m, _ in games))
        for match_id, arrived in await pool.ask(("marker", marker, timeout)):
            if arrived is None:
                base_missing += 1
            else:
                base.append(arrived - started[match_id])
    cpu_base, services_base = cpu_seconds(pids) - cpu_start, services_since(services_start)
    answers = await pool.ask(("close",))
    await (layer.flush() if layer_name == "pubsub" else layer.close_pools())
    pool.stop()
    repeated = sum(a[0] for a in answers)
    cpu = ", ".join(f"{a[1]:.1f}" for a in answers)
    n = matches * spectators
    p50, p99, b50, b99 = pct(latencies, 0.5), pct(latencies, 0.99), pct(base, 0.5), pct(base, 0.99)
    print(
        f"{time.strftime('%H:%M:%S')} {layer_name}:{len(ports)}:{clients} {matches:>3} x {spectators:<4}{n:>5} sockets "
        f"project p50 {p50:7.1f} ms p99 {p99:7.1f} ms (POST answered p50 {pct(answered, 0.5):7.1f} ms) | "
        f"bare group_send p50 {b50:7.1f} ms p99 {b99:7.1f} ms | ratio p50 {p50 / b50:5.1f}x p99 {p99 / b99:5.1f}x | "
        f"missed {missing}, repeated {repeated} (baseline missed {base_missing}); frame {size} bytes; "
        f"daphne CPU s project {cpu_project:.2f}, bare {cpu_base:.2f}; client CPU s per process {cpu}; "
        f"services' CPU s project {services_project}, bare {services_base}",
        flush=True,
    )
    slowest = ", ".join(f"{ms(f)} (answered {ms(a)}, round {r + 1})" for f, a, r in sorted(posts, reverse=True)[:3])
    print(
        f"    slowest POSTs, their frame's last arrival: {slowest}; PostgreSQL checkpoints during the moves: "
        f"{checkpoints_during}; p99 by round: {', '.join(f'{pct(r, 0.99):.0f}' for r in by_round)} ms",
        flush=True,
    )
    return p50, p99, b50, b99


def start_daphnes(count: int, layer_name: str, env: dict) -> tuple[list[int], list[subprocess.Popen]]:
    ports, servers = [], []
    for _ in range(count):
        port, log = free_port(), tempfile.TemporaryFile()  # shown if a layout fails (show_daphnes)
        servers.append(
            subprocess.Popen(
                [sys.executable, "-c", DAPHNE_BOOT, LAYERS[layer_name], "-b", "127.0.0.1", "-p", str(port)]
                + ["config.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        )
        servers[-1].log = log
        ports.append(port)
    deadline = time.monotonic() + 60
    for port, server in zip(ports, servers):
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("daphne did not start") from None
                time.sleep(0.2)
    return ports, servers


def show_daphnes(servers: list[subprocess.Popen]) -> None:
    for server in servers:
        log = server.log
        log.seek(0)
        tail = log.read().decode(errors="replace").splitlines()[-15:]
        print(f"daphne {server.pid}: exit status {server.poll()}", *tail, sep="\n    ", file=sys.stderr)


def stop_daphnes(servers: list[subprocess.Popen]) -> None:
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layout", action="append", default=[])
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--debug", action="store_true", help="run the daphnes with DEBUG on, as rounds before session 12 did"
    )
    parser.add_argument("--clients", type=int, default=4, help="client processes the sockets are spread over")
    parser.add_argument(
        "--setup", action="append", default=[], help="LAYER:SERVERS[:CLIENTS], LAYER core, pubsub or project"
    )
    args = parser.parse_args()
    layouts = [tuple(int(x) for x in layout.split("x")) for layout in (args.layout or ["10x100", "50x20"])]
    setups = [
        (fields[0], int(fields[1]), int(fields[2]) if len(fields) > 2 else args.clients)
        for fields in (setup.split(":") for setup in (args.setup or ["core:1", "project:1"]))
    ]
    if any(name not in LAYERS for name, _, _ in setups):
        sys.exit(f"--setup layers: {', '.join(LAYERS)}")
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    # The daphnes run as production does, DEBUG off (a throwaway key), unless --debug: with DEBUG on,
    # Django also records every query a request makes (earlier rounds' runs, before session 12).
    env = {**os.environ, "DATABASE_URL": db_url(), "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.update({"DEBUG": "true"} if args.debug else {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)})
    env.update(
        {
            name: "1000000/minute"
            for name in ("THROTTLE_ANON", "THROTTLE_USER", "THROTTLE_EXPENSIVE", "THROTTLE_AUTH", "THROTTLE_SOCKETS")
        }
    )
    env.pop("CELERY_BROKER_URL", None)
    servers, results = [], {}
    try:
        print(
            f"channel layer {os.environ['REDIS_URL']}; {args.moves} moves per match; setups LAYER:SERVERS:CLIENTS",
            flush=True,
        )
        for layer_name, count, clients in setups:
            ports, servers = start_daphnes(count, layer_name, env)
            for matches, spectators in layouts:
                try:
                    results[layer_name, count, clients, matches, spectators] = asyncio.run(
                        run_layout(
                            ports,
                            [server.pid for server in servers],
                            layer_name,
                            matches,
                            spectators,
                            args.moves,
                            args.timeout,
                            clients,
                        )
                    )
                except Exception:
                    show_daphnes(servers)
                    raise
            stop_daphnes(servers)
            servers = []
        for (name, count, clients, matches, spectators), (p50, p99, _, _) in results.items():
            stock = results.get(("core", count, clients, matches, spectators))
            if name == "project" and stock:
                print(
                    f"{matches:>3} x {spectators:<4} project on its layer p50 {p50:7.1f} ms p99 {p99:7.1f} ms | "
                    f"bare group_send on stock channels-redis p50 {stock[2]:7.1f} ms p99 {stock[3]:7.1f} ms | "
                    f"ratio p50 {p50 / stock[2]:5.1f}x p99 {p99 / stock[3]:5.1f}x",
                    flush=True,
                )
    except Exception:
        import traceback

        traceback.print_exc()
    finally:
        stop_daphnes(servers)
        from django.db import connections

        connections.close_all()
        # The servers' sessions end with them; the pool's in this process close here.
        with connection._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [connection.settings_dict["NAME"]],
            )
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
