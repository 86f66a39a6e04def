"""A closed season's table is final (test_a_result_disputed_after_the_season_closed.py): its
promotions and relegations are announced and the next season is built from them. So no ruling
changes one of its fixtures any more, through the services, the API or the pages: each is refused
with 409 season_closed and a sentence, and writes nothing. The platform's own retraction of a
result found disputed after the close is still recorded, as that ruling says. Nothing reopens a
closed season (there is no such command)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from league.errors import LeagueError
from league.seasons import services
from league.seasons.models import Season
from matches.commands import AT_HEAD
from matches.models import Event

from .test_league_api import close, create_season, iwdl, rule  # noqa: F401  (iwdl is a fixture)
from .test_organiser_pages import client_for as page_client
from .test_organiser_pages import league_setup, season, season_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

CLOSED = "This season is closed: its final table stands, so its fixtures can no longer be ruled on."


def events(of: Season) -> list[tuple[str, dict]]:
    return list(Event.objects.filter(stream_id=of.stream_id).order_by("seq").values_list("type", "data"))


def closed(open_season: Season, organiser) -> Season:
    """Every fixture ruled, then the season closed."""
    for f in open_season.fixtures.select_related("home", "away"):
        services.fixture_walkover(fixture=f, user=organiser, winner=f.home, reason="ruled", expected_seq=AT_HEAD)
    services.season_close(season=open_season, user=organiser, expected_seq=AT_HEAD)
    return Season.objects.get(pk=open_season.pk)


RULINGS = {
    "walkover": lambda f, user, guard: services.fixture_walkover(
        fixture=f, user=user, winner=f.away, reason="The home club did not turn up after all", **guard
    ),
    "correct": lambda f, user, guard: services.result_correct(
        fixture=f, user=user, home_left=0, away_left=2, reason="The referee's card was misread", **guard
    ),
    "postpone": lambda f, user, guard: services.fixture_postpone(
        fixture=f, user=user, date=dt.date(2027, 9, 1), reason="Snow", **guard
    ),
}


@pytest.mark.parametrize("ruling", list(RULINGS))
@pytest.mark.parametrize("at_head", [False, True], ids=["at_the_head_read", "AT_HEAD"])
def test_a_ruling_on_a_fixture_of_a_closed_season_is_refused_and_writes_nothing(
    season,  # noqa: F811
    league_setup,  # noqa: F811
    ruling,
    at_head,
):
    _, organiser, _ = league_setup
    season = closed(season, organiser)
    fixture = season.fixtures.select_related("home", "away", "season__league").first()
    before = events(season)
    guard = {"expected_seq": AT_HEAD if at_head else season.projected_seq, "event_id": uuid.uuid4()}
    with pytest.raises(LeagueError) as refused:
        RULINGS[ruling](fixture, organiser, guard)
    assert (refused.value.code, refused.value.status, refused.value.message) == ("season_closed", 409, CLOSED)
    assert events(season) == before


def test_a_ruling_made_before_the_close_and_sent_again_after_it_is_answered_with_what_it_recorded(
    season,  # noqa: F811
    league_setup,  # noqa: F811
):
    _, organiser, _ = league_setup
    fixture = season.fixtures.select_related("home", "away", "season__league").first()
    guard = {"expected_seq": season.projected_seq, "event_id": uuid.uuid4()}
    RULINGS["walkover"](fixture, organiser, guard)
    season = closed(season, organiser)
    before = events(season)
    RULINGS["walkover"](fixture, organiser, guard)  # its reply was lost: a retry, not a new ruling
    assert events(season) == before


def test_the_api_refuses_every_ruling_on_a_closed_seasons_fixture_with_409_season_closed(
    iwdl,  # noqa: F811
    client_for,
):
    organiser = client_for(iwdl.created_by)
    create_season(organiser)
    fixtures = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"]
    for f in fixtures:
        assert (
            rule(organiser, f["key"], {"action": "walkover", "winner": f["home"], "reason": "ruled"}).status_code == 200
        )
    assert close(organiser).status_code == 200
    settled = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"]
    before = Event.objects.count()
    f = fixtures[0]
    for body in (
        {"action": "walkover", "winner": f["away"], "reason": "The home club did not turn up after all"},
        {"action": "correct", "home_left": 0, "away_left": 2, "reason": "The referee's card was misread"},
        {"action": "postpone", "date": "2027-09-01", "reason": "Snow"},
    ):
        refused = rule(organiser, f["key"], body)
        assert refused.status_code == 409 and refused.json() == {"code": "season_closed", "detail": CLOSED}
    assert Event.objects.count() == before
    assert client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"] == settled


def test_the_rule_page_of_a_closed_season_says_so_offers_no_ruling_and_a_press_from_before_is_refused_in_words(
    season,  # noqa: F811
    league_setup,  # noqa: F811
):
    _, organiser, _ = league_setup
    client = page_client(organiser)
    fixture = season.fixtures.select_related("home", "away").first()
    url = f"{season_url(season)}fixtures/{fixture.key}/rule/"
    season = closed(season, organiser)
    shown = client.get(season_url(season)).content.decode()
    assert "Rule…" not in shown and 'data-testid="rule-' not in shown
    page = client.get(url).content.decode()
    assert CLOSED in page
    assert 'data-testid="do-walkover"' not in page and 'data-testid="do-correct"' not in page
    before = events(season)
    # A page opened before the close, pressed after it, at the head the season has now.
    response = client.post(
        url,
        {
            "action": "correct",
            "expected_seq": season.projected_seq,
            "event_id": uuid.uuid4(),
            "home_left": 0,
            "away_left": 2,
            "reason": "misread",
            "confirm": "on",
        },
    )
    assert response.status_code == 200 and CLOSED in response.content.decode()
    assert events(season) == before
