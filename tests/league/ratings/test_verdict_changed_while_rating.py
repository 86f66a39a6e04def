"""A verdict that changes while its earlier verdict's rating update is still being written.

Re-verification finds a match disputed just as a worker is folding its verified result into the
ratings. The dispute's own follow-up comes after the dispute's commit; whatever it finds, the
match must end up out of the ratings, as a rebuild leaves it, and not wait for the sweep."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from league.ratings import projection
from league.ratings.models import Rating, RatingCheckpoint, RatingPoint
from league.ratings.projection import ratings_apply, ratings_rebuild
from matches.models import Match
from tests.matches.helpers import stored_finished_match

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "wizard-dodgeball"


def snapshot():
    return (
        list(Rating.objects.filter(game=GAME).order_by("competitor").values_list("competitor", "rating", "matches")),
        list(
            RatingPoint.objects.filter(game=GAME).order_by("sequence", "competitor").values_list("match_id", "rating")
        ),
        RatingCheckpoint.objects.get(game=GAME).sequence,
    )


def rebuilt():
    with transaction.atomic():
        ratings_rebuild(game=GAME)
        state = snapshot()
        transaction.set_rollback(True)
    return state


def waiting_on_a_lock(thread: threading.Thread) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def in_thread(name: str, work) -> threading.Thread:
    def run():
        try:
            work()
        finally:
            connection.close()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("late", [False, True], ids=["the newest result", "a result older than one already in"])
def test_a_dispute_recorded_while_the_verified_result_is_being_rated_takes_it_out(make_user, monkeypatch, late):
    # Two workers at once need row locks and pg_stat_activity: the suite runs on PostgreSQL.
    assert connection.vendor == "postgresql", "this test needs PostgreSQL (DATABASE_URL)"
    ann, ben, cyd = make_user("ann"), make_user("ben"), make_user("cyd")
    verified = Match.Verdict.VERIFIED
    if late:
        target = stored_finished_match(GAME, result={"placements": [0, 1]}, users=[ben, cyd], verdict=verified)
        newer = stored_finished_match(GAME, result={"placements": [1, 0]}, users=[ann, ben], verdict=verified)
        ratings_apply(match_id=newer.pk)
    else:
        older = stored_finished_match(GAME, result={"placements": [1, 0]}, users=[ann, ben], verdict=verified)
        ratings_apply(match_id=older.pk)
        target = stored_finished_match(GAME, result={"placements": [0, 1]}, users=[ben, cyd], verdict=verified)

    # The verified verdict's worker stops in the middle of its rating step ...
    folding, go_on = threading.Event(), threading.Event()
    real = projection.rate_one

    def rate_one(*args, **kwargs):
        if threading.current_thread().name == "verified":
            folding.set()
            assert go_on.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(projection, "rate_one", rate_one)
    first = in_thread("verified", lambda: ratings_apply(match_id=target.pk))
    assert folding.wait(20)

    # ... while re-verification records the dispute, and then its follow-up runs.
    def dispute():
        Match.objects.filter(pk=target.pk).update(verdict=Match.Verdict.DISPUTED)
        ratings_apply(match_id=target.pk)

    second = in_thread("disputed", dispute)
    deadline = time.monotonic() + 20
    while second.is_alive() and not waiting_on_a_lock(second) and time.monotonic() < deadline:
        time.sleep(0.01)  # until the dispute is done or waits for the first worker
    go_on.set()
    first.join(20)
    second.join(20)
    assert not first.is_alive() and not second.is_alive()

    assert not RatingPoint.objects.filter(match_id=target.pk).exists()
    assert snapshot() == rebuilt()
