"""The verifier's cost per event, copying against in place, as instruction counts under callgrind
for every registered engine (issue 17, P1/P7). Instruction counts ignore the load on the machine.

    .venv/bin/python benchmarks/bench_verify_callgrind.py [--events 3000] [engine ...]

For each engine it records whole server-dealt matches between random bots (fixed keys, so every
run sees the same games; tests/audit/recorded_streams.py: salts, hashes, the creation and the
close) until it has ``--events`` events, stored as the JSON text of each stream. Then four runs
under ``valgrind --tool=callgrind`` (PYTHONHASHSEED=0) on the same file:

  base      start Python, import the engine and the verifier, read the file;
  loads     base + json.loads of every stream;
  copy      base + json.loads + ``verify_match_stream(events, in_place=False)`` of every stream:
            ``apply`` per event, a new state each (the verifier before in-place verification);
  in place  base + json.loads + ``verify_match_stream(events, in_place=True)``: two owned states,
            each event applied in place to both (audit.matchverify.APPLIED_IN_PLACE).

Each prints as instructions per event (every stream event counts, the creation and close too)
and in units of parsing it ((run - base) / (loads - base)); "copy / in place" is the gain. The
verifier's default for the game is marked with a star. The chain's hashes, the salts and the
derived outcomes are in both columns alike.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_replay_callgrind import _writes_bytecode  # noqa: E402  (beside this script)
from bench_replay_callgrind import instructions as replay_instructions  # noqa: E402


def record(engine_name: str, events_wanted: int, path: Path) -> tuple[int, int]:
    from engines import registry
    from tests.audit.recorded_streams import recorded_stream
    from tests.engines.test_conformance import seat_counts

    engine = registry.get(engine_name)
    counts = seat_counts(engine)
    streams, total = [], 0
    while total < events_wanted:
        g = len(streams)
        events = recorded_stream(engine, counts[g % len(counts)], f"verify-bench:{engine_name}:{g}")
        streams.append(json.dumps(events, separators=(",", ":")))
        total += len(events)
    path.write_text(json.dumps({"engine": engine_name, "streams": streams}))
    return total, len(streams)


def child(mode: str, path: str) -> None:
    """What runs under callgrind."""
    from audit.matchverify import verify_match_stream
    from engines import registry

    data = json.loads(Path(path).read_text())
    registry.get(data["engine"])
    loads = json.loads
    if mode == "loads":
        for text in data["streams"]:
            loads(text)
    elif mode in ("copy", "in_place"):
        in_place = mode == "in_place"
        for text in data["streams"]:
            verdict = verify_match_stream(loads(text), in_place=in_place)
            if not verdict.verified:
                raise SystemExit(f"a recorded stream did not verify: {verdict.reason}")


def instructions(mode: str, path: Path, workdir: Path) -> int:
    return replay_instructions(mode, path, workdir, script=__file__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engines", nargs="*")
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--child", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from audit.matchverify import APPLIED_IN_PLACE
    from engines import registry

    names = args.engines or list(dict.fromkeys(e.name for e in registry.all_engines()))  # newest version each
    print(
        f"{'engine':<18}{'events':>8}{'streams':>8}{'loads Ir/ev':>13}{'copy Ir/ev':>13}{'ratio':>7}"
        f"{'in place Ir/ev':>16}{'ratio':>7}{'copy / in place':>17}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for name in names:
            path = workdir / f"{name}.json"
            count, streams = record(name, args.events, path)
            # Every run natively first, so every module they import (lazily too) has a fresh .pyc
            # before the counted runs: a compile inside one of them would count as its work.
            for mode in ("base", "copy", "in_place"):
                subprocess.run(
                    [sys.executable, __file__, "--child", mode, str(path)], check=True, cwd=ROOT, env=_writes_bytecode()
                )
            base = instructions("base", path, workdir)
            loads = instructions("loads", path, workdir) - base
            copy = instructions("copy", path, workdir) - base
            in_place = instructions("in_place", path, workdir) - base
            star_copy, star_in = (" ", "*") if name in APPLIED_IN_PLACE else ("*", " ")
            print(
                f"{name:<18}{count:>8}{streams:>8}{loads / count:>13,.0f}{copy / count:>12,.0f}{star_copy}"
                f"{copy / loads:>6.1f}x{in_place / count:>15,.0f}{star_in}{in_place / loads:>6.1f}x"
                f"{copy / in_place:>16.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
