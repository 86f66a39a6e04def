"""Many verdicts folded into the ratings at once equal the same verdicts one at a time, and a
rebuild (issue 17, P6).

``ratings_apply_many`` takes a season's worth of verdicts in one transaction per game. Whatever
was in before (nothing, later results, a result now disputed), what it leaves must be exactly,
bit for bit, what ``ratings_apply`` per verdict and ``manage.py ratings rebuild`` leave."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import transaction

from league.ratings import projection
from league.ratings.models import Rating, RatingCheckpoint, RatingPoint
from league.ratings.projection import ratings_apply, ratings_apply_many, ratings_rebuild
from matches.models import Match
from tests.matches.helpers import stored_finished_match

RATING_FIELDS = ("competitor", "label", "system", "rating", "deviation", "volatility", "sort_key", "matches")
POINT_FIELDS = ("competitor", "match_id", "sequence", "rating", "deviation", "volatility")


def verified(game: str, users, placements, *, result=None, **fields) -> Match:
    return stored_finished_match(
        game, result=result or {"placements": placements}, users=users, verdict=Match.Verdict.VERIFIED, **fields
    )


def snapshot(game: str):
    checkpoint = RatingCheckpoint.objects.filter(game=game).first()
    return (
        list(Rating.objects.filter(game=game).order_by("competitor").values_list(*RATING_FIELDS)),
        list(RatingPoint.objects.filter(game=game).order_by("sequence", "competitor").values_list(*POINT_FIELDS)),
        checkpoint.sequence if checkpoint else 0,
    )


def rolled_back(run, game: str):
    with transaction.atomic():
        run()
        state = snapshot(game)
        transaction.set_rollback(True)
    return state


def rebuilt(game: str):
    return rolled_back(lambda: call_command("ratings", "rebuild", game=game), game)


@pytest.fixture
def wizards(make_user):
    return [make_user(name) for name in ("ann", "ben", "cyd", "dee", "eve")]


@pytest.fixture
def duels(wizards):
    a, b, c, d, e = wizards
    pairs = [(a, b, [0, 1]), (b, c, [1, 0]), (c, a, [0, 0]), (a, d, [1, 0]), (d, e, [0, 1]), (e, b, [1, 0])]
    return [verified("wizard-dodgeball", [x, y], places) for x, y, places in pairs]


def test_a_batch_of_verdicts_leaves_the_ratings_one_verdict_at_a_time_and_a_rebuild_leave(duels):
    ids = [m.pk for m in duels]

    def one_by_one():
        for match_id in ids:
            ratings_apply(match_id=match_id)

    expected = rolled_back(one_by_one, "wizard-dodgeball")
    assert ratings_apply_many(match_ids=ids) == 6
    got = snapshot("wizard-dodgeball")
    # Bit-identical, not close.
    assert got == expected == rebuilt("wizard-dodgeball")
    assert len(got[1]) == 12 and got[2] == max(p[2] for p in got[1])
    # The same batch again (a retried task) changes nothing.
    assert ratings_apply_many(match_ids=ids) == 0 and snapshot("wizard-dodgeball") == got


def test_a_batch_older_than_results_already_in_rewinds_and_replays_like_a_rebuild(duels):
    # Two workers verified the later matches first; the batch brings the earlier ones, in any order.
    ratings_apply(match_id=duels[4].pk)
    ratings_apply(match_id=duels[2].pk)
    assert ratings_apply_many(match_ids=[m.pk for m in reversed(duels)]) == 4
    assert snapshot("wizard-dodgeball") == rebuilt("wizard-dodgeball")


def test_a_batch_with_a_match_found_disputed_takes_its_result_out_like_a_rebuild(duels, wizards):
    ratings_apply_many(match_ids=[m.pk for m in duels[:4]])
    Match.objects.filter(pk=duels[1].pk).update(verdict=Match.Verdict.DISPUTED)
    disputed_new = verified("wizard-dodgeball", wizards[:2], [1, 0])
    Match.objects.filter(pk=disputed_new.pk).update(verdict=Match.Verdict.DISPUTED)

    assert ratings_apply_many(match_ids=[m.pk for m in duels] + [disputed_new.pk]) == 3
    got = snapshot("wizard-dodgeball")
    assert {str(duels[1].pk), str(disputed_new.pk)}.isdisjoint({str(p[1]) for p in got[1]})
    assert got == rebuilt("wizard-dodgeball")


def test_a_batch_of_four_player_games_rated_by_openskill_equals_one_at_a_time(wizards):
    a, b, c, d, e = wizards
    games = [
        verified("dueling-wizards", seats, places)
        for seats, places in [((a, b, c), [0, 1, 2]), ((b, c, d), [2, 0, 0]), ((c, d, e), [1, 2, 0])]
    ]
    ids = [g.pk for g in games]
    expected = rolled_back(lambda: [ratings_apply(match_id=i) for i in ids], "dueling-wizards")
    assert ratings_apply_many(match_ids=ids) == 3
    assert snapshot("dueling-wizards") == expected == rebuilt("dueling-wizards")
    assert {row[2] for row in expected[0]} == {"openskill"}


def test_a_batch_that_fails_mid_way_writes_nothing_and_a_retry_finishes_it(duels, monkeypatch):
    ids = [m.pk for m in duels]
    expected = rolled_back(lambda: [ratings_apply(match_id=i) for i in ids], "wizard-dodgeball")
    ratings_apply(match_id=ids[0])
    before = snapshot("wizard-dodgeball")
    real, calls = projection.rate_one, []

    def breaks_on_the_fourth(*args):
        calls.append(1)
        if len(calls) == 4:
            raise RuntimeError("worker lost")
        return real(*args)

    monkeypatch.setattr(projection, "rate_one", breaks_on_the_fourth)
    with pytest.raises(RuntimeError):
        ratings_apply_many(match_ids=ids)
    assert snapshot("wizard-dodgeball") == before  # not three of the five new results
    monkeypatch.setattr(projection, "rate_one", real)
    assert ratings_apply_many(match_ids=ids) == 5
    assert snapshot("wizard-dodgeball") == expected


def test_matches_that_count_nowhere_are_left_out_of_a_batch(duels, wizards, make_user):
    a, b, *_ = wizards
    unfinished = verified("wizard-dodgeball", [a, b], None, result={"placements": [0, 0], "unfinished": True})
    bot_game = verified("wizard-dodgeball", [a], [0, 1])
    draft = verified("iwdl-draft", [a, b], [0, 1])
    ratings_apply_many(match_ids=[unfinished.pk, bot_game.pk, draft.pk, "00000000-0000-0000-0000-000000000000"])
    assert RatingPoint.objects.count() == 0


def test_a_verified_match_with_placements_but_no_seats_or_clubs_is_not_rated_and_stops_nothing(duels, caplog):
    # Stored without its seats and not a fixture's: its placements name nobody. It used to raise
    # KeyError from _rated_result, stopping its own follow-ups and every rebuild of the game.
    seatless = verified("wizard-dodgeball", [], [0, 1])
    assert ratings_apply(match_id=seatless.pk) is False
    assert "no competitor" in caplog.text
    assert ratings_apply_many(match_ids=[seatless.pk, *(m.pk for m in duels)]) == 6
    assert not RatingPoint.objects.filter(match_id=seatless.pk).exists()
    assert ratings_rebuild(game="wizard-dodgeball") == 6
