"""A tournament's `match_config` is what every pairing's platform match is created with, so it
is checked as a match's own config is (the game's options, at the seats of the tournament's
pairings) when the tournament is created: a config the game refuses is refused then, with
`bad_options` and the game's sentence, and nothing is written. It used to be checked only for
being an object, stored in the tournament's immutable `tournament.created` event, and refused
later by every pairing's match (`unknown_option`)."""

from __future__ import annotations

import uuid

import pytest

from league.tournaments.models import Tournament
from matches.models import Event, Match

from .helpers import api_command, state

pytestmark = pytest.mark.django_db


def create(client, fmt, game, match_config, **options):
    body = {"name": "Configured", "game": game, "format": fmt, "options": {"match_config": match_config, **options}}
    return client.post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize(
    "fmt, game, match_config, engine_code",
    [
        pytest.param(
            "swiss", "dueling-wizards", {"no_such_option": "x" * 10_000}, "unknown_option", id="an unknown option"
        ),
        pytest.param("single_elimination", "dueling-wizards", {"jokers": "yes"}, "bad_option_value", id="a bad value"),
        pytest.param("round_robin", "wizard-dodgeball", {"court": "the moon"}, "unknown_court", id="an unknown court"),
        pytest.param("pods", "dueling-wizards", {"no_such_option": 1}, "unknown_option", id="a pod's unknown option"),
        pytest.param(
            "pods", "wizard-dodgeball", {"court": "iwdl-standard"}, "bad_seat_count", id="pods the game cannot seat"
        ),
    ],
)
def test_a_match_config_the_game_refuses_is_refused_at_create_and_nothing_is_written(
    alice, client_for, fmt, game, match_config, engine_code
):
    options = {"pod_size": 3} if fmt == "pods" else {}
    answer = create(client_for(alice), fmt, game, match_config, **options)
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_options"), answer.json()
    # The sentence names the option and says what the game said; the game's own code comes along.
    assert answer.json()["detail"].startswith("Option 'match_config': ")
    assert answer.json()["reason"] == engine_code
    assert Tournament.objects.count() == 0 and Event.objects.count() == 0


def test_the_games_own_options_start_a_tournament_whose_pairings_get_their_matches(alice, bob, carol, client_for):
    made = create(client_for(alice), "swiss", "dueling-wizards", {"jokers": False}, rounds=1)
    assert made.status_code == 201, made.json()
    t = Tournament.objects.get()
    for player in (bob, carol):
        assert api_command(client_for(player), t, "register").status_code == 201
    assert api_command(client_for(alice), t, "start").status_code == 201
    pairing = next(p for p, r in state(t)["pairings"].items() if len(r["players"]) == 2)
    answer = client_for(bob).post(
        f"/api/tournaments/{t.id}/pairings/{pairing}/match/",
        {
            "expected_seq": client_for(bob).get(f"/api/tournaments/{t.id}/").json()["head_seq"],
            "event_id": str(uuid.uuid4()),
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert Match.objects.get().config["jokers"] is False


def test_an_empty_match_config_is_the_games_defaults_as_before(alice, client_for):
    # Pods of three of a game for two or four: no config to check, so the seating decides as it did.
    answer = create(client_for(alice), "pods", "wizard-dodgeball", {}, pod_size=3)
    assert answer.status_code == 201, answer.json()
