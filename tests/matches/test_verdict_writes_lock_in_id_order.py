"""A batch of verdicts takes its matches' rows in id order, as the ratings' updates do
(league/ratings/projection.py ``_hold_verdicts``). Taken in any other order, a verification and a
ratings update over the same two matches can each hold one row and wait for the other: PostgreSQL
ends one of them as deadlocked (a ratings follow-up is then left to the sweep)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.models import Match
from matches.verification import _verdicts_write
from tests.matches.helpers import stored_finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def share_lock(match_id) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL lock_timeout = '20s'")
        cursor.execute("SELECT 1 FROM matches_match WHERE id = %s FOR SHARE", [str(match_id)])


def test_a_verdict_batch_waits_for_a_held_row_before_taking_any_other(make_user):
    ann, ben = make_user("ann"), make_user("ben")
    matches = [
        stored_finished_match("dueling-wizards", result={"placements": [1, 2]}, users=[ann, ben]) for _ in range(2)
    ]
    first, last = sorted(matches, key=lambda m: str(m.pk))
    for m in matches:
        m.verdict = Match.Verdict.DISPUTED
        m.verdict_reason = "checked again"
        m.verified_at = timezone.now()  # the time of the read the verdict is based on
    outcome: dict = {}

    def verify():
        try:
            with transaction.atomic():
                # The later id first, as a batch read in another order would hand them over.
                _verdicts_write([last, first])
            outcome["verify"] = "written"
        except Exception as error:  # a deadlock found by PostgreSQL
            outcome["verify"] = repr(error)
        finally:
            connection.close()

    with transaction.atomic():
        share_lock(first.pk)  # a ratings update holding the first of its two matches
        writer = threading.Thread(target=verify, daemon=True)
        writer.start()
        # Until the batch waits on a lock (the first row, or the other once it holds one).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'"
                )
                if cursor.fetchone()[0]:
                    break
            time.sleep(0.05)
        share_lock(last.pk)  # the update's second match: free, if the batch waits holding nothing
    writer.join(30)
    assert outcome == {"verify": "written"}
    assert set(Match.objects.values_list("verdict", flat=True)) == {Match.Verdict.DISPUTED}


def test_a_single_verdict_waits_for_a_held_row_and_lands_after_it_with_one_statement(make_user):
    ann, ben = make_user("ann"), make_user("ben")
    match = stored_finished_match("dueling-wizards", result={"placements": [1, 2]}, users=[ann, ben])
    match.verdict = Match.Verdict.DISPUTED
    match.verdict_reason = "checked again"
    match.verified_at = timezone.now()
    outcome: dict = {}

    def verify():
        try:
            with CaptureQueriesContext(connection) as queries, transaction.atomic():
                outcome["landed"] = _verdicts_write([match])
            outcome["statements"] = [q["sql"] for q in queries if "matches_match" in q["sql"]]
        finally:
            connection.close()

    waited = False
    with transaction.atomic():
        share_lock(match.pk)  # a ratings update that read the old verdict, still writing
        writer = threading.Thread(target=verify, daemon=True)
        writer.start()
        deadline = time.monotonic() + 30
        while not waited and time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'"
                )
                waited = bool(cursor.fetchone()[0])
            time.sleep(0.05)
    writer.join(30)
    # Without the batch's ordered SELECT the UPDATE itself takes the row, so it still lands after
    # the update that held it, not beside it.
    assert waited
    assert outcome["landed"] == {str(match.pk)}
    assert len(outcome["statements"]) == 1 and outcome["statements"][0].startswith("UPDATE"), outcome
    match.refresh_from_db()
    assert match.verdict == Match.Verdict.DISPUTED and match.disputed_at == match.verified_at
