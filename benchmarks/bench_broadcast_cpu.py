"""The CPU of an action's broadcast (issue 17, P5): the frames built from what the command holds,
encoded and sent to the spectators' group and each seat's, against a bare channels-redis
group_send of a frame of the same size in the same run (the issue's baseline).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wd_p5frame REDIS_URL=redis://127.0.0.1:6379/6 \
        .venv/bin/python benchmarks/bench_broadcast_cpu.py [--matches 6] [--actions 60] \
        [--spectators 20] [--servers 1] [--repeat 20] [--profile]

First ``--actions`` action POSTs through Django's test client (token auth, DEBUG off) to
``--matches`` Dueling Wizards duels between two people, each match's spectators' group holding
``--spectators`` channels and each seat's group one, of ``--servers`` daphne processes
(channels nobody reads: a group_send costs the sender the same, and their messages expire in
Redis). Per POST, the process's CPU (every thread: the broadcast's sends run on the sender
loop's) of the whole request, of the outbox's first delivery, and of the broadcast in it
(``live.broadcast_held``'s delivery); then one more pass counts the queries of each. The POSTs are few and each differs (a round's last defence also
writes the round's end and the draws after it): the shares are the median of each POST's share.

Then the broadcast alone, on the commits those POSTs held (match, events, log lines), each sent
again ``--repeat`` times in turns with the baseline: per broadcast the CPU of the frames built
(``frames_held``), encoded (``frame_message``), sent (the group_sends, waited for) and of the
whole delivery, and of one bare group_send of a frame as long as the spectators'. Medians per
broadcast; the ratio of the delivery to the bare send is the number to compare across runs.
``--profile`` prints the top entries of a profile of the deliveries. Runs on a scratch test
database (created and dropped) and flushes the channel layer's keys before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import secrets
import statistics
import sys
import time
import uuid
from operator import truediv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
# As production runs: DEBUG off (Django records no queries), no throttle in the way.
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
for _name in ("THROTTLE_ANON", "THROTTLE_USER", "THROTTLE_EXPENSIVE", "THROTTLE_AUTH", "THROTTLE_SOCKETS"):
    os.environ[_name] = "1000000/minute"

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from benchmarks._moves import first_legal_action_body  # noqa: E402


def cpu() -> float:
    return time.process_time()


def us(values: list[float]) -> str:
    return f"{statistics.median(values) * 1e6:8.0f} us" if values else "       - us"


class Timed:
    """Wraps ``module.name`` to add each call's process CPU to ``self.times`` (and its queries,
    when counting): every call, or those ``only(kwargs)`` picks."""

    def __init__(self, module, name: str, only=None):
        self.module, self.name, self.real = module, name, getattr(module, name)
        self.only = only
        self.times: list[float] = []
        self.queries: list[int] = []
        self.counting = False

    def __enter__(self):
        real = self.real

        def timed(*args, **kwargs):
            if self.only is not None and not self.only(kwargs):
                return real(*args, **kwargs)
            before, queries = cpu(), len(connection.queries)
            try:
                return real(*args, **kwargs)
            finally:
                self.times.append(cpu() - before)
                if self.counting:
                    self.queries.append(len(connection.queries) - queries)

        setattr(self.module, self.name, timed)
        return self

    def __exit__(self, *exc):
        setattr(self.module, self.name, self.real)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--servers", type=int, default=1, help="daphne processes the sockets are spread over")
    parser.add_argument("--repeat", type=int, default=20, help="sends of each held commit, in turns with the baseline")
    parser.add_argument("--profile", action="store_true", help="print the top entries of the deliveries' profile")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(args) -> None:
    from channels.layers import get_channel_layer
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    from engines import registry
    from matches import live, outbox
    from matches.models import Match
    from matches.services import SeatSpec, match_create

    layer = get_channel_layer()
    engine = registry.get("dueling-wizards")
    live.warm_sender(sends=4).result(timeout=30)

    def on_sender(coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, live._sender_loop()).result(timeout=30)

    on_sender(layer.flush())
    User = get_user_model()
    clients = {}

    def new_match() -> str:
        people = [User.objects.create_user(f"u{uuid.uuid4().hex[:12]}", password="x") for _ in range(2)]
        match = match_create(game="dueling-wizards", seats=[SeatSpec(user=u) for u in people], created_by=people[0])
        tokens = [Token.objects.create(user=u).key for u in people]
        clients[str(match.pk)] = [Client(HTTP_AUTHORIZATION=f"Token {t}") for t in tokens]
        # Each socket's channel is local to its server process: a group_send writes one message
        # per process (its Redis key), naming that process's sockets.
        members = [f"specific.daphne{i % args.servers}!{match.pk.hex[:8]}{i}" for i in range(args.spectators)]

        async def join():
            for member in members:
                await layer.group_add(live.group_name(match.pk), member)
            for seat in range(2):
                await layer.group_add(live.seat_group(match.pk, seat), f"specific.daphne{seat % args.servers}!s{seat}")

        on_sender(join())
        return str(match.pk)

    matches = [new_match() for _ in range(args.matches)]
    held: list[tuple] = []  # (match, events, log) of each POST's commit, as the command held them

    real_held = live.broadcast_held

    def keep_held(*, match, events, log):
        held.append((match, events, log))
        return real_held(match=match, events=events, log=log)

    def next_post(index: int):
        match_id = matches[index]
        match = Match.objects.get(pk=match_id)
        to_move = engine.to_move(match.state)
        if match.status == Match.Status.FINISHED or not to_move or to_move[0] < 0:
            matches[index] = new_match()
            return next_post(index)
        seat = to_move[0]
        body = first_legal_action_body(engine, match, seat)
        return clients[match_id][seat], f"/api/matches/{match_id}/actions/", body

    def posts(count: int, counting: bool):
        """``count`` POSTs round the matches: (the POST's CPU, its queries or None) each."""
        out = []
        for i in range(count):
            client, path, body = next_post(i % len(matches))
            if counting:
                with CaptureQueriesContext(connection) as queries:
                    response = client.post(path, json.dumps(body), content_type="application/json")
                out.append((None, len(queries)))
            else:
                before = cpu()
                response = client.post(path, json.dumps(body), content_type="application/json")
                out.append((cpu() - before, None))
            assert response.status_code == 201, response.content
            assert len(delivery.times) == len(deliveries) == len(out), "one first delivery a POST"
        return out

    live.broadcast_held = keep_held
    try:
        # The delivery function: broadcast_held's closure, found through what keep_held returns.
        # The first deliveries of the broadcasts (a match's last move also delivers its
        # verification and its end to other apps, from the database: not these).
        first = Timed(outbox, "outbox_deliver", only=lambda kwargs: kwargs.get("deliver") is not None)
        with first as delivery, Timed(live, "frames_held") as built:
            deliveries: list[float] = []
            real_keep = live.broadcast_held

            def keep_and_time(**kwargs):
                deliver = real_keep(**kwargs)

                def timed():
                    before = cpu()
                    try:
                        deliver()
                    finally:
                        deliveries.append(cpu() - before)

                return timed

            live.broadcast_held = keep_and_time

            def clear():
                for timer in (delivery, built):
                    timer.times.clear()
                    timer.queries.clear()
                deliveries.clear()

            posts(min(10, args.actions), counting=False)  # warm: imports, connections, caches
            clear()
            held.clear()
            whole = [t for t, _ in posts(args.actions, counting=False)]
            outbox_times, broadcast_times = list(delivery.times), list(deliveries)
            clear()
            delivery.counting = built.counting = True
            counted = [q for _, q in posts(min(20, args.actions), counting=True)]
            post_queries, delivery_queries, build_queries = counted, list(delivery.queries), list(built.queries)
    finally:
        live.broadcast_held = real_held
    held = held[: args.actions]
    print(
        f"{time.strftime('%H:%M:%S')} {args.actions} action POSTs, Dueling Wizards duels, {args.spectators} spectator "
        f"channels a match (medians per POST; process CPU, every thread)",
        flush=True,
    )
    print(f"  POST, whole request          {us(whole)}   queries {statistics.median(post_queries):.0f}")
    print(f"  outbox first delivery        {us(outbox_times)}   queries {statistics.median(delivery_queries):.0f}")
    print(
        f"  broadcast in it (frames)     {us(broadcast_times)}   queries in frames_held {statistics.median(build_queries):.0f}"
    )
    # Each POST's share, then their median: the POSTs differ (a round's last defence writes the
    # round's end and the draws after it), and a share is of one POST.
    print(
        f"  broadcast's share of the POST {statistics.median(map(truediv, broadcast_times, whole)):6.1%}, "
        f"the first delivery's {statistics.median(map(truediv, outbox_times, whole)):6.1%} (medians of each POST's)",
        flush=True,
    )

    # The broadcast alone, on the held commits, in turns with the bare send.
    phases = {name: [] for name in ("build", "encode", "send", "delivery", "delivery_request", "bare")}
    sizes = []

    def send_messages(match_id, messages):
        sends = [(live.viewer_group(match_id, seat), message) for seat, message in messages]
        if hasattr(live, "send_messages"):
            live.send_messages(layer, sends)
            return
        # Before the sends were pipelined together: one group_send each, side by side on the sender loop.
        loop = live._sender_loop()
        live._wait_sent([asyncio.run_coroutine_threadsafe(layer.group_send(g, m), loop) for g, m in sends])

    def bare_message(size: int) -> dict:
        frame = {"type": "update", "after": 0, "head_seq": 10**9, "match": {}, "view": {}, "events": [], "log": []}
        frame["pad"] = "x" * max(0, size - len(json.dumps({**frame, "pad": ""})))
        return {"type": "match.frame", "frame": frame}

    profile = cProfile.Profile() if args.profile else None
    # The sends run on the sender loop's thread: a profile of their own, on and off from there.
    sender_profile = cProfile.Profile() if args.profile else None

    async def sender_profiling(on: bool) -> None:
        sender_profile.enable() if on else sender_profile.disable()

    for _ in range(args.repeat):
        for match, events, log in held:
            before = cpu()
            frames = list(live.frames_held(match=match, events=events, log=log))
            middle = cpu()
            messages = [(seat, live.frame_message(frame)) for seat, frame in frames]
            encoded = cpu()
            send_messages(match.pk, messages)
            phases["build"].append(middle - before)
            phases["encode"].append(encoded - middle)
            phases["send"].append(cpu() - encoded)
            sizes.append(len(messages[0][1]["text"]))
            bare = bare_message(sizes[-1])
            before = cpu()
            on_sender(layer.group_send(live.group_name(match.pk), bare))
            phases["bare"].append(cpu() - before)
            deliver = live.broadcast_held(match=match, events=events, log=log)
            if profile:
                on_sender(sender_profiling(True))
                profile.enable()
            before, before_thread = cpu(), time.thread_time()
            deliver()
            phases["delivery"].append(cpu() - before)
            phases["delivery_request"].append(time.thread_time() - before_thread)
            if profile:
                profile.disable()
                on_sender(sender_profiling(False))
    bare = statistics.median(phases["bare"])
    print(
        f"  broadcast alone, {len(held)} commits x {args.repeat} (spectators' frame median "
        f"{statistics.median(sizes):.0f} bytes; 3 frames: spectators' and each seat's), medians per broadcast:"
    )
    for name, label in (
        ("build", "frames built (frames_held)"),
        ("encode", "frames encoded"),
        ("send", "frames sent (3 group_sends)"),
        ("delivery", "the whole delivery"),
        ("delivery_request", "  of it the request thread's"),
        ("bare", "bare group_send, same size"),
    ):
        print(f"    {label:<30}{us(phases[name])}   {statistics.median(phases[name]) / bare:5.2f}x the bare send")
    on_sender(layer.flush())
    if profile:
        for name, which in (("the request thread", profile), ("the sender loop's thread", sender_profile)):
            print(f"  profile of the deliveries, {name} (top 25 by own time, then cumulative):")
            pstats.Stats(which, stream=sys.stdout).sort_stats("tottime").print_stats(25)
            pstats.Stats(which, stream=sys.stdout).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
