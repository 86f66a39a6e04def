"""Ratings updated one verdict at a time equal a rebuild from scratch (issue 17, P4a/P4b).

Each verdict folds its one result into the stored ratings; verdicts may arrive out of commit
order, and a match found disputed later leaves the ratings. Whatever the order, the leaderboard
and every rating chart must read exactly what ``ratings rebuild`` would give. The matches here
are stored finished and verified directly (their play is the engines' tests' business): what
is under test is the projection from verdicts to ratings."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from league.ratings.models import Rating, RatingCheckpoint, RatingPoint
from league.ratings.projection import ratings_apply, ratings_rebuild, ratings_refresh
from matches.models import Match
from tests.matches.helpers import stored_finished_match

RATING_FIELDS = ("competitor", "label", "system", "rating", "deviation", "volatility", "sort_key", "matches")
POINT_FIELDS = ("competitor", "match_id", "sequence", "rating", "deviation", "volatility")


def finished(game: str, users, placements, *, result=None) -> Match:
    """A finished match, its closing event committed now (so later calls come later in commit
    order), still waiting for its verdict."""
    return stored_finished_match(game, result=result or {"placements": placements}, users=users)


def verdict(match: Match, label=Match.Verdict.VERIFIED) -> bool:
    Match.objects.filter(pk=match.pk).update(verdict=label)
    return ratings_apply(match_id=match.pk)


def snapshot(game: str):
    return (
        list(Rating.objects.filter(game=game).order_by("competitor").values_list(*RATING_FIELDS)),
        list(RatingPoint.objects.filter(game=game).order_by("sequence", "competitor").values_list(*POINT_FIELDS)),
        RatingCheckpoint.objects.get(game=game).sequence,
    )


@pytest.fixture
def wizards(make_user):
    return [make_user(name) for name in ("ann", "ben", "cyd", "dee", "eve")]


def test_each_verdict_moves_the_ratings_exactly_as_a_rebuild_would(wizards):
    a, b, c, d, _ = wizards
    pairs = [(a, b, [0, 1]), (b, c, [1, 0]), (c, a, [0, 0]), (a, d, [1, 0]), (d, b, [0, 1])]
    for x, y, places in pairs:
        assert verdict(finished("wizard-dodgeball", [x, y], places)) is True
        incremental = snapshot("wizard-dodgeball")
        ratings_rebuild(game="wizard-dodgeball")
        # Bit-identical, not close: the stored floats are the rebuild's floats.
        assert snapshot("wizard-dodgeball") == incremental
    assert [m for *_, m in incremental[0]] == [3, 3, 2, 2]
    # A verdict delivered twice changes nothing the second time.
    last = Match.objects.order_by("-finished_at").first()
    assert ratings_apply(match_id=last.pk) is False and snapshot("wizard-dodgeball") == incremental


def test_verdicts_out_of_commit_order_and_a_later_dispute_still_equal_a_rebuild(wizards):
    a, b, c, d, e = wizards
    # Finished in this order (commit order); verified in another, as two workers would.
    matches = [
        finished("wizard-dodgeball", pair, places)
        for pair, places in [
            ((a, b), [0, 1]),
            ((c, d), [1, 0]),
            ((a, c), [0, 1]),
            ((b, d), [0, 0]),
            ((e, a), [0, 1]),
            ((b, c), [1, 0]),
        ]
    ]
    for index in (2, 0, 5, 1, 4, 3):
        verdict(matches[index])
    incremental = snapshot("wizard-dodgeball")
    ratings_rebuild(game="wizard-dodgeball")
    assert snapshot("wizard-dodgeball") == incremental
    assert incremental[2] == max(p[2] for p in incremental[1])  # the checkpoint is the newest result in

    # Re-verification finds the second match disputed: its result leaves the ratings, and the
    # results after it are rated again as if it had never counted.
    assert verdict(matches[1], Match.Verdict.DISPUTED) is True
    after_dispute = snapshot("wizard-dodgeball")
    assert str(matches[1].pk) not in {str(p[1]) for p in after_dispute[1]}
    ratings_rebuild(game="wizard-dodgeball")
    assert snapshot("wizard-dodgeball") == after_dispute
    assert verdict(matches[1], Match.Verdict.DISPUTED) is False  # already out


def test_a_late_verdict_over_points_kept_before_volatility_rebuilds_as_a_rebuild_would(wizards):
    # Points written before volatility was stored cannot say what a Glicko-2 rating was just
    # before a late result: the rewind gives up and the game is rebuilt instead.
    a, b, c, _, _ = wizards
    matches = [
        finished("wizard-dodgeball", pair, places)
        for pair, places in [((a, b), [0, 1]), ((b, c), [1, 0]), ((a, c), [0, 1])]
    ]
    verdict(matches[0])
    verdict(matches[2])
    RatingPoint.objects.filter(game="wizard-dodgeball").update(volatility=None)
    assert verdict(matches[1]) is True  # older than a result already in: a rewind, over a's old point
    incremental = snapshot("wizard-dodgeball")
    assert len(incremental[1]) == 6 and all(p[5] is not None for p in incremental[1])
    ratings_rebuild(game="wizard-dodgeball")
    assert snapshot("wizard-dodgeball") == incremental


def test_games_of_three_and_four_rated_by_openskill_fold_one_at_a_time_like_a_rebuild(wizards):
    a, b, c, d, e = wizards
    games = [
        finished("dueling-wizards", seats, places)
        for seats, places in [
            ((a, b, c), [0, 1, 2]),
            ((b, c, d), [2, 0, 0]),
            ((c, d, e), [1, 2, 0]),
            ((a, e, b), [0, 1, 1]),
        ]
    ]
    for index in (0, 3, 1, 2):
        verdict(games[index])
    incremental = snapshot("dueling-wizards")
    assert {system for _, _, system, *_ in incremental[0]} == {"openskill"}
    call_command("ratings", "rebuild", game="dueling-wizards")
    assert snapshot("dueling-wizards") == incremental


def test_results_that_count_nowhere_leave_the_ratings_alone(wizards, make_user):
    a, b, *_ = wizards
    verdict(finished("wizard-dodgeball", [a, b], [0, 1]))
    before = snapshot("wizard-dodgeball")
    unfinished = finished("wizard-dodgeball", [a, b], None, result={"placements": [0, 0], "unfinished": True})
    disputed = finished("wizard-dodgeball", [b, a], [0, 1])
    assert verdict(unfinished) is False
    assert verdict(disputed, Match.Verdict.DISPUTED) is False
    assert snapshot("wizard-dodgeball") == before
    # And the full check finds nothing missing.
    assert ratings_refresh(game="wizard-dodgeball") is False


def test_the_full_check_restores_a_result_whose_verdict_never_reached_the_ratings(wizards):
    a, b, c, *_ = wizards
    verdict(finished("wizard-dodgeball", [a, b], [0, 1]))
    lost = finished("wizard-dodgeball", [b, c], [0, 1])
    Match.objects.filter(pk=lost.pk).update(verdict=Match.Verdict.VERIFIED)  # its rating task never ran
    assert ratings_refresh(game="wizard-dodgeball") is True
    assert RatingPoint.objects.filter(match_id=lost.pk).count() == 2
    assert ratings_refresh(game="wizard-dodgeball") is False
