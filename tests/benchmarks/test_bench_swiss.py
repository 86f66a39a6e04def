"""benchmarks/bench_swiss.py's reading of a bbpPairings run, with stand-in binaries: what a
finished, a failed and a stopped run report, and how the table shows a run stopped at
``--timeout`` (its CPU until then a lower bound, our ratios upper bounds)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_swiss.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_swiss", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stand_in(tmp_path: Path, body: str) -> str:
    """An executable taking bbp's arguments (``--dutch FIELD -p PAIRS``) and running ``body``."""
    path = tmp_path / "bbp"
    path.write_text(f"#!{sys.executable}\nimport sys\nargs = sys.argv[1:]\n{body}\n")
    path.chmod(0o755)
    return str(path)


def test_a_finished_run_returns_its_pairs_and_its_time(bench, tmp_path):
    binary = stand_in(tmp_path, "open(args[-1], 'w').write('2\\n1 2\\n3 0\\n')")
    run = bench.run_bbp(binary, "field", timeout=60)
    assert run.pairs == [(1, 2), (3, 0)]
    assert run.wall is not None and run.wall > 0
    assert not run.timed_out and run.note == ""


def test_a_failed_run_reports_its_exit_and_no_pairs(bench, tmp_path):
    binary = stand_in(tmp_path, "sys.stderr.write('no such field'); sys.exit(3)")
    run = bench.run_bbp(binary, "field", timeout=60)
    assert run.wall is None and run.pairs == []
    assert not run.timed_out
    assert run.note == "exit 3: no such field"


def test_a_run_stopped_at_its_timeout_reports_the_cpu_it_spent_as_a_lower_bound(bench, tmp_path):
    binary = stand_in(tmp_path, "while True:\n    pass")
    started = time.perf_counter()
    run = bench.run_bbp(binary, "field", timeout=1.0)
    elapsed = time.perf_counter() - started
    assert run.timed_out and run.wall is None and run.pairs == []
    assert run.note == "timed out after 1 s"
    # The spinning child's CPU is counted (it was 0 before the stopped child was read), and
    # it cannot exceed the time the run lasted on one core.
    assert 0 < run.cpu <= elapsed


def test_small_ratios_keep_two_significant_digits(bench):
    assert bench.share(0.000557) == "0.00056"
    assert bench.share(0.0427) == "0.043"
    assert bench.share(0.27) == "0.27"
    assert bench.share(1.5) == "1.50"


def test_the_table_shows_a_stopped_run_as_bounds(tmp_path):
    binary = stand_in(tmp_path, "while True:\n    pass")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "16", "--bbp", binary, "--repeat", "1", "--timeout", "0.5"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    row = next(line.split() for line in done.stdout.splitlines() if line.split()[:1] == ["16"])
    # players, ours (s), bbp (s), ours/bbp, ours cpu, bbp cpu, cpu ratio, method, ours quality, bbp quality
    assert row[2] == ">0.5"
    assert row[3].startswith("<") and float(row[3][1:]) > 0
    assert row[5].startswith(">") and row[6].startswith("<")
    assert row[9] == "-"  # a stopped run left no pairing to cost
