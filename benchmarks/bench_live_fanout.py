"""Live fan-out under load: an action POSTed to daphne until its frame reaches every spectator,
against a bare channels-redis group_send of a frame of the same size to the same sockets, in the
same run (issue 17, P5).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels REDIS_URL=redis://127.0.0.1:6379/11 \
        .venv/bin/python benchmarks/bench_live_fanout.py [--layout 10x100 --layout 50x20] [--moves 4]

For each layout MATCHESxSPECTATORS: that many Dueling Wizards matches between two people, each
watched by that many anonymous websockets on the loopback (a daphne on a scratch database and
the Redis channel layer). Then ``--moves`` rounds: in each, one action is POSTed to every match
at once (the REST API, a token per player), and every socket's arrival time of the frame with
the new event is recorded; then the baseline, one bare ``group_send`` per match of a frame of the
same size (the last frame's length, padded), timed the same way. Reported: p50 and p99 of the
latencies, their ratio to the baseline, and frames missed (an event a socket never received) or
repeated (an event a socket received twice). Bounded: ``--timeout`` seconds per round, and the
socket count is the layout's.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import socket
import subprocess
import sys
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


class Watcher:
    """One spectator socket (a minimal RFC 6455 client on asyncio streams: daphne's autobahn is
    bound to Twisted in this process): records when each event seq and baseline marker arrived."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.seen, self.markers, self.frames, self.last_size = {}, {}, 0, 0

    def on_message(self, payload: bytes) -> None:
        now = time.perf_counter()
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


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


async def run_layout(port: int, matches: int, spectators: int, moves: int, timeout: float) -> None:
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer
    from django.contrib.auth import get_user_model
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
        return (
            seat,
            {
                "seat": seat,
                "action": engine.legal_actions(m.state, seat)[0],
                "expected_seq": m.state_seq,
                "event_id": str(uuid.uuid4()),
            },
            m.state_seq + 1,
        )

    games = await make()
    sockets = {}
    for match_id, _ in games:
        sockets[match_id] = [await open_socket(port, match_id) for _ in range(spectators)]
    await asyncio.sleep(1.0)  # every socket has its connect frame
    latencies, missing, repeated = [], 0, 0
    for _ in range(moves):
        planned = [(match_id, tokens, await next_move(match_id)) for match_id, tokens in games]
        planned = [(m, t, p) for m, t, p in planned if p is not None]
        started = {}

        def send(match_id, tokens, plan):
            seat, body, _ = plan
            started[match_id] = time.perf_counter()
            post(port, tokens[seat], match_id, body)

        await asyncio.gather(*(asyncio.to_thread(send, m, t, p) for m, t, p in planned))
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline and not all(p[2] in s.seen for m, _, p in planned for s in sockets[m]):
            await asyncio.sleep(0.01)
        for match_id, _, (_, _, seq) in planned:
            for s in sockets[match_id]:
                if seq in s.seen:
                    latencies.append(s.seen[seq][0] - started[match_id])
                else:
                    missing += 1
    await asyncio.sleep(0.5)
    for match_id, _ in games:
        for s in sockets[match_id]:
            repeated += sum(len(times) - 1 for times in s.seen.values())

    # The baseline: a bare group_send of a frame of the same size, through the same consumers.
    layer = get_channel_layer()
    size = max(s.last_size for group in sockets.values() for s in group)
    base, base_missing = [], 0
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
            started[match_id] = time.perf_counter()
            await layer.group_send(live.group_name(match_id), {"type": "match.frame", "frame": frame})

        await asyncio.gather(*(bare(m) for m, _ in games))
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline and not all(
            marker in s.markers for group in sockets.values() for s in group
        ):
            await asyncio.sleep(0.01)
        for match_id, group in sockets.items():
            for s in group:
                if marker in s.markers:
                    base.append(s.markers[marker][0] - started[match_id])
                else:
                    base_missing += 1
    for group in sockets.values():
        for s in group:
            s.close()
    n = matches * spectators
    p50, p99, b50, b99 = pct(latencies, 0.5), pct(latencies, 0.99), pct(base, 0.5), pct(base, 0.99)
    print(
        f"{matches:>4} x {spectators:<4}{n:>6} sockets  project p50 {p50:8.1f} ms p99 {p99:8.1f} ms | "
        f"bare group_send p50 {b50:7.1f} ms p99 {b99:7.1f} ms | ratio p50 {p50 / b50:5.1f}x p99 {p99 / b99:5.1f}x | "
        f"missed {missing}, repeated {repeated} (baseline missed {base_missing}); frame {size} bytes",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layout", action="append", default=[])
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    layouts = [tuple(int(x) for x in layout.split("x")) for layout in (args.layout or ["10x100", "50x20"])]
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": db_url(), "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true"}
    env.update(
        {name: "1000000/minute" for name in ("THROTTLE_ANON", "THROTTLE_USER", "THROTTLE_EXPENSIVE", "THROTTLE_AUTH")}
    )
    env.pop("CELERY_BROKER_URL", None)
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline or daphne.poll() is not None:
                    sys.exit("daphne did not start")
                time.sleep(0.2)
        print(f"daphne on 127.0.0.1:{port}, channel layer {os.environ['REDIS_URL']}; {args.moves} moves per match")
        for matches, spectators in layouts:
            asyncio.run(run_layout(port, matches, spectators, args.moves, args.timeout))
    except Exception:
        import traceback

        traceback.print_exc()
    finally:
        daphne.terminate()
        try:
            daphne.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daphne.kill()
        from django.db import connections

        connections.close_all()
        # The server's sessions end with it; the pool's in this process close here.
        with connection._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [connection.settings_dict["NAME"]],
            )
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
