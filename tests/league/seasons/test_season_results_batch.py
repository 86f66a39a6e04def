"""Many verdicts recorded at once leave what recording them one by one leaves (issue 17, P6).

``season_results_record`` appends a batch's results in one transaction per season and projects
the touched fixtures once; the results, their ids, the fixtures, the standings and the ratings
(applied in the verdicts' order afterwards) must be exactly those of ``result_record`` per verdict."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from league.ratings.projection import ratings_apply
from league.seasons import services
from matches.commands import AT_HEAD
from matches.models import Match
from tests.league.seasons.end_state import season_end_state
from tests.matches.helpers import stored_finished_match


@pytest.fixture
def season(db, make_user):
    league = services.league_load_iwdl()
    organiser = make_user("organiser", staff=True)
    clubs = list(league.clubs.order_by("slug")[:4])
    return services.season_create(league=league, created_by=organiser, start_date=dt.date(2027, 1, 2), clubs=clubs)


def finished(season, fixture, n: int, *, verdict=Match.Verdict.VERIFIED) -> Match:
    result = (
        {"placements": [0, 0], "unfinished": True, "detail": "Too many turns."}
        if n % 5 == 4
        else {"placements": [0, 1], "scores": [3, 0]}
        if n % 3
        else {"placements": [1, 0], "scores": [0, 2]}
    )
    return stored_finished_match(
        "wizard-dodgeball",
        result=result,
        verdict=verdict,
        head_hash=f"{n:064x}",
        origin={
            "season": str(season.pk),
            "fixture": fixture.key,
            "fixture_clubs": [fixture.home.slug, fixture.away.slug],
        },
    )


@pytest.fixture
def verdicts(season):
    """A season's matches in the order their verdicts committed, each fixture started."""
    fixtures = list(season.fixtures.select_related("home", "away").order_by("round", "key"))
    matches = [finished(season, f, n) for n, f in enumerate(fixtures)]
    for f, m in zip(fixtures, matches):
        services._append(
            season, "fixture.started", {"fixture": f.key, "match": str(m.pk)}, "system", expected_seq=AT_HEAD
        )
    # A disputed match lands nowhere and a friendly between two clubs only in the ratings, in either path.
    disputed = finished(season, fixtures[0], 1, verdict=Match.Verdict.DISPUTED)
    loose = finished(season, fixtures[1], 2)
    loose.origin = {"fixture_clubs": loose.origin["fixture_clubs"]}
    loose.save(update_fields=["origin"])
    return [m.pk for m in matches[:5]] + [disputed.pk, loose.pk] + [m.pk for m in matches[5:]]


def rolled_back(run, season) -> dict:
    with transaction.atomic():
        run()
        state = season_end_state(season)
        transaction.set_rollback(True)
    return state


def test_a_batch_of_verdicts_leaves_the_season_and_ratings_that_one_verdict_at_a_time_leaves(season, verdicts):
    def one_by_one():
        for match_id in verdicts:
            services.result_record(match_id=match_id)
            ratings_apply(match_id=match_id)

    def batched():
        assert services.season_results_record(match_ids=verdicts) == 12
        for match_id in verdicts:
            ratings_apply(match_id=match_id)

    expected = rolled_back(one_by_one, season)
    got = rolled_back(batched, season)

    assert got == expected
    assert len(got["points"]) == 2 * 11 and got["standings"][0]["played"] > 0
    assert [e[1] for e in got["events"][-12:]].count("result.unfinished") == 2
    assert got["projected_seq"] == got["head_seq"] == 2 + 12 + 12


def test_a_batch_skips_the_results_already_recorded_and_the_same_verdict_twice(season, verdicts):
    def one_by_one():
        for match_id in verdicts:
            services.result_record(match_id=match_id)

    def partly_recorded_then_batched():
        for match_id in verdicts[:3]:
            services.result_record(match_id=match_id)
        assert services.season_results_record(match_ids=[verdicts[0], *verdicts, verdicts[-1]]) == 9
        assert services.season_results_record(match_ids=verdicts) == 0

    assert rolled_back(partly_recorded_then_batched, season) == rolled_back(one_by_one, season)


def test_a_batch_appends_one_season_fact_per_result_in_one_transaction(season, verdicts, django_assert_max_num_queries):
    # One read of the matches and seasons, the runner's lock and commit, the stored-ids check, one
    # INSERT of the facts, the head, the outbox row and the projection: not a dozen per result.
    with django_assert_max_num_queries(16):
        assert services.season_results_record(match_ids=verdicts) == 12
