"""The pages that replay or analyse matches on every request (a match's replay, the fairness
reports, a season's luck) and the OpenAPI schema (generated on every request) have a stricter
rate per account, or per address for visitors; other pages have none."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from league.seasons import services as seasons
from matches.api.views import ExpensiveReadThrottle
from matches.autoplay import autoplay_match
from matches.throttles import ExpensivePageThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_a_minute(monkeypatch):
    monkeypatch.setattr(ExpensivePageThrottle, "rate", "2/minute", raising=False)


def as_user(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_schema_is_on_the_expensive_rate(client_for, alice, monkeypatch):
    monkeypatch.setattr(ExpensiveReadThrottle, "rate", "2/minute", raising=False)
    anonymous = client_for()
    answers = [anonymous.get("/api/schema/", {"format": "json"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[-1].json()["code"] == "throttled" and int(answers[-1]["Retry-After"]) > 0
    assert client_for(alice).get("/api/schema/", {"format": "json"}).status_code == 200


def test_the_replay_page_is_throttled_per_caller_with_a_page_that_says_so(two_a_minute, alice, bob):
    match = autoplay_match(game="dueling-wizards", seats=2)
    visitor = as_user()
    answers = [visitor.get(f"/matches/{match.id}/replay/") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    refused = answers[-1]
    assert "Too many requests for this page" in refused.content.decode()
    assert refused["Content-Type"].startswith("text/html") and int(refused["Retry-After"]) > 0
    # Signed-in players are counted per account, each with a budget of their own.
    alices = as_user(alice)
    assert [alices.get(f"/matches/{match.id}/replay/").status_code for _ in range(3)] == [200, 200, 429]
    assert as_user(bob).get(f"/matches/{match.id}/replay/").status_code == 200


def test_the_fairness_pages_are_throttled(two_a_minute, alice):
    visitor = as_user()
    assert [visitor.get("/fairness/").status_code for _ in range(3)] == [200, 200, 429]
    player = as_user(alice)
    assert [player.get("/fairness/alice/").status_code for _ in range(3)] == [200, 200, 429]


def test_a_seasons_luck_page_is_throttled(two_a_minute, make_user):
    iwdl = seasons.league_load_iwdl()
    season = seasons.season_create(
        league=iwdl,
        created_by=make_user("organiser", staff=True),
        start_date=dt.date(2027, 1, 4),
        clubs=list(iwdl.clubs.order_by("slug")[:4]),
    )
    visitor = as_user()
    codes = [visitor.get(f"/leagues/{iwdl.slug}/seasons/{season.number}/luck/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_other_pages_are_not_throttled(two_a_minute, alice):
    visitor = as_user(alice)
    assert {visitor.get(path).status_code for path in ["/", "/tournaments/", "/accounts/"] * 3} == {200}
