"""The new-match form seats as many players as the game takes (issue 11): people named, then bots.

The seat range is each engine's own declaration (min_seats..max_seats); the form knows no game
by name, so a 2-5 player game and a two-player game go through the same lines."""

from __future__ import annotations

import pytest

from engines import registry
from matches.models import Match

pytestmark = pytest.mark.django_db


def _post(client, **fields):
    data = {"game": "annihilageddon", "opponent": "", "seats": "", "bot": "", "mode": "server", "clock": ""}
    data.update(fields)
    return client.post("/matches/new/", data)


def test_the_home_page_form_asks_how_many_play(client, alice):
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'name="seats"' in page and "Players" in page


def test_a_person_starts_a_five_player_game_against_four_bots(client, alice):
    client.force_login(alice)
    r = _post(client, seats="5", bot="random")
    assert r.status_code == 302
    match = Match.objects.get()
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    assert [s.user for s in seats] == [alice, None, None, None, None]
    assert [s.bot for s in seats] == ["", "random", "random", "random", "random"]
    assert match.state["seats"] == 5


def test_without_a_count_it_is_you_and_one_bot_as_before(client, alice):
    client.force_login(alice)
    assert _post(client).status_code == 302
    match = Match.objects.get()
    assert match.seats.count() == 2 and match.seats.get(index=1).bot == registry.get("annihilageddon").best_bot


@pytest.mark.parametrize("game, seats", [("annihilageddon", "6"), ("annihilageddon", "1"), ("wizard-dodgeball", "5")])
def test_a_count_outside_the_games_own_range_is_refused_and_nothing_is_created(client, alice, game, seats):
    client.force_login(alice)
    r = _post(client, game=game, seats=seats)
    engine = registry.get(game)
    assert r.status_code == 200
    assert f"is played by {engine.min_seats} to {engine.max_seats} players" in r.content.decode()
    assert not Match.objects.exists()


def test_people_named_take_the_seats_after_yours_and_bots_fill_the_rest(alice, bob, carol):
    from matches.forms import NewMatchForm

    form = NewMatchForm(
        {"game": "annihilageddon", "opponent": f"{bob.username}, {carol.username}", "seats": "4", "mode": "server"},
        user=alice,
    )
    assert form.is_valid(), form.errors
    specs = form.seat_specs()
    assert [s.user for s in specs] == [alice, bob, carol, None]
    assert specs[3].bot == registry.get("annihilageddon").best_bot


def test_naming_more_people_than_seats_is_refused(alice, bob):
    from matches.forms import NewMatchForm

    form = NewMatchForm(
        {"game": "annihilageddon", "opponent": bob.username, "seats": "1", "mode": "server"}, user=alice
    )
    assert not form.is_valid() and "seats" in form.errors
