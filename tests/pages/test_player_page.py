"""A player's page (issue 18): per game the rating over time as an inline SVG drawn by the
server, whose points are exactly the ratings history; results and recent matches linked to
their replays; tournaments and clubs; linked from the leaderboard and from match pages."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from league.players.charts import rating_chart
from league.ratings.models import Rating, RatingPoint
from league.tournaments import services as tournaments
from matches.commands import AT_HEAD
from matches.models import Match
from matches.services import SeatSpec, match_create
from tests.pages.rated import finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(make_user):
    ann, ben, cyd = make_user("ann"), make_user("ben"), make_user("cyd")
    played = [
        finished("wizard-dodgeball", [ann, ben], [1, 2]),
        finished("wizard-dodgeball", [cyd, ann], [1, 2]),
        finished("wizard-dodgeball", [ann, cyd], [1, 1]),
        finished("wizard-dodgeball", [ben, ann], [2, 1]),
        finished("dueling-wizards", [ann, ben], [2, 1]),
    ]
    return ann, ben, cyd, played


def page(username):
    response = Client().get(f"/players/{username}/")
    assert response.status_code == 200
    return response.content.decode()


def section(html, game):
    start = html.index(f'data-testid="game-{game}"')
    return html[start : html.index("</section>", start)]


def test_the_chart_points_are_the_ratings_history_in_order(history):
    ann, *_ = history
    html = page("ann")
    for game in ("wizard-dodgeball", "dueling-wizards"):
        points = list(RatingPoint.objects.filter(game=game, competitor=f"user:{ann.pk}").order_by("sequence"))
        svg = re.search(rf'<svg data-testid="rating-chart-{game}".*?</svg>', html, re.S).group(0)
        dots = re.findall(
            r'<circle class="dot" cx="([\d.]+)" cy="([\d.]+)" r="3.5" data-rating="([\d.]+)" data-number="(\d+)"', svg
        )
        assert [float(r) for *_, r, _ in dots] == [round(p.rating, 1) for p in points]
        assert [int(n) for *_, n in dots] == list(range(1, len(points) + 1))
        # Left to right in the order played; a higher rating is drawn higher (smaller y).
        xs, ys = [float(x) for x, *_ in dots], [float(y) for _, y, *_ in dots]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        for (y1, p1), (y2, p2) in zip(zip(ys, points), zip(ys[1:], points[1:])):
            assert (y1 - y2) * (p2.rating - p1.rating) >= 0
        # The gridlines' numbers span every point.
        ticks = [int(v) for v in re.findall(r'data-value="(-?\d+)"', svg)]
        assert min(ticks) <= min(p.rating for p in points) and max(ticks) >= max(p.rating for p in points)
        # The current rating above the chart is the last point, and the table beside it lists them all.
        rating = Rating.objects.get(game=game, competitor=f"user:{ann.pk}")
        assert f"{rating.rating:.1f}" in section(html, game)
        assert round(points[-1].rating, 1) == round(rating.rating, 1)
        assert section(html, game).count("replay</a>") == len(points)


def test_the_chart_geometry_puts_each_rating_at_its_height():
    chart = rating_chart([1500.0, 1562.5, 1480.0])
    ticks = {t["value"]: t["y"] for t in chart["ticks"]}
    low, high = min(ticks), max(ticks)
    assert low <= 1480 and high >= 1562.5
    for dot in chart["dots"]:
        # Linear between the lowest and highest gridline.
        share = (dot["rating"] - low) / (high - low)
        assert dot["y"] == pytest.approx(ticks[low] - share * (ticks[low] - ticks[high]), abs=0.1)
    assert rating_chart([]) is None
    single = rating_chart([1500.0])
    assert len(single["dots"]) == 1 and single["ticks"][0]["value"] < 1500 < single["ticks"][-1]["value"]


def test_results_and_recent_matches_link_to_their_replays(history):
    ann, ben, cyd, played = history
    html = page("ann")
    dodgeball = section(html, "wizard-dodgeball")
    assert re.search(r"Results:\s*2 won · 1 drawn · 1 lost", dodgeball)
    for match in played[:4]:
        assert f'href="/matches/{match.id}/replay/" data-testid="replay-link"' in dodgeball
    assert 'href="/players/ben/"' in dodgeball and 'href="/players/cyd/"' in dodgeball
    assert re.search(r"Results:\s*0 won · 0 drawn · 1 lost", section(html, "dueling-wizards"))


def test_the_page_lists_tournaments_entered_and_clubs_coached(history, django_capture_on_commit_callbacks):
    from league.seasons import services as seasons

    ann, ben, *_ = history
    t = tournaments.tournament_create(created_by=ben, name="Spring Open", game="dueling-wizards", format="swiss")
    tournaments.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
    league = seasons.league_load_iwdl()
    club = league.clubs.order_by("slug").first()
    club.coaches.add(ann)
    html = page("ann")
    assert f'href="/tournaments/{t.id}/players/ann/">Spring Open</a>' in html
    assert f'href="/clubs/{club.slug}/">{club.name}</a>' in html


def test_an_unknown_player_is_a_404(db):
    assert Client().get("/players/nobody-here/").status_code == 404


def test_the_leaderboard_and_match_pages_link_to_the_players_page(history):
    ann, ben, *_ = history
    board = Client().get("/ratings/wizard-dodgeball/").content.decode()
    assert 'href="/players/ann/"' in board and 'href="/players/ben/"' in board
    live = match_create(game="dueling-wizards", seats=[SeatSpec(user=ann), SeatSpec(user=ben)], created_by=ann)
    html = Client().get(f"/matches/{live.id}/").content.decode()
    assert 'href="/players/ann/"' in html and 'href="/players/ben/"' in html


def test_a_long_history_shows_its_latest_points_numbered_as_played(history, monkeypatch):
    ann, *_ = history
    monkeypatch.setattr("league.players.selectors.HISTORY_SHOWN", 3)
    html = page("ann")
    dodgeball = section(html, "wizard-dodgeball")
    points = list(RatingPoint.objects.filter(game="wizard-dodgeball", competitor=f"user:{ann.pk}").order_by("sequence"))
    assert len(points) == 4
    dots = re.findall(r'data-rating="([\d.]+)" data-number="(\d+)"', dodgeball)
    # The latest three, numbered as the fourth is numbered in the whole history.
    assert [(float(r), int(n)) for r, n in dots] == [(round(p.rating, 1), i) for i, p in enumerate(points, 1)][1:]
    assert dodgeball.count("replay</a>") == 3
    assert ">match 2</text>" in dodgeball and ">match 4</text>" in dodgeball
    assert "the latest 3 of 4" in re.sub(r"\s+", " ", dodgeball)
    # A history within the bound says nothing of the kind.
    assert "the latest" not in section(html, "dueling-wizards")


def test_the_page_reads_no_match_state_and_its_queries_do_not_grow_with_the_matches(history):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, ben, cyd, _ = history

    def queries():
        with CaptureQueriesContext(connection) as seen:
            page("ann")
        return [q["sql"] for q in seen.captured_queries]

    before = queries()
    for _ in range(6):
        finished("wizard-dodgeball", [ann, ben], [1, 2])
    after = queries()
    assert len(after) == len(before)
    # A match's state can be far larger than the page: no query of the page selects it.
    assert not [q for q in after if '"matches_match"."state"' in q and q.lstrip().upper().startswith("SELECT")]


def test_only_verified_results_count_as_won_drawn_or_lost(history):
    ann, ben, *_ = history
    disputed = finished("dueling-wizards", [ann, ben], [1, 2])
    Match.objects.filter(pk=disputed.pk).update(verdict=Match.Verdict.DISPUTED)
    pending = finished("dueling-wizards", [ann, ben], [1, 2])
    Match.objects.filter(pk=pending.pk).update(verdict=Match.Verdict.PENDING)
    duels = re.sub(r"\s+", " ", section(page("ann"), "dueling-wizards"))
    # The one verified duel was lost; the two "wins" are not counted as wins.
    assert "Results: 0 won · 0 drawn · 1 lost · 2 not counted yet (being verified, or disputed)" in duels
    assert duels.count('data-testid="recent-disputed"') == 1 and "(being verified)" in duels


def test_a_win_once_found_disputed_is_not_counted_though_verified_again(history):
    ann, ben, *_ = history
    again = finished("dueling-wizards", [ann, ben], [1, 2])
    Match.objects.filter(pk=again.pk).update(
        verdict=Match.Verdict.VERIFIED, disputed_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    )
    duels = re.sub(r"\s+", " ", section(page("ann"), "dueling-wizards"))
    # A dispute is final, for the record as for the ratings: the win stays out.
    assert "Results: 0 won · 0 drawn · 1 lost · 1 not counted yet (being verified, or disputed)" in duels
