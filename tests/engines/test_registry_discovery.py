"""The registry finds every engine package by itself, once, even when many threads ask at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_CHILD = """
import sys, threading
sys.path.insert(0, sys.argv[1])
from engines import registry
barrier, found, errors = threading.Barrier(24), [], []
def ask():
    barrier.wait()
    try:
        found.append(registry.get("dueling-wizards").name)
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=ask) for _ in range(24)]
[t.start() for t in threads]
[t.join() for t in threads]
print(len(found), len(errors), errors[:1])
"""


def test_every_package_under_engines_is_registered():
    import engines
    from engines import registry

    packages = sorted(p.name for p in Path(engines.__path__[0]).iterdir() if (p / "__init__.py").exists())
    assert packages and {e.__class__.__module__.split(".")[1] for e in registry.all_engines()} == set(packages)


def test_a_fresh_process_asked_by_many_threads_at_once_finds_every_game():
    for _ in range(3):  # a race shows up only sometimes: ask a few fresh processes
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, str(ROOT)], capture_output=True, text=True, timeout=120, check=True
        ).stdout.split()
        assert out[:2] == ["24", "0"], out


_PRELOAD = """
import sys
sys.path.insert(0, sys.argv[1])
from engines import registry
from engines.wizarding_duels import content
registry.preload()
boards = {(p, m, n) for p, maps in content._BOARDS.items() for m, by in maps.items() for n in by}
wanted = {
    (p, m, n)
    for p in content.pack_ids()
    for m, spec in content.load(p).maps.items()
    for n in set(spec["halves"][0]["nexus"]) & set(spec["halves"][1]["nexus"])
}
print(sorted(sys.modules).count("engines.spellcaster.engine"), sorted(content._LOADED) == content.pack_ids(),
      boards == wanted, len(boards))
"""


def test_preload_imports_every_engine_and_loads_the_data_its_games_would_load_on_first_use():
    # A server or worker calls it before it freezes and forks (config/asgi.py, config/celery.py):
    # what a game would load lazily (Wizarding Duels' packs and joined boards) is loaded now.
    out = subprocess.run(
        [sys.executable, "-c", _PRELOAD, str(ROOT)], capture_output=True, text=True, timeout=120, check=True
    ).stdout.split()
    assert out[:3] == ["1", "True", "True"] and int(out[3]) >= 4
