"""The home page's match list: paging and filters by game, status and player, as query
parameters, bounded (issue 18, item 7)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from matches.autoplay import autoplay_match
from matches.models import Match
from matches.services import SeatSpec, match_create

pytestmark = pytest.mark.django_db


def duel(a, b, game="dueling-wizards"):
    return match_create(game=game, seats=[SeatSpec(user=a), SeatSpec(user=b)], created_by=a)


def listed(response) -> list[str]:
    """The match ids the list links to, in order (each row links twice: game and Watch/Replay)."""
    html = response.content.decode()
    table = html[html.index('data-testid="match-list"') :]
    table = table[: table.index("</table>")]
    return list(dict.fromkeys(re.findall(r"/matches/([0-9a-f-]{36})/", table)))


def test_the_list_shows_thirty_matches_a_page_newest_first_with_links_to_older_and_newer(alice, bob):
    ids = [str(duel(alice, bob).id) for _ in range(33)][::-1]  # newest first
    first = Client().get("/")
    assert listed(first) == ids[:30]
    assert 'data-testid="next-page"' in first.content.decode()
    assert 'data-testid="prev-page"' not in first.content.decode()
    second = Client().get("/", {"page": 2})
    assert listed(second) == ids[30:]
    assert 'data-testid="next-page"' not in second.content.decode()
    assert 'href="?page=1#all-matches"' in second.content.decode()


def test_filters_by_game_status_and_player_combine_and_survive_paging(alice, bob, make_user):
    carol = make_user("carol")
    mine = duel(carol, bob)
    other_game = duel(carol, bob, game="spellcaster")
    duel(alice, bob)
    finished = autoplay_match(game="dueling-wizards", seats=2)
    assert listed(Client().get("/", {"player": "carol"})) == [str(other_game.id), str(mine.id)]
    assert listed(Client().get("/", {"player": "CAROL", "game": "dueling-wizards"})) == [str(mine.id)]
    assert listed(Client().get("/", {"status": "finished"})) == [str(finished.id)]
    assert listed(Client().get("/", {"status": "live", "game": "spellcaster"})) == [str(other_game.id)]
    # Nobody called dave: the list says so rather than showing everything.
    response = Client().get("/", {"player": "dave"})
    assert listed(response) == [] and "No match matches these filters" in response.content.decode()
    for _ in range(30):
        duel(carol, bob)
    page = Client().get("/", {"player": "carol"}).content.decode()
    assert 'href="?player=carol&amp;page=2#all-matches"' in page


def test_an_unknown_game_or_a_page_past_the_bound_is_refused_with_a_message_and_the_plain_list(alice, bob):
    match = duel(alice, bob)
    for query in ({"game": "chess"}, {"page": "100000"}, {"page": "-1"}, {"status": "paused"}):
        response = Client().get("/", query)
        assert response.status_code == 200
        assert 'data-testid="filter-error"' in response.content.decode(), query
        assert listed(response) == [str(match.id)]
    assert Match.objects.count() == 1
