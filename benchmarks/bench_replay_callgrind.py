"""Replay cost against only JSON-decoding the same events, as instruction counts under
callgrind, for every registered engine (issue 17, P1). Instruction counts ignore the load
on the machine, so the ratio is the same on a busy machine and an idle one.

    .venv/bin/python benchmarks/bench_replay_callgrind.py [--events 3000] [engine ...]

For each engine it records random playouts (the conformance suite's: derived chance, the
random bot; fixed keys, so every run sees the same games) until it has ``--events`` events,
stored as the JSON strings the event store holds. Then four runs under
``valgrind --tool=callgrind`` (PYTHONHASHSEED=0) on the same file:

  base    start Python, import the engine, read the file, and set up the first game once, so
          what an engine loads on first use (Wizarding Duels' content pack) is paid here, once
          per process, as an import's data is (``--cold`` leaves it to the replay, as before);
  loads   base + json.loads of every event;
  replay  base + json.loads + ``engines.base.replay`` of every game: the fold every stream
          replay runs, applying events in place to one owned state (``apply_in_place``);
  copy    base + json.loads + ``engine.apply`` from setup over every event: a new state per
          event, as live play makes them (what "replay" was before the in-place fold).

ratio = (replay - base) / (loads - base): what replaying an event costs in units of parsing it;
the copy ratio likewise for the copying apply.

``--warm EVENTS``: every run, base included, first replays about that many events of other games
(their own keys), so the counted work starts in a warm process, as a verifier's next stream does:
memos and lazily built tables (Wizarding Duels' routes and sight lines) hold what earlier streams
left, not these games' own answers. The default (0) counts a fresh process's first streams.

For comparing two versions of an engine, whose difference may be smaller than where a garbage
collection happens to fall in a counted run (1-2% at ``--events 300``):

``--against DIR``: also counts DIR's replay (another checkout, e.g. ``git worktree add /tmp/main
main``; its own bench's child, run by this Python) on the same recorded file, base and replay, and
prints its replay Ir/event and this tree's change against it. The json.loads run is this tree's alone: compare the replay
counts, not two runs' ratios (the loads count itself moves by about 2% between recordings).
``--no-gc``: every counted child runs with the collector off. For such comparisons only: a
verifier's replay collects garbage, so the goal's count is the default's.

``--by-c N``: also prints the engine's own instructions an event (the replay run's less the loads
run's) by the interpreter's C source file, and its N costliest C functions: how much of a replay
is the bytecode loop (ceval.c), dict look-ups and writes (dictobject.c), allocation, calls. What
a change of representation could save at most is read here: plain-dict state costs what
dictobject.c shows, and no representation makes fewer bytecodes run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def record(engine_name: str, events_wanted: int, path: Path, warm_wanted: int = 0) -> int:
    from engines import registry

    sys.path.insert(0, str(ROOT / "tests" / "engines"))
    from test_conformance import seat_counts

    engine = registry.get(engine_name)
    counts = seat_counts(engine)
    # The warm-up's games are other games than the counted ones (their own keys), so what they
    # leave in a process's memos is what earlier streams leave a verifier, not these games' answers.
    warm = _play(engine, engine_name, counts, warm_wanted, first=1_000_000) if warm_wanted else []
    games = _play(engine, engine_name, counts, events_wanted)
    path.write_text(json.dumps({"engine": engine_name, "games": games, "warm": warm}))
    return sum(len(game["events"]) for game in games)


def _play(engine, engine_name: str, counts, events_wanted: int, first: int = 0) -> list[dict]:
    from engines.base import CHANCE
    from engines.chance import derive

    sys.path.insert(0, str(ROOT / "tests" / "engines"))
    from test_conformance import Rng  # the suite's deterministic rng

    games, total, g = [], 0, first
    while total < events_wanted:
        seats = counts[g % len(counts)]
        config = engine.validate_config({}, seats)
        state = engine.setup(config, seats)
        rng = Rng(f"replay-bench:{engine_name}:{g}")
        events = []
        while engine.to_move(state) and len(events) < 5000:
            to_move = engine.to_move(state)
            if to_move == [CHANCE]:
                event = {
                    "kind": "chance",
                    "outcome": derive(engine.chance(state), b"replay-bench", str(g), len(events) + 2),
                }
            else:
                seat = to_move[int(rng.random() * len(to_move))]
                event = {"kind": "action", "seat": seat, "action": engine.random_action(state, seat, rng)}
            state = engine.apply(state, event)
            events.append(json.dumps(event, separators=(",", ":")))
        games.append({"config": config, "seats": seats, "events": events})
        total += len(events)
        g += 1
    return games


def child(mode: str, path: str, cold: bool = False) -> None:
    """What runs under callgrind."""
    from engines import registry

    data = json.loads(Path(path).read_text())
    engine = registry.get(data["engine"])
    if not cold:
        # A verifier or web process loads an engine's data once and replays many streams with it;
        # that load is no more a cost of each event than the import is.
        engine.setup(data["games"][0]["config"], data["games"][0]["seats"])
    loads = json.loads
    if data.get("warm"):
        # --warm: every mode, base included, first replays other games, as a verifier has done
        # before this stream; the counted work then starts from a warm process.
        from engines.base import replay

        for game in data["warm"]:
            replay(engine, game["config"], game["seats"], [loads(text) for text in game["events"]])
    if mode == "loads":
        for game in data["games"]:
            for text in game["events"]:
                loads(text)
    elif mode == "replay":
        from engines.base import replay

        for game in data["games"]:
            replay(engine, game["config"], game["seats"], [loads(text) for text in game["events"]])
    elif mode == "copy":
        apply = engine.apply
        for game in data["games"]:
            state = engine.setup(game["config"], game["seats"])
            for text in game["events"]:
                state = apply(state, loads(text))


def _writes_bytecode() -> dict[str, str]:
    """This environment without PYTHONDONTWRITEBYTECODE (these machines set it): with it, no .pyc
    is ever written, so every counted child compiled every module it imported, and a module
    imported lazily during the replay was compiled inside the counted replay."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


#: Runs a script as ``python script ARGS`` would, with the collector off first (``--no-gc``): the
#: same for any checkout's script, whichever options its own child knows.
_NO_GC = (
    "import gc, runpy, sys; gc.disable(); sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
)


def instructions(
    mode: str,
    path: Path,
    workdir: Path,
    script: str = __file__,
    extra: tuple[str, ...] = (),
    *,
    root: Path = ROOT,
    no_gc: bool = False,
) -> int:
    """Instructions callgrind counts for ``script --child mode path`` (bench_verify_callgrind too),
    run in ``root`` (another checkout's, for ``--against``)."""
    out = workdir / f"callgrind.{root.name}.{mode}.out"
    env = {**_writes_bytecode(), "PYTHONHASHSEED": "0"}
    python = [sys.executable, "-c", _NO_GC] if no_gc else [sys.executable]
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            *python,
            script,
            "--child",
            mode,
            str(path),
            *extra,
        ],
        check=True,
        env=env,
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    match = re.search(r"^summary:\s*(\d+)", out.read_text(), re.M) or re.search(
        r"^totals:\s*(\d+)", out.read_text(), re.M
    )
    return int(match.group(1))


def instructions_per_item(
    mode: str,
    files: tuple[Path, Path],
    more: int,
    workdir: Path,
    *,
    script: str,
    extra: tuple[str, ...] = (),
    before_each=lambda: None,
) -> float:
    """Instructions an item of ``script --child mode FILE`` (bench_verify_one, bench_action_post):
    one counted child over the first file's items, one over the second's, which holds ``more``
    items after them; the difference over ``more``. ``before_each`` runs before every child (a
    fresh copy of a database the child changes)."""
    # Natively first, over the larger file, so that every module the children import (lazily too)
    # has a fresh .pyc: the first counted run would otherwise compile what the second loads, and
    # the difference would lose the compiling (a verification counted 19.5M instead of 62.3M).
    before_each()
    subprocess.run(
        [sys.executable, script, *extra, "--child", mode, str(files[1])], check=True, cwd=ROOT, env=_writes_bytecode()
    )
    counts = []
    for path in files:
        before_each()
        counts.append(instructions(mode, path, workdir, script=script, extra=extra))
    return (counts[1] - counts[0]) / more


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engines", nargs="*")
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--cold", action="store_true", help="count the engine's first-use data load in the replay")
    parser.add_argument(
        "--warm",
        type=int,
        default=0,
        metavar="EVENTS",
        help="first replay about this many events of other games in every run (base too): a warm process",
    )
    parser.add_argument(
        "--against", type=Path, metavar="DIR", help="also count DIR's replay (another checkout) on the same file"
    )
    parser.add_argument("--no-gc", action="store_true", help="counted children run with the collector off")
    parser.add_argument(
        "--by-c", type=int, default=0, metavar="N", help="the engine's own count by C file and function"
    )
    parser.add_argument("--child", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child, cold=args.cold)
        return
    extra = ("--cold",) if args.cold else ()
    from engines import registry

    names = args.engines or list(dict.fromkeys(e.name for e in registry.all_engines()))  # newest version each
    against = args.against.resolve() if args.against else None
    if against is not None and not (against / "benchmarks" / "bench_replay_callgrind.py").exists():
        sys.exit(f"{against} has no benchmarks/bench_replay_callgrind.py")
    print(
        f"{'engine':<18}{'events':>8}{'loads Ir/event':>16}{'replay Ir/event':>17}{'ratio':>8}"
        f"{'copy Ir/event':>15}{'ratio':>8}" + (f"  {against}: replay Ir/event, this tree's change" if against else ""),
        flush=True,
    )
    count_ir = partial(instructions, extra=extra, no_gc=args.no_gc)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for name in names:
            path = workdir / f"{name}.json"
            count = record(name, args.events, path, args.warm)
            # A whole native replay first, so every module it imports (lazily too) has a fresh .pyc
            # before the counted runs: a compile inside one of them would count as replay work.
            subprocess.run(
                [sys.executable, __file__, "--child", "replay", str(path)], check=True, cwd=ROOT, env=_writes_bytecode()
            )
            base = count_ir("base", path, workdir)
            loads = count_ir("loads", path, workdir) - base
            replay = count_ir("replay", path, workdir) - base
            copy = count_ir("copy", path, workdir) - base
            line = (
                f"{name:<18}{count:>8}{loads / count:>16,.0f}{replay / count:>17,.0f}{replay / loads:>7.1f}x"
                f"{copy / count:>15,.0f}{copy / loads:>7.1f}x"
            )
            if against is not None:
                theirs = str(against / "benchmarks" / "bench_replay_callgrind.py")
                subprocess.run(
                    [sys.executable, theirs, "--child", "replay", str(path)],
                    check=True,
                    cwd=against,
                    env=_writes_bytecode(),
                )
                their_base = count_ir("base", path, workdir, theirs, root=against)
                their_replay = count_ir("replay", path, workdir, theirs, root=against) - their_base
                line += f"  {their_replay / count:>15,.0f} {100 * (replay - their_replay) / their_replay:+6.2f}%"
            print(line, flush=True)
            if args.by_c:
                print_by_c(workdir, count, args.by_c)


def _annotated(out: Path) -> dict[tuple[str, str], int]:
    """Inclusive-free (self) instructions by (C source file, function) from callgrind_annotate."""
    text = subprocess.run(
        ["callgrind_annotate", "--threshold=100", str(out)], check=True, capture_output=True, text=True
    ).stdout
    counts: dict[tuple[str, str], int] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \([\s\d.]+%\)\s+(\S+?):(\S+)", line)
        if m and "PROGRAM TOTALS" not in line:
            # "'2" and the like mark a recursion level: one function for this purpose.
            key = (m.group(2).rsplit("/", 1)[-1], re.sub(r"'\d+$", "", m.group(3)))
            counts[key] = counts.get(key, 0) + int(m.group(1).replace(",", ""))
    return counts


def print_by_c(workdir: Path, events: int, top: int) -> None:
    replay = _annotated(workdir / f"callgrind.{ROOT.name}.replay.out")
    loads = _annotated(workdir / f"callgrind.{ROOT.name}.loads.out")
    own = {k: replay.get(k, 0) - loads.get(k, 0) for k in replay.keys() | loads.keys()}
    total = sum(own.values())
    by_file: dict[str, int] = {}
    for (source, _), n in own.items():
        by_file[source] = by_file.get(source, 0) + n
    print(f"  the engine's own count (replay less loads): {total / events:,.0f} an event; by C file:")
    for source, n in sorted(by_file.items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {n / events:>10,.0f} {100 * n / total:5.1f}%  {source}")
    print("  by C function:")
    for (source, function), n in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {n / events:>10,.0f} {100 * n / total:5.1f}%  {source}:{function}")


if __name__ == "__main__":
    main()
