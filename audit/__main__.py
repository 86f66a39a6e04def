"""python -m audit verify FILE [--key BASE64]: check an exported bundle offline.

Needs only this package, the engines and the ``cryptography`` package; no Django, no database,
no network. Exit status 0 when the bundle verifies, 2 when it does not, malformed bundles
included (the first bad event and why are printed), 1 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import bundle as audit_bundle

#: Bundles with more events than this show a progress bar while their chain is checked.
PROGRESS_FROM = 2000


def _progress(out):
    def wrap(events, total):
        if total < PROGRESS_FROM:
            yield from events
            return
        step = max(total // 50, 1)
        for done, event in enumerate(events, start=1):
            if done % step == 0 or done == total:
                filled = done * 30 // total
                out.write(f"\rChecking hashes [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
                out.flush()
            yield event
        out.write("\n")

    return wrap


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m audit", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="verify an exported bundle")
    check.add_argument("file", help="the bundle (JSON), or - for standard input")
    check.add_argument("--key", help="the platform's public key (base64) you trust; default: the bundle's own")
    args = parser.parse_args(argv)

    try:
        if args.file == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as handle:
                data = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        print(f"Cannot read {args.file}: {exc}", file=sys.stderr)
        return 1

    outcome = audit_bundle.verify(data, trusted_key=args.key, progress=_progress(sys.stderr))
    name = data.get("stream") if isinstance(data, dict) else None
    if not outcome.ok:
        where = f" at event {outcome.seq}" if outcome.seq is not None else ""
        print(f"FAILED{where}: {outcome.reason}")
        return 2
    print(f"verified: {name} ({data.get('kind')}), {len(data['events'])} events, head {data['head']['hash']}")
    for note in outcome.notes:
        print(f"  - {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
