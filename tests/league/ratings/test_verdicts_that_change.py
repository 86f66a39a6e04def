"""A match's verdict may change after it was rated: re-verification finds it disputed, and a
later run puts it right again (the match stays out of the ratings: a dispute is final). Whatever
the verdicts do, and however their follow-ups arrive (one at a time, twice, out of commit order,
in batches, lost and caught up by the sweep), once every verdict has been brought in the ratings
must be exactly what ``ratings rebuild`` gives from the verified results never disputed."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models.functions import Coalesce, Now
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.ratings.models import Rating, RatingCheckpoint, RatingPoint
from league.ratings.projection import ratings_apply, ratings_apply_many, ratings_rebuild
from matches.models import Match
from tests.matches.helpers import stored_finished_match

RATING_FIELDS = ("competitor", "label", "system", "rating", "deviation", "volatility", "sort_key", "matches")
POINT_FIELDS = ("competitor", "match_id", "sequence", "rating", "deviation", "volatility")
VERDICTS = [Match.Verdict.VERIFIED, Match.Verdict.DISPUTED, Match.Verdict.PENDING]


def snapshot(game: str):
    checkpoint = RatingCheckpoint.objects.filter(game=game).first()
    return (
        list(Rating.objects.filter(game=game).order_by("competitor").values_list(*RATING_FIELDS)),
        list(RatingPoint.objects.filter(game=game).order_by("sequence", "competitor").values_list(*POINT_FIELDS)),
        checkpoint.sequence if checkpoint else 0,
    )


def rebuilt(game: str):
    with transaction.atomic():
        ratings_rebuild(game=game)
        state = snapshot(game)
        transaction.set_rollback(True)
    return state


@pytest.fixture
def games(make_user):
    """Duels and four-player games between five people, finished in this order (commit order)."""
    a, b, c, d, e = (make_user(name) for name in ("ann", "ben", "cyd", "dee", "eve"))
    duels = [
        stored_finished_match("wizard-dodgeball", result={"placements": places}, users=pair)
        for pair, places in [
            ((a, b), [0, 1]),
            ((c, d), [1, 0]),
            ((a, c), [0, 1]),
            ((b, d), [0, 0]),
            ((e, a), [0, 1]),
            ((b, c), [1, 0]),
        ]
    ]
    fours = [
        stored_finished_match("dueling-wizards", result={"placements": places}, users=seats)
        for seats, places in [
            ((a, b, c, d), [0, 1, 2, 3]),
            ((b, c, d, e), [2, 0, 0, 1]),
            ((c, d, e, a), [1, 2, 0, 3]),
            ((e, a, b, c), [0, 1, 1, 2]),
        ]
    ]
    return {"wizard-dodgeball": duels, "dueling-wizards": fours}


#: One step: a verdict recorded for a match (its follow-up not yet delivered), or the delivery
#: of some undelivered follow-ups: one at a time (each maybe twice), or as one batch.
steps = st.lists(
    st.one_of(
        st.tuples(st.just("verdict"), st.integers(0, 9), st.sampled_from(VERDICTS)),
        st.tuples(st.just("deliver"), st.lists(st.integers(0, 9), max_size=6), st.booleans()),
        st.tuples(st.just("batch"), st.lists(st.integers(0, 9), max_size=6), st.booleans()),
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_ratings_equal_a_rebuild_after_every_verdict_change_however_it_is_delivered(games, steps):
    matches = [*games["wizard-dodgeball"], *games["dueling-wizards"]]
    with transaction.atomic():
        undelivered: set[int] = set()
        for step in steps:
            if step[0] == "verdict":
                _, index, label = step
                # As the verdict's write records it: a dispute once found is kept (a dispute is final).
                found = {"disputed_at": Coalesce("disputed_at", Now())} if label == Match.Verdict.DISPUTED else {}
                Match.objects.filter(pk=matches[index].pk).update(verdict=label, **found)
                undelivered.add(index)
                continue
            _, chosen, twice = step
            ids = [str(matches[i].pk) for i in chosen]
            if step[0] == "deliver":
                for match_id in ids:
                    ratings_apply(match_id=match_id)
                    if twice:
                        assert ratings_apply(match_id=match_id) is False  # a second delivery changes nothing
            else:
                ratings_apply_many(match_ids=ids)
                if twice:
                    assert ratings_apply_many(match_ids=ids) == 0
            undelivered -= set(chosen)
            if undelivered:
                continue  # a verdict still on its way: the ratings may rightly lag behind it
            for game in games:
                assert snapshot(game) == rebuilt(game), (game, steps)
        # And the sweep's catch-up of whatever was never delivered ends in the same place.
        ratings_apply_many(match_ids=[str(m.pk) for m in matches])
        for game in games:
            assert snapshot(game) == rebuilt(game), (game, steps)
        transaction.set_rollback(True)
