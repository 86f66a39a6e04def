"""Tournaments set a clock for their platform matches (issue 20) and seat any game's pods (issue 10)."""

from __future__ import annotations

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.models import Match

from .helpers import field, open_pairings, open_tournament

pytestmark = pytest.mark.django_db


def test_every_platform_match_of_a_tournament_gets_the_events_time_control(alice):
    players = field(2)
    t = open_tournament(
        alice, "single_elimination", players, start=True, time_control={"kind": "fischer", "base": 600, "increment": 5}
    )
    out = services.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.events[-1].data["match_id"])
    assert match.time_control == {"kind": "fischer", "base": 600, "increment": 5}
    assert match.clocks["running"], "the clock of the seat to move runs from the start"


def test_a_bad_time_control_option_is_refused(alice):
    with pytest.raises(Refusal) as refused:
        open_tournament(alice, "swiss", field(4), time_control={"kind": "fischer", "base": 1})
    assert refused.value.code == "bad_options" and "time_control" in refused.value.message


def test_a_spellcaster_pod_tournament_seats_pods_the_game_can_play_and_starts_their_matches(alice):
    players = field(9)
    t = open_tournament(alice, "pods", players, start=True, game="spellcaster", pod_size=4)
    records = open_pairings(t)
    assert len(records) == 3 and all(2 <= len(r["players"]) <= 4 for r in records)  # nine players, pods it can seat
    first = records[0]
    out = services.tournament_match_create(tournament=t, pairing=first["id"], by=alice, expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.events[-1].data["match_id"])
    assert match.game == "spellcaster" and match.seats.count() == len(first["players"])
    # People play without the bot-game round bound (the engine's people_config).
    assert match.config["max_rounds"] == 0
