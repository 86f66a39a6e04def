"""A bot's clock stands while it waits on a person, and is never shown below zero.

A bot moves in the command that makes it one to move, unless a person moves with it: Dueling
Wizards' defences are simultaneous, and a bot defending beside a person waits for them. Its clock
ran all that wait and players saw it run down below zero, though claims and the verifier ignore
it (the wait is the person's). What the players read is the match's summary (the API, the live
frames).
"""

from __future__ import annotations

import pytest

from matches import services
from matches.models import Match

from . import test_time_controls
from .helpers import fresh, post_action
from .test_time_controls import FISCHER_60, claim, match_verdict

pytestmark = pytest.mark.django_db

clock = test_time_controls.clock  # the platform's now, moved on by hand


def bot_beside(alice, bob):
    return services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=alice), services.SeatSpec(bot="random"), services.SeatSpec(user=bob)],
        created_by=alice,
        time_control=FISCHER_60,
    )


def summary(client, match):
    return client.get(f"/api/matches/{match.id}/").json()


def test_a_bot_waiting_on_a_person_who_moves_with_it_spends_none_of_its_time(alice, bob, client_for, clock):
    match = bot_beside(alice, bob)
    assert summary(client_for(alice), match)["to_move"] == [1, 2]  # the bot and bob defend together
    clock.advance(45)
    seen = summary(client_for(alice), match)["clocks"]
    assert seen["running"] == [2] and seen["left"] == [60, 60, 15]

    card = fresh(match).state["hands"][2][0]
    assert post_action(client_for(bob), match, 2, {"type": "defend", "card": card}).status_code == 201
    seen = summary(client_for(alice), match)
    assert 1 not in seen["to_move"]  # the bot has defended too, at once
    assert seen["clocks"]["left"][1] == 60 and 1 not in seen["clocks"]["running"]


def test_a_bot_is_never_shown_below_zero_while_the_person_beside_it_stalls(alice, bob, client_for, clock):
    match = bot_beside(alice, bob)
    clock.advance(600)
    seen = summary(client_for(alice), match)["clocks"]
    assert seen["left"][1] == 60 and seen["left"][2] < 0 and seen["running"] == [2]
    # Only the person's clock is out: the claim times bob out (he leaves, and alice and the bot
    # play on: the ruling "Leaving"), and the match, ended on time later, verifies.
    won = claim(client_for(alice), match)
    assert won.status_code == 201, won.json()
    assert won.json()["seats"][2]["left"] == "timeout" and won.json()["status"] == "live"
    clock.advance(600)
    ended = claim(client_for(alice), match)
    assert ended.status_code == 201 and ended.json()["result"]["placements"][2] == 3
    assert match_verdict(match) == Match.Verdict.VERIFIED


def test_a_match_stored_with_its_bots_clock_running_shows_it_standing_at_no_less_than_zero(
    alice, bob, client_for, clock
):
    match = bot_beside(alice, bob)
    # As a match stored before bots' clocks stood kept them: running beside bob, spent past zero.
    stored = fresh(match)
    stored.clocks = {**stored.clocks, "left": [60_000_000, -5_000_000, 60_000_000], "running": [1, 2]}
    stored.save(update_fields=["clocks"])
    clock.advance(10)
    seen = summary(client_for(alice), match)["clocks"]
    assert seen["left"] == [60, 0, 50] and seen["running"] == [2]
