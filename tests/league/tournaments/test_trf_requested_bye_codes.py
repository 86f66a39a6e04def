"""The TRF report writes a bye the player asked for with TRF-16's bye codes by its share of a
win, whatever a win is worth: F a full-point bye (a win's worth), H a half-point bye (half a
win's), Z a zero-point bye; a worth in between as the nearest of them, the lower on a tie
(RULES.md "Requested byes"). A pairing program reading the file scores the round by the code."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.selectors import trf_report
from matches.commands import AT_HEAD

from .helpers import field, lower_id_wins, open_tournament, settle

pytestmark = pytest.mark.django_db

ONE_HALF_NOTHING = {"win": 1, "draw": "1/2", "loss": 0, "bye": 1}
THREE_ONE_NOTHING = {"win": 3, "draw": 1, "loss": 0, "bye": 3}
# A quarter of a win that TRF's one-decimal points can still write (a quarter of one point
# cannot be: see test_trf_export's refusal).
TWO_ONE_NOTHING = {"win": 2, "draw": 1, "loss": 0, "bye": 2}


@pytest.mark.parametrize(
    "match_points,worth,code",
    [
        (THREE_ONE_NOTHING, "3", "F"),
        (THREE_ONE_NOTHING, "3/2", "H"),
        (THREE_ONE_NOTHING, "1", "H"),  # a draw's worth: nearer half a win than nothing
        (THREE_ONE_NOTHING, "0", "Z"),
        (ONE_HALF_NOTHING, "1", "F"),
        (ONE_HALF_NOTHING, "1/2", "H"),
        (TWO_ONE_NOTHING, "1/2", "Z"),  # a quarter of a win, halfway between nothing and half: the lower
    ],
)
def test_a_requested_bye_is_written_by_its_share_of_a_win(alice, match_points, worth, code):
    players = field(4)
    t = open_tournament(
        alice, "swiss", players, start=True, rounds=2, match_points=match_points, requested_bye_points=worth
    )
    services.tournament_bye_request(tournament=t, user=players[0], round=2, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    lines = {line[14:47].strip(): line for line in trf_report(tournament=t).splitlines() if line.startswith("001")}
    assert lines[players[0].username].endswith(f"0000 - {code}"), lines[players[0].username]
