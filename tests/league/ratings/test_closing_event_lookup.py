"""A verdict's ratings step finds the match's closing event through its own index (issue 17).

The step orders results by each match's closing event. Read through the (stream, seq) index, that
lookup walked every event of the match, and a long game has hundreds.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from league.ratings.projection import _READ_ONE, _sql
from matches.models import Event
from tests.matches.helpers import stored_finished_match

pytestmark = pytest.mark.django_db


def _long_game(moves: int):
    match = stored_finished_match("dueling-wizards", result={"placements": [[0], [1]]})
    now = timezone.now()
    # The helper's closing event is seq 1; a real game's actions come before it, which only the
    # plan cares about here, so they follow it under later seqs.
    Event.objects.bulk_create(
        Event(
            stream_id=match.stream_id,
            seq=seq,
            type="action",
            data={"seat": seq % 2},
            actor="user:1",
            recorded_at=now,
            prev_hash="0" * 64,
            hash="0" * 64,
        )
        for seq in range(2, moves + 2)
    )
    return match


def test_the_closing_event_of_a_long_match_is_read_through_the_finished_index_not_its_whole_stream():
    if connection.vendor != "postgresql":
        pytest.skip("the plan is PostgreSQL's")
    matches = [_long_game(400) for _ in range(5)]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE matches_event")
        cursor.execute("EXPLAIN " + _sql(_READ_ONE), [matches[0].id])
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "matches_event_finished_idx" in plan, plan
    assert "event_stream_seq_unique" not in plan, plan
