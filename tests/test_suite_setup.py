"""What tests/conftest.py sets up for the suite: two pytest-xdist workers kept apart, quick password hashing,
matches that deal the same outcomes in every run of a test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import connection

from tests.conftest import redis_databases_missing, redis_url_for_worker

ROOT = Path(__file__).resolve().parent.parent


def redis_database(number: int) -> str:
    """The suite's Redis server with another database number (only pinged: nothing is written)."""
    parts = urlsplit(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    return urlunsplit(parts._replace(path=f"/{number}"))


def test_each_worker_gets_the_base_redis_database_plus_its_index():
    assert redis_url_for_worker("redis://127.0.0.1:6379/12", "gw0") == "redis://127.0.0.1:6379/12"
    assert redis_url_for_worker("redis://127.0.0.1:6379/12", "gw1") == "redis://127.0.0.1:6379/13"
    assert redis_url_for_worker("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/1"
    assert redis_url_for_worker("redis://:secret@redis.example:6380/0?timeout=5", "gw3") == (
        "redis://:secret@redis.example:6380/3?timeout=5"
    )


def test_workers_whose_last_redis_database_the_server_lacks_are_refused_with_what_to_do():
    # A default Redis has databases 0 to 15: base 15 with two workers would give gw1 database 16.
    problem = redis_databases_missing(redis_database(15), 2)
    assert "database 15" in problem and "up to 16" in problem
    assert "it has 16 (0 to 15)" in problem and "a base of at most 14" in problem
    assert redis_databases_missing(redis_database(12), 2) == ""


SAFE_TEST = "test_each_worker_gets_the_base_redis_database_plus_its_index"


def run_pytest(*args: str, **env: str) -> subprocess.CompletedProcess:
    """A pytest run of its own from the project's root, as a person starts one (not an xdist
    worker), with ``env`` over this process's environment."""
    full = {**os.environ, **env}
    full.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )


def drop_test_database(database_url: str) -> None:
    """Drop the test database a run of its own kept with ``--reuse-db`` on ``database_url``'s server
    (pytest-django names it ``test_`` and the database's name)."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(database_url)
    name = "test_" + parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def test_a_run_whose_workers_would_run_out_of_redis_databases_stops_before_any_test():
    # One test that touches neither Redis nor a database: without the check it would run and pass.
    run = run_pytest("-n", "2", f"{__file__}::{SAFE_TEST}", REDIS_URL=redis_database(15))
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, (run.returncode, run.stdout[-2000:], run.stderr[-2000:])
    assert "which this Redis does not have" in run.stderr
    assert "passed" not in run.stdout and "failed" not in run.stdout


def test_the_channel_layer_and_started_processes_use_this_workers_redis_database():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("no REDIS_URL: the in-memory channel layer is per process anyway")
    assert settings.REDIS_URL == os.environ["REDIS_URL"]
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] == os.environ["REDIS_URL"]


@pytest.mark.django_db
def test_each_worker_has_its_own_test_database():
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        assert connection.settings_dict["NAME"].endswith(f"_{worker}")
    assert connection.settings_dict["NAME"].startswith("test_")


@pytest.mark.django_db
def test_users_made_in_an_ordinary_test_get_a_quick_hash_and_production_hashes_still_check(make_user):
    user = make_user("hasty")
    assert user.password.startswith("md5$")
    assert user.check_password("pw-hasty")
    production = make_password("pw-hasty", hasher="pbkdf2_sha256")
    assert check_password("pw-hasty", production)


HANGS = """
import time


def test_that_swallows_its_timeout_and_waits_on():
    # Catches what a signal would raise in it, as a teardown stuck on a lock in C would. Two
    # minutes, not for ever: were the limit to stop ending it, it would pass (the outer test then
    # fails) and leave no process behind spinning on the machine.
    end = time.monotonic() + 120
    while time.monotonic() < end:
        try:
            time.sleep(1)
        except BaseException:
            pass


def test_after_it():
    pass
"""


def test_a_test_that_hangs_is_ended_at_the_limit_named_with_its_stack_and_the_run_goes_on(tmp_path):
    # The suite's own settings (pyproject.toml) with their numbers made short: the method of
    # ending a test is what is checked, and the order of the two limits.
    ini = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert ini["faulthandler_timeout"] < ini["timeout"]
    (tmp_path / "test_hangs.py").write_text(HANGS)
    run = run_pytest(
        *("-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT), "-n", "1"),
        # Django and the heavy plugins stay out: the file needs none of them, and each of the
        # run's three processes (the controller, the worker and its replacement) would load them.
        *("-p", "no:django", "-p", "no:schemathesis", "-p", "no:hypothesispytest"),
        *("--timeout", "4", "-o", "faulthandler_timeout=2", str(tmp_path)),
    )
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, (run.returncode, run.stdout[-2000:], run.stderr[-2000:])
    assert "crashed while running" in run.stdout and "test_that_swallows_its_timeout_and_waits_on" in run.stdout
    assert "1 failed, 1 passed" in run.stdout
    # Where it waited, for whoever reads the CI log.
    assert "test_hangs.py" in run.stderr and "in test_that_swallows_its_timeout_and_waits_on" in run.stderr


RECORD_SEEDS = """
import json
import os

made = []


def pytest_collection_finish(session):
    from matches import services

    commitment = services.seed_commitment

    def recording(seed):
        made.append(commitment(seed))
        return made[-1]

    services.seed_commitment = recording


def pytest_sessionfinish(session, exitstatus):
    with open(os.environ["SEEDS_OUT"], "w") as out:
        json.dump(made, out)
"""


def test_a_test_run_twice_deals_its_matches_the_same_seeds_and_each_match_its_own_and_a_salt_deals_others(
    tmp_path,
):
    # tests/conftest.py's reproducible_matches: a failure that depends on the dice comes back when the
    # one test is run again. Two runs of a test that makes three matches, each in a fresh process,
    # then a third with TEST_MATCH_SALT, as a sweep for outcome-dependent tests runs it.
    (tmp_path / "record_seeds.py").write_text(RECORD_SEEDS)
    base = urlsplit(os.environ.get("DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/wizard_duels")
    database = urlunsplit(base._replace(path=f"{base.path}_seeds_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"))
    test = "tests/matches/analysis/test_player_luck_and_pages.py::test_a_players_luck_is_the_sum_of_their_seats_luck_in_their_verified_matches"
    runs = []
    try:
        for n, salt in enumerate(["", "", "sweep-1"]):
            out = tmp_path / f"seeds-{n}.json"
            # The first run builds the test database afresh and keeps it; the other two take it as
            # it was left (the test's writes rolled back) instead of building it again (about 3 s
            # of the test's 34 here: each run's own start-up is most of the rest).
            kept = ["--reuse-db", "--create-db"] if n == 0 else ["--reuse-db"]
            run = run_pytest(
                "-p",
                "no:xdist",
                "-p",
                "record_seeds",
                "-q",
                *kept,
                test,
                PYTHONPATH=str(tmp_path),
                SEEDS_OUT=str(out),
                DATABASE_URL=database,
                TEST_MATCH_SALT=salt,
            )
            assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
            runs.append(json.loads(out.read_text()))
    finally:
        drop_test_database(database)
    assert len(runs[0]) == 3 and len(set(runs[0])) == 3
    assert runs[1] == runs[0]
    assert len(runs[2]) == 3 and not set(runs[2]) & set(runs[0])
