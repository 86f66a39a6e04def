"""Where a replay's work goes, as Python bytecodes an event by function and by line (issue 17, P1).

    .venv/bin/python benchmarks/profile_replay_bytecodes.py ENGINE [--events 3000] [--functions 40] [--lines 0] \
        [--inclusive 0]

Records the same random playouts as ``bench_replay_callgrind.py`` (its recorder, so the same games
for the same ``--events``), replays them once untraced (so memos and lazily built tables are as a
verifier's next stream finds them after the first), then replays them again with every bytecode
counted (``sys.settrace`` with ``f_trace_opcodes``). Callgrind's instruction count stays the
judge of P1; this says which functions and lines the count comes from, which callgrind cannot
(it sees the interpreter's C functions). A traced run is about 50 times slower than a plain one.
The untraced replay is of the same games, so memos keyed on what a game asked (Wizarding Duels'
route memo) already hold every answer the traced replay asks for: work the callgrind count's fresh
process does (``_safest_to``'s searches) may not show here at all, most with few ``--events``.
``--inclusive N`` also lists the N functions with the most bytecodes run inside them, their callees'
included (a function counted once however deep it recurses): what a whole path (a move, a clash)
costs, where the default list shows only each function's own share.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--functions", type=int, default=40, help="how many functions to list")
    parser.add_argument("--lines", type=int, default=0, help="how many lines to list")
    parser.add_argument("--inclusive", type=int, default=0, help="how many functions to list with their callees")
    args = parser.parse_args()

    from bench_replay_callgrind import record

    from engines import registry
    from engines.base import replay

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.json"
        record(args.engine, args.events, path)
        data = json.loads(path.read_text())
    engine = registry.get(args.engine)
    games = [(g["config"], g["seats"], g["events"]) for g in data["games"]]
    events = sum(len(texts) for _, _, texts in games)
    for config, seats, texts in games:
        replay(engine, config, seats, [json.loads(t) for t in texts])

    by_function: collections.Counter = collections.Counter()
    by_line: collections.Counter = collections.Counter()
    inclusive: collections.Counter = collections.Counter()
    prefix = str(ROOT) + "/"
    # Only the replay's own frames are walked: the tracer is set inside this function's frame.
    outer = sys._getframe()

    def tracer(frame, event, arg):
        if event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        elif event == "opcode":
            code = frame.f_code
            where = code.co_filename.removeprefix(prefix)
            by_function[(where, code.co_firstlineno, code.co_name)] += 1
            by_line[(where, frame.f_lineno)] += 1
            if args.inclusive:
                codes, f = set(), frame
                while f is not None and f is not outer:
                    codes.add(f.f_code)
                    f = f.f_back
                inclusive.update(codes)
        return tracer

    parsed = [(config, seats, [json.loads(t) for t in texts]) for config, seats, texts in games]
    sys.settrace(tracer)
    try:
        for config, seats, evs in parsed:
            replay(engine, config, seats, evs)
    finally:
        sys.settrace(None)
    total = sum(by_function.values())
    print(f"{args.engine}: {events} events, {total / events:,.1f} bytecodes an event")
    for (where, first, name), n in by_function.most_common(args.functions):
        print(f"{n / events:9.1f} {100 * n / total:5.1f}%  {where}:{first} {name}")
    if args.lines:
        print("by line:")
        for (where, line), n in by_line.most_common(args.lines):
            print(f"{n / events:9.1f}  {where}:{line}")
    if args.inclusive:
        print("inclusive (with callees):")
        for code, n in inclusive.most_common(args.inclusive):
            where = code.co_filename.removeprefix(prefix)
            print(f"{n / events:9.1f} {100 * n / total:5.1f}%  {where}:{code.co_firstlineno} {code.co_name}")


if __name__ == "__main__":
    main()
