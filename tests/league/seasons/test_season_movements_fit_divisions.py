"""A season's promotions, relegations and play-off places must fit its divisions: a lower
division gives up its promoted and play-off clubs, an upper one its relegated clubs, and a
middle one both, without overlap (table.division_movements). A schedule that cannot is refused
when it is made, in words with a stable code; a season stored before that refusal existed is
refused at its close the same way, never with a server error."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from league.errors import LeagueError
from league.seasons import services
from league.seasons.models import Season
from matches.models import Event, Stream

from .test_league_api import close, iwdl, rule  # noqa: F401  (fixtures)
from .test_organiser_pages import client_for as page_client
from .test_organiser_pages import league_setup  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _two_of_two(iwdl):  # noqa: F811
    slugs = sorted(c.slug for c in iwdl.clubs.all())[:4]
    return {"North": slugs[:2], "South": slugs[2:]}


def test_a_season_whose_divisions_cannot_hold_its_movements_is_refused_in_words_and_nothing_is_made(
    iwdl,  # noqa: F811
    client_for,
):
    divisions = _two_of_two(iwdl)
    streams = Stream.objects.count()
    refused = client_for(iwdl.created_by).post(
        "/api/leagues/iwdl/seasons/",
        {
            "start_date": "2027-01-04",
            "clubs": [s for members in divisions.values() for s in members],
            "divisions": divisions,
            "promote": 2,
            "relegate": 2,
            "playoff_spots": 1,
        },
        format="json",
    )
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "movements_do_not_fit"
    assert refused.json()["detail"].startswith(
        "Division 'South' has 2 club(s), too few for 2 promoted and 1 in the promotion play-off."
    )
    assert not Season.objects.exists() and Stream.objects.count() == streams


def test_a_middle_division_must_hold_both_its_promoted_and_its_relegated_clubs(iwdl):  # noqa: F811
    slugs = sorted(c.slug for c in iwdl.clubs.all())[:9]
    divisions = {"Top": slugs[:3], "Middle": slugs[3:6], "Bottom": slugs[6:]}
    with pytest.raises(LeagueError) as refused:
        services.season_create(
            league=iwdl,
            created_by=iwdl.created_by,
            start_date=dt.date(2027, 1, 4),
            clubs=list(iwdl.clubs.filter(slug__in=slugs)),
            divisions=divisions,
            movements={"promote": 2, "relegate": 2},
        )
    assert refused.value.code == "movements_do_not_fit"
    assert "Division 'Middle' has 3 club(s), too few for 2 promoted and 2 relegated." in refused.value.message
    # Three clubs a division hold one up and one down everywhere.
    season = services.season_create(
        league=iwdl,
        created_by=iwdl.created_by,
        start_date=dt.date(2027, 1, 4),
        clubs=list(iwdl.clubs.filter(slug__in=slugs)),
        divisions=divisions,
        movements={"promote": 1, "relegate": 1, "playoff_spots": 1},
    )
    assert season.config["movements"] == {"promote": 1, "relegate": 1, "playoff_spots": 1}


def test_the_new_season_page_refuses_such_a_schedule_in_words(league_setup):  # noqa: F811
    _, organiser, _ = league_setup
    response = page_client(organiser).post(
        "/leagues/duels/seasons/new/",
        {
            "event_id": str(uuid.uuid4()),
            "division_names": "Upper, Lower",
            "start_date": "2027-09-01",
            "days_between_rounds": 7,
            "promote": 2,
            "relegate": 1,
            "playoff_spots": 1,
            "club_reds": "1",
            "club_blues": "1",
            "club_greens": "2",
            "club_golds": "2",
        },
    )
    assert response.status_code == 200 and not Season.objects.exists()
    assert "Division &#x27;Lower&#x27; has 2 club(s), too few for 2 promoted and 1 in the promotion play-off." in (
        response.content.decode()
    )


def test_closing_a_stored_season_whose_divisions_cannot_hold_its_movements_is_a_json_refusal(
    iwdl,  # noqa: F811
    client_for,
    monkeypatch,
):
    # A season scheduled before creation refused such movements: made without that check.
    with monkeypatch.context() as before:
        before.setattr(services, "_movements_problem", lambda sizes, moves: None, raising=False)
        divisions = _two_of_two(iwdl)
        season = services.season_create(
            league=iwdl,
            created_by=iwdl.created_by,
            start_date=dt.date(2027, 1, 4),
            clubs=list(iwdl.clubs.filter(slug__in=[s for m in divisions.values() for s in m])),
            divisions=divisions,
            movements={"promote": 2, "relegate": 2, "playoff_spots": 1},
        )
    organiser = client_for(iwdl.created_by)
    for f in client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"]:
        assert rule(organiser, f["key"], {"action": "walkover", "winner": f["home"], "reason": "r"}).status_code == 200
    before = Event.objects.filter(stream_id=season.stream_id).count()
    organiser.raise_request_exception = False
    closed = close(organiser)
    assert closed.status_code == 409, closed.content
    assert closed.json()["code"] == "movements_do_not_fit"
    assert (
        "Division 'South' has 2 club(s), too few for 2 promoted and 1 in the promotion play-off."
        in (closed.json()["detail"])
    )
    assert Event.objects.filter(stream_id=season.stream_id).count() == before
