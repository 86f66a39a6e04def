"""The IWDL league on the platform (issue 5): clubs, seasons, fixtures, results from verified
matches, organiser rulings, standings and ratings as rebuildable projections."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command

from engines import registry
from league.ratings.models import Rating, RatingPoint
from league.ratings.projection import ratings_rebuild
from league.seasons import selectors, services
from league.seasons.crest import crest_svg
from league.seasons.models import Club, Fixture, Season
from league.seasons.table import Result, standings
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.models import Event, Match
from matches.services import SeatSpec, bot_action, match_act, match_create
from matches.verification import match_verify


@pytest.fixture
def iwdl(db):
    return services.league_load_iwdl()


@pytest.fixture
def organiser(make_user, iwdl):
    user = make_user("organiser")
    iwdl.created_by = user
    iwdl.save()
    return user


def test_the_iwdl_has_twenty_four_clubs_one_per_plane_with_crests(iwdl):
    clubs = list(iwdl.clubs.all())
    assert len(clubs) == 24
    assert len({c.plane for c in clubs}) == 24 and len({c.name for c in clubs}) == 24
    svg = crest_svg(name=clubs[0].name, colours=clubs[0].colours)
    assert svg.startswith("<svg") and clubs[0].colours[0] in svg
    assert services.league_load_iwdl().clubs.count() == 24  # loading again adds nothing


def test_a_double_round_robin_of_24_clubs_has_46_rounds_with_every_club_once_per_round(iwdl, organiser):
    season = services.season_create(league=iwdl, created_by=organiser, start_date=dt.date(2027, 1, 4))
    fixtures = list(season.fixtures.select_related("home", "away"))
    assert len(fixtures) == 24 * 23 and max(f.round for f in fixtures) == 46
    for r in range(1, 47):
        clubs = [c for f in fixtures if f.round == r for c in (f.home_id, f.away_id)]
        assert len(clubs) == 24 == len(set(clubs))
    pairs = {(f.home_id, f.away_id) for f in fixtures}
    assert len(pairs) == 552  # each club hosts each other club once
    assert fixtures[-1].date == dt.date(2027, 1, 4) + dt.timedelta(weeks=45)


def test_only_organisers_create_seasons_or_rule_on_results(iwdl, organiser, make_user):
    coach = make_user("coach")
    with pytest.raises(Refusal) as refused:
        services.season_create(league=iwdl, created_by=coach, start_date=dt.date(2027, 1, 4))
    assert refused.value.code == "not_organiser" and Season.objects.count() == 0
    season = services.season_create(
        league=iwdl, created_by=organiser, start_date=dt.date(2027, 1, 4), clubs=list(iwdl.clubs.order_by("slug")[:4])
    )
    fixture = season.fixtures.first()
    before = Event.objects.filter(stream_id=season.stream_id).count()
    for call in (
        lambda: services.result_correct(
            fixture=fixture, user=coach, home_left=3, away_left=0, reason="x", expected_seq=AT_HEAD
        ),
        lambda: services.fixture_walkover(
            fixture=fixture, user=coach, winner=fixture.home, reason="x", expected_seq=AT_HEAD
        ),
        lambda: services.fixture_postpone(
            fixture=fixture, user=coach, date=dt.date(2027, 3, 1), reason="x", expected_seq=AT_HEAD
        ),
    ):
        with pytest.raises(Refusal) as refused:
            call()
        assert refused.value.code == "not_organiser"
    assert Event.objects.filter(stream_id=season.stream_id).count() == before


def small_season(iwdl, organiser, n=4):
    return services.season_create(
        league=iwdl, created_by=organiser, start_date=dt.date(2027, 1, 4), clubs=list(iwdl.clubs.order_by("slug")[:n])
    )


def test_postponement_walkover_and_a_late_correction_move_the_standings(iwdl, organiser):
    season = small_season(iwdl, organiser)
    first, later = season.fixtures.order_by("round", "id")[:2]
    services.fixture_postpone(
        fixture=first, user=organiser, date=dt.date(2027, 6, 1), reason="Portal storm", expected_seq=AT_HEAD
    )
    first.refresh_from_db()
    assert (first.status, first.date, first.ruling) == (Fixture.Status.POSTPONED, dt.date(2027, 6, 1), "Portal storm")
    services.fixture_walkover(
        fixture=later, user=organiser, winner=later.away, reason="Home club did not travel", expected_seq=AT_HEAD
    )
    table = {row["club"]: row for row in selectors.season_standings(season=season)}
    assert table[later.away.slug]["won"] == 1 and table[later.away.slug]["points"] == 3
    assert table[later.home.slug]["lost"] == 1
    # A ruling after the fact: the walkover becomes a 0-2 result (the away club still wins).
    services.result_correct(
        fixture=later, user=organiser, home_left=0, away_left=2, reason="Appeal upheld in part", expected_seq=AT_HEAD
    )
    table = {row["club"]: row for row in selectors.season_standings(season=season)}
    assert table[later.away.slug]["wizard_difference"] == 2 and table[later.home.slug]["wizard_difference"] == -2
    with pytest.raises(Refusal) as bad:
        services.result_correct(
            fixture=later, user=organiser, home_left=9, away_left=0, reason="typo", expected_seq=AT_HEAD
        )
    assert bad.value.code == "bad_result"


def test_the_fixture_projection_is_rebuilt_identically_from_the_season_stream(iwdl, organiser):
    season = small_season(iwdl, organiser)
    f = season.fixtures.order_by("round", "id")[1]
    services.fixture_walkover(fixture=f, user=organiser, winner=f.home, reason="No show", expected_seq=AT_HEAD)
    before = sorted(selectors.fixture_dict(x).items() for x in season.fixtures.all())
    table = selectors.season_standings(season=season)
    Fixture.objects.filter(season=season).delete()
    services.season_project(season=season)
    assert sorted(selectors.fixture_dict(x).items() for x in season.fixtures.all()) == before
    assert selectors.season_standings(season=season) == table


@pytest.mark.django_db(transaction=True)
def test_a_simulated_season_is_verified_and_independent_recomputations_agree(capsys):
    call_command("simulate-season", league="iwdl", season=1, clubs=4)
    out = capsys.readouterr().out
    assert "12 fixtures played" in out and "0 disputed" in out
    season = Season.objects.get(number=1)
    assert season.fixtures.filter(status=Fixture.Status.PLAYED).count() == 12
    # Independent recomputation: straight from the verified matches, not from the projection.
    clubs = season.config["clubs"]
    results = []
    for match in Match.objects.filter(game="wizard-dodgeball", verdict=Match.Verdict.VERIFIED):
        home, away = match.origin["fixture_clubs"]
        results.append(
            Result(
                home=home,
                away=away,
                home_wizards_left=match.result["scores"][0],
                away_wizards_left=match.result["scores"][1],
                round=int(match.origin["fixture"].split(":")[0][1:]),
            )
        )
    assert len(results) == 12
    expected = standings(clubs, results, lot_seed=season.config["lot_seed"])
    table = selectors.season_standings(season=season)
    assert [(r.club, r.points, r.wizard_difference, r.tiebreak) for r in expected] == [
        (row["club"], row["points"], row["wizard_difference"], row["tiebreak"]) for row in table
    ]
    # Each fixture's teams came from its draft: the match links back to it.
    for fixture in season.fixtures.select_related("match"):
        assert fixture.match.origin["draft"] == str(fixture.draft_id)
    # Ratings: clubs rated from those verified results; a rebuild gives identical numbers.
    ratings = sorted(Rating.objects.filter(game="wizard-dodgeball").values_list("competitor", "rating", "deviation"))
    points = sorted(RatingPoint.objects.filter(game="wizard-dodgeball").values_list("competitor", "sequence", "rating"))
    assert len(ratings) == 4 and all(c.startswith("club:") for c, _, _ in ratings)
    call_command("ratings", "rebuild", game="wizard-dodgeball")
    assert (
        sorted(Rating.objects.filter(game="wizard-dodgeball").values_list("competitor", "rating", "deviation"))
        == ratings
    )
    assert (
        sorted(RatingPoint.objects.filter(game="wizard-dodgeball").values_list("competitor", "sequence", "rating"))
        == points
    )


def test_a_verified_result_is_recorded_once_however_often_it_arrives(
    iwdl, organiser, django_capture_on_commit_callbacks
):
    season = small_season(iwdl, organiser, n=2)
    fixture = season.fixtures.order_by("round", "id").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and fixture.match is not None
    count = Event.objects.filter(stream_id=season.stream_id, type="result.recorded").count()
    assert services.result_record(match_id=fixture.match_id) is False
    assert Event.objects.filter(stream_id=season.stream_id, type="result.recorded").count() == count == 1
    with pytest.raises(Refusal) as again:
        services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    assert again.value.code == "fixture_started"


class _Half:
    """A bot rng that always answers 0.5: the same play every time."""

    def random(self) -> float:
        return 0.5


def play_duel(a, b):
    """a v b at Dueling Wizards, each person's moves chosen by the random bot, then verified."""
    match = match_create(game="dueling-wizards", seats=[SeatSpec(user=a), SeatSpec(user=b)], created_by=a)
    engine = registry.get("dueling-wizards")
    while True:
        match.refresh_from_db()
        to_move = engine.to_move(match.state)
        if not to_move:
            break
        seat = to_move[0]
        match_act(
            match_id=match.id,
            user=(a, b)[seat],
            seat=seat,
            action=bot_action(engine, "random", match.state, seat, _Half()),
            expected_seq=match.state_seq,
        )
    assert match_verify(match_id=match.id).verified


def test_ratings_rebuild_twice_gives_identical_numbers(db, make_user):
    users = [make_user(n) for n in ("ann", "ben", "cyd")]
    for a, b in [(0, 1), (1, 2), (2, 0), (0, 1)]:
        play_duel(users[a], users[b])
    assert ratings_rebuild(game="dueling-wizards") == 4
    fields = ("competitor", "rating", "deviation", "matches")
    first = list(Rating.objects.filter(game="dueling-wizards").values_list(*fields))
    ratings_rebuild(game="dueling-wizards")
    assert list(Rating.objects.filter(game="dueling-wizards").values_list(*fields)) == first
    assert sum(m for *_, m in first) == 8
    assert {c for c, *_ in first} == {f"user:{u.pk}" for u in users}


def test_closing_a_season_promotes_and_relegates_between_divisions(iwdl, organiser):
    clubs = list(iwdl.clubs.order_by("slug")[:8])
    slugs = [c.slug for c in clubs]
    season = services.season_create(
        league=iwdl,
        created_by=organiser,
        start_date=dt.date(2027, 1, 4),
        clubs=clubs,
        double=False,
        divisions={"Premier": slugs[:4], "Second": slugs[4:]},
        movements={"promote": 1, "relegate": 1},
    )
    with pytest.raises(Refusal) as early:
        services.season_close(season=season, user=organiser, expected_seq=AT_HEAD)
    assert early.value.code == "season_unfinished"
    # Every fixture is ruled a walkover for the club listed first alphabetically: a clear table.
    for f in season.fixtures.select_related("home", "away"):
        winner = min((f.home, f.away), key=lambda c: c.slug)
        services.fixture_walkover(fixture=f, user=organiser, winner=winner, reason="ruling", expected_seq=AT_HEAD)
    closed = services.season_close(season=season, user=organiser, expected_seq=AT_HEAD)
    assert closed["final"]["Premier"][0] == slugs[0] and closed["final"]["Second"][0] == slugs[4]
    assert closed["movements"] == [
        {"upper": "Premier", "lower": "Second", "promoted": [slugs[4]], "relegated": [slugs[3]], "playoff": []}
    ]
    nxt = services.next_divisions(season=season)
    assert slugs[4] in nxt["Premier"] and slugs[3] in nxt["Second"] and len(nxt["Premier"]) == 4
    with pytest.raises(Refusal) as again:
        services.season_close(season=season, user=organiser, expected_seq=AT_HEAD)
    assert again.value.code == "season_closed"


def test_a_league_of_another_game_plays_its_fixtures_as_plain_matches(
    db, make_user, django_capture_on_commit_callbacks
):
    from league.seasons.models import League

    duels = League.objects.create(
        slug="duel-league",
        name="Duel League",
        game="dueling-wizards",
        points=[2, 1, 0],
        tiebreaks=["wins", "lot"],
        created_by=make_user("host"),
    )
    clubs = [
        Club.objects.create(league=duels, slug=f"duel-club-{i}", name=f"Duel Club {i}", colours=["#123456"])
        for i in range(3)
    ]
    season = services.season_create(
        league=duels, created_by=duels.created_by, clubs=clubs, double=False, start_date=dt.date(2027, 2, 1)
    )
    fixture = season.fixtures.select_related("home", "away").order_by("round", "id").first()
    with django_capture_on_commit_callbacks(execute=True):
        match = services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    assert match.game == "dueling-wizards" and match.origin["fixture"] == fixture.key
    fixture.refresh_from_db()
    match.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and fixture.match_id == match.id
    home, away = match.result["placements"]
    # Not wizards left: one point to the winner, none to the loser, 0-0 when level.
    assert (fixture.home_left, fixture.away_left) == ((1, 0) if home < away else (0, 1) if away < home else (0, 0))
    table = selectors.season_standings(season=season)
    if home != away:
        assert table[0]["points"] == 2 and table[0]["won"] == 1
    else:  # equal health when the deck ran out: a draw, a point each (points 2/1/0)
        assert [r["points"] for r in table].count(1) == 2


def test_bad_season_and_fixture_requests_are_refused_and_write_nothing(iwdl, organiser, make_user):
    clubs = list(iwdl.clubs.order_by("slug")[:4])
    refusals = [
        (
            "too_few_clubs",
            lambda: services.season_create(
                league=iwdl, created_by=organiser, clubs=clubs[:1], start_date=dt.date(2027, 1, 4)
            ),
        ),
        (
            "bad_divisions",
            lambda: services.season_create(
                league=iwdl,
                created_by=organiser,
                clubs=clubs,
                divisions={"A": [clubs[0].slug]},
                start_date=dt.date(2027, 1, 4),
            ),
        ),
    ]
    for code, call in refusals:
        with pytest.raises(Refusal) as refused:
            call()
        assert refused.value.code == code
    assert Season.objects.count() == 0
    season = small_season(iwdl, organiser)
    fixture = season.fixtures.select_related("home", "away").order_by("round", "id").first()
    outsider = next(c for c in clubs if c.pk not in (fixture.home_id, fixture.away_id))
    before = Event.objects.filter(stream_id=season.stream_id).count()
    for code, call in [
        (
            "bad_winner",
            lambda: services.fixture_walkover(
                fixture=fixture, user=organiser, winner=outsider, reason="x", expected_seq=AT_HEAD
            ),
        ),
        (
            "reason_required",
            lambda: services.result_correct(
                fixture=fixture, user=organiser, home_left=1, away_left=0, reason="  ", expected_seq=AT_HEAD
            ),
        ),
        ("no_coach", lambda: services.fixture_start(fixture=fixture, user=organiser, expected_seq=AT_HEAD)),
    ]:
        with pytest.raises(Refusal) as refused:
            call()
        assert refused.value.code == code
    fixture.home.coaches.add(make_user("home-coach"))
    fixture.away.coaches.add(make_user("away-coach"))
    with pytest.raises(Refusal) as refused:
        services.fixture_start(fixture=fixture, user=make_user("stranger"), expected_seq=AT_HEAD)
    assert refused.value.code == "not_a_coach"
    assert Event.objects.filter(stream_id=season.stream_id).count() == before
    services.fixture_walkover(
        fixture=fixture, user=organiser, winner=fixture.home, reason="no show", expected_seq=AT_HEAD
    )
    fixture.refresh_from_db()
    with pytest.raises(Refusal) as refused:
        services.fixture_postpone(
            fixture=fixture, user=organiser, date=dt.date(2027, 5, 1), reason="x", expected_seq=AT_HEAD
        )
    assert refused.value.code == "already_played"
