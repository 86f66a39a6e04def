"""A full rebuild stores exactly what the rating library computes (issue 17, P4b).

``ratings rebuild`` folds the results while their points stream to PostgreSQL; whatever it does
to be quick, the rows it leaves must be the pure ledger's numbers for the same results, bit for
bit, and its statements must not grow with the results."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.ratings.ledger import rebuild
from league.ratings.models import Rating, RatingCheckpoint, RatingPoint
from league.ratings.projection import rated_results, rating_system, ratings_rebuild
from matches.models import Match
from tests.matches.helpers import stored_finished_match

from .test_incremental import finished

# A duel game (Glicko-2) and a four-player one (OpenSkill), with ties in both.
FINISHES = {
    "wizard-dodgeball": [[0, 1], [1, 0], [0, 0], [1, 0], [0, 1], [0, 0], [0, 1]],
    "annihilageddon": [[0, 1, 2, 3], [3, 2, 1, 0], [0, 0, 1, 2], [1, 0, 1, 0], [2, 3, 0, 1], [0, 1, 1, 1]],
}


def verified(game: str, users, count: int | None = None) -> None:
    finishes = FINISHES[game][:count]
    for n, places in enumerate(finishes):
        seats = [users[(n + k) % len(users)] for k in range(len(places))]
        match = finished(game, seats, places)
        Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.VERIFIED)


@pytest.fixture
def wizards(make_user):
    return [make_user(name) for name in ("ann", "ben", "cyd", "dee", "eve", "fay")]


@pytest.mark.parametrize("game", sorted(FINISHES))
def test_a_rebuild_stores_the_ledgers_ratings_and_points_bit_for_bit(game, wizards):
    verified(game, wizards)
    assert ratings_rebuild(game=game) == len(FINISHES[game])
    results, labels = rated_results(game)
    system = rating_system(game)
    ratings, history = rebuild(results, game, system=system)

    stored = {
        row[0]: row[1:]
        for row in Rating.objects.filter(game=game).values_list(
            "competitor", "label", "system", "rating", "deviation", "volatility", "sort_key", "matches"
        )
    }
    sort_key = (lambda r: r.conservative) if system == "glicko2" else (lambda r: r.ordinal)
    assert stored == {
        key: (
            labels[key],
            system,
            r.rating,
            r.deviation,
            getattr(r, "volatility", None),
            sort_key(r),
            len(history[key]),
        )
        for key, r in ratings.items()
    }
    assert {label for label, *_ in stored.values()} <= {w.username for w in wizards}
    points = sorted(
        RatingPoint.objects.filter(game=game).values_list(
            "competitor", "sequence", "match_id", "rating", "deviation", "volatility"
        )
    )
    assert points == sorted(
        (key, p.sequence, p.match_id, p.rating, p.deviation, p.volatility) for key, ps in history.items() for p in ps
    )
    assert RatingCheckpoint.objects.get(game=game).sequence == results[-1].sequence

    # Again: the old rows are replaced, not added to.
    ratings_rebuild(game=game)
    assert RatingPoint.objects.filter(game=game).count() == len(points)
    assert Rating.objects.filter(game=game).count() == len(stored)


def test_a_rebuilds_statements_do_not_grow_with_its_results(wizards):
    game = "wizard-dodgeball"
    verified(game, wizards, 2)
    ratings_rebuild(game=game)  # the game's first creates its checkpoint row
    with CaptureQueriesContext(connection) as few:
        ratings_rebuild(game=game)
    verified(game, wizards)
    with CaptureQueriesContext(connection) as more:
        assert ratings_rebuild(game=game) == 2 + len(FINISHES[game])
    assert len(more) == len(few)


def test_a_rebuild_labels_people_by_their_current_names_and_clubs_by_their_slugs(wizards):
    # The rebuild reads the names once per person, apart from the results (issue 17, P4b).
    ann, ben = wizards[:2]
    game = "wizard-dodgeball"
    for places, origin in (([0, 1], {}), ([1, 0], {"fixture_clubs": ["owls", "ravens"]})):
        stored_finished_match(
            game, result={"placements": places}, users=[ann, ben], verdict=Match.Verdict.VERIFIED, origin=origin
        )
    ann.username = "annabel"
    ann.save()
    assert ratings_rebuild(game=game) == 2
    assert dict(Rating.objects.filter(game=game).values_list("competitor", "label")) == {
        f"user:{ann.pk}": "annabel",
        f"user:{ben.pk}": "ben",
        "club:owls": "owls",
        "club:ravens": "ravens",
    }


def test_a_rebuild_that_fails_mid_way_leaves_the_ratings_as_they_were(wizards, monkeypatch):
    # The old rows are deleted and the new points streamed before the fold ends: all of it is
    # one transaction, so a failure part way leaves neither a half-written history nor none.
    from league.ratings import projection

    game = "wizard-dodgeball"
    verified(game, wizards, 3)
    ratings_rebuild(game=game)
    verified(game, wizards)

    def snapshot():
        return (
            sorted(Rating.objects.filter(game=game).values_list("competitor", "rating", "deviation", "matches")),
            sorted(RatingPoint.objects.filter(game=game).values_list("competitor", "sequence", "rating")),
            RatingCheckpoint.objects.get(game=game).sequence,
        )

    before = snapshot()
    real, calls = projection.rate_one, []

    def breaks_on_the_fifth(*args):
        calls.append(1)
        if len(calls) == 5:
            raise RuntimeError("worker lost")
        return real(*args)

    monkeypatch.setattr(projection, "rate_one", breaks_on_the_fifth)
    with pytest.raises(RuntimeError):
        ratings_rebuild(game=game)
    assert len(calls) == 5
    assert snapshot() == before
    monkeypatch.setattr(projection, "rate_one", real)
    assert ratings_rebuild(game=game) == 3 + len(FINISHES[game])
    assert RatingPoint.objects.filter(game=game).count() == 2 * (3 + len(FINISHES[game]))
