"""What each verdict of a season costs after the verification itself, first fixture vs last
(issue 17, P6): the result landing in the season's fixtures, then in the ratings.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels \
        .venv/bin/python benchmarks/bench_season_followups.py [--clubs 24]

A double round robin of the IWDL's clubs (24: 552 fixtures) on a scratch database. Each
fixture gets a stored, verified match (origin: the fixture's clubs, as a played fixture has)
and its two facts (started, result recorded). Measured in the same run:

- fixtures: the whole-season refold after each fact (``season_project``, the path before issue 17)
  against what a verdict does today: the fixture's start appended as the services append it and
  the result landing through ``result_record`` (the command runner, refolding only that fixture's
  facts inside its transaction, ``league.seasons.projector``), over the whole season;
- ratings: ``ratings_apply`` after each verdict over the whole season, against the old
  ``ratings_refresh`` (re-read every result, rebuild) timed every 46th result.

It prints the mean per result in the first and the last 46 results (growth = last / first)
and the season's totals. Then a third season, its starts appended first, takes all its verdicts
at once (``season_results_record``, then ``ratings_apply_many``), against the
first season's ``result_record`` and ``ratings_apply`` verdict by verdict. The match replays themselves (the verification work) are not here:
``verify`` measures those.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from matches.commands import AT_HEAD  # noqa: E402


def season_with_matches(clubs: int, number: int):
    from league.seasons import services
    from matches.models import Event, Match, Stream

    league = services.league_load_iwdl()
    picked = list(league.clubs.order_by("slug")[:clubs])
    season = services.season_create(league=league, created_by=None, start_date=dt.date(2027, 1, 2), clubs=picked)
    fixtures = list(season.fixtures.select_related("home", "away").order_by("round", "key"))
    matches = []
    for n, f in enumerate(fixtures):
        stream = Stream.objects.create(id=f"match:{uuid.uuid4()}", kind="match", head_seq=1)
        home_wins = (n * 7919 + number) % 3 != 0
        matches.append(
            Match.objects.create(
                stream=stream,
                game="wizard-dodgeball",
                engine_version="1",
                status="finished",
                verdict="verified",
                result={"placements": [0, 1] if home_wins else [1, 0], "scores": [3, 0] if home_wins else [0, 2]},
                origin={"season": str(season.pk), "fixture": f.key, "fixture_clubs": [f.home.slug, f.away.slug]},
                finished_at=timezone.now(),
            )
        )
        Event.objects.create(
            stream=stream,
            seq=1,
            type="match.finished",
            data={},
            actor="server",
            recorded_at=timezone.now(),
            prev_hash="0" * 64,
            hash="1" * 64,
        )
    return season, fixtures, matches


def play(season, fixtures, matches, project, rate, sample_old_ratings: bool):
    """``project``: None for today's path (the services' append and ``result_record``), else the
    function refolding after each fact appended by ``streams.stream_append``."""
    from league import streams
    from league.ratings.projection import ratings_refresh
    from league.seasons import services

    fold_times, rate_times, old_rate, result_times = [], [], {}, []
    for n, (f, m) in enumerate(zip(fixtures, matches)):
        started = {"fixture": f.key, "match": str(m.pk)}
        start = time.perf_counter()
        if project is None:
            services._append(season, "fixture.started", started, "system", expected_seq=AT_HEAD)
            middle = time.perf_counter()
            services.result_record(match_id=m.pk)
            result_times.append(time.perf_counter() - middle)
        else:
            facts = [
                ("fixture.started", started),
                (
                    "result.recorded",
                    {
                        "fixture": f.key,
                        "match": str(m.pk),
                        "home_left": m.result["scores"][0],
                        "away_left": m.result["scores"][1],
                        "head_hash": m.head_hash,
                    },
                ),
            ]
            for type, data in facts:
                with transaction.atomic():
                    streams.stream_append(
                        stream_id=season.stream_id,
                        kind="season",
                        type=type,
                        data=data,
                        actor="system",
                        expected_seq=AT_HEAD,
                    )
                    project(season, f.key)
        fold_times.append(time.perf_counter() - start)
        if rate is not None:
            start = time.perf_counter()
            rate(m.pk)
            rate_times.append(time.perf_counter() - start)
        if sample_old_ratings and (n % 46 == 0 or n == len(fixtures) - 1):
            start = time.perf_counter()
            with transaction.atomic():
                from league.ratings.models import RatingPoint

                # Take the newest result out so the old path has a missing result to rebuild for.
                RatingPoint.objects.filter(game="wizard-dodgeball", match_id=m.pk).delete()
                ratings_refresh(game="wizard-dodgeball")
            old_rate[n] = time.perf_counter() - start
    return fold_times, rate_times, old_rate, result_times


def batched(season, fixtures, matches):
    """The season's starts appended (not timed), then every verdict's follow-ups at once: the
    results by ``season_results_record``, the ratings by ``ratings_apply_many``."""
    from league.ratings.projection import ratings_apply_many
    from league.seasons import services
    from league.seasons.projector import season_project_fixtures
    from matches.commands import command_run
    from matches.eventstore import NewEvent

    def start_all(_subject, appender):
        appender.append(
            [
                NewEvent(type="fixture.started", data={"fixture": f.key, "match": str(m.pk)}, actor="system")
                for f, m in zip(fixtures, matches)
            ]
        )
        season_project_fixtures(season=season, fixtures=[f.key for f in fixtures])

    command_run(stream_id=season.stream_id, expected_seq=AT_HEAD, event_id=None, execute=start_all)
    start = time.perf_counter()
    recorded = services.season_results_record(match_ids=[m.pk for m in matches])
    results = time.perf_counter() - start
    assert recorded == len(matches), recorded
    start = time.perf_counter()
    ratings_apply_many(match_ids=[m.pk for m in matches])
    return results, time.perf_counter() - start


def run(clubs: int, new_only: bool = False) -> None:
    from league.ratings.projection import ratings_apply
    from league.seasons import services

    season_a, fixtures_a, matches_a = season_with_matches(clubs, 1)
    season_b, fixtures_b, matches_b = season_with_matches(clubs, 2)
    season_c, fixtures_c, matches_c = season_with_matches(clubs, 1)
    n = len(fixtures_a)
    print(f"{clubs} clubs, {n} fixtures per season, {n} verdicts each; ms per result")
    new_fold, new_rate, _, new_results = play(
        season_a,
        fixtures_a,
        matches_a,
        None,
        lambda match_id: ratings_apply(match_id=match_id),
        False,
    )
    from league.seasons.projector import fixture_facts_query

    # How the projector read one fixture's facts at the season's end (matches migration 0011).
    print(fixture_facts_query(stream_id=season_a.stream_id, fixtures=[fixtures_a[-1].key]).explain(analyze=True))
    if new_only:
        print(f"{'what':<44}{'first':>9}{'last':>9}{'growth':>9}{'total s':>10}")
        # The old paths take about twenty minutes for a 24-club season on a loaded machine; the
        # season's follow-ups today are the projector's and ratings_apply's.
        k = min(46, n // 4)
        for what, times in (
            ("fixtures: start + result_record (projector)", new_fold),
            ("ratings: ratings_apply", new_rate),
        ):
            first, last = statistics.mean(times[:k]) * 1000, statistics.mean(times[-k:]) * 1000
            print(f"{what:<44}{first:>9.2f}{last:>9.2f}{last / first:>8.1f}x{sum(times):>10.2f}")
        print(f"season follow-ups: {sum(new_fold) + sum(new_rate):.1f} s")
        batch_results, batch_rate = batched(season_c, fixtures_c, matches_c)
        report_batch(new_results, new_rate, batch_results, batch_rate)
        return
    old_fold, _, old_rate, _ = play(
        season_b,
        fixtures_b,
        matches_b,
        lambda s, key: services.season_project(season=s),
        lambda match_id: ratings_apply(match_id=match_id),
        True,
    )
    k = min(46, n // 4)

    def row(what, times):
        first, last = statistics.mean(times[:k]) * 1000, statistics.mean(times[-k:]) * 1000
        print(f"{what:<44}{first:>9.2f}{last:>9.2f}{last / first:>8.1f}x{sum(times):>10.2f}")

    print(f"{'what':<44}{'first':>9}{'last':>9}{'growth':>9}{'total s':>10}")
    row("fixtures: whole-season refold (today)", old_fold)
    row("fixtures: start + result_record (projector)", new_fold)
    row("ratings: ratings_apply per verdict", new_rate)
    samples = sorted(old_rate)
    first, last = old_rate[samples[0]] * 1000, old_rate[samples[-1]] * 1000
    estimate = statistics.mean(old_rate.values()) * n
    print(
        f"{'ratings: old refresh per verdict (sampled)':<44}{first:>9.2f}{last:>9.2f}{last / first:>8.1f}x"
        f"{estimate:>10.2f} (est.)"
    )
    print(
        f"season follow-ups, today: {sum(old_fold) + estimate:.1f} s; with the projector and incremental "
        f"ratings: {sum(new_fold) + sum(new_rate):.1f} s"
    )
    batch_results, batch_rate = batched(season_c, fixtures_c, matches_c)
    report_batch(new_results, new_rate, batch_results, batch_rate)


def report_batch(new_results, new_rate, batch_results, batch_rate) -> None:
    per_verdict = sum(new_results) + sum(new_rate)
    print(
        f"the verdicts' follow-ups alone (the starts came before): one verdict at a time, result_record "
        f"{sum(new_results):.2f} s + ratings_apply {sum(new_rate):.2f} s = {per_verdict:.1f} s; all at once, "
        f"season_results_record {batch_results:.2f} s + ratings_apply_many {batch_rate:.2f} s = "
        f"{batch_results + batch_rate:.1f} s ({per_verdict / (batch_results + batch_rate):.1f}x less)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clubs", type=int, default=24)
    parser.add_argument("--new-only", action="store_true", help="time today's paths only, not the old ones")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args.clubs, args.new_only)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
