"""A score an organiser sets (match points, a bye's worth, placement points) is a number no
larger than 1000 either way, in steps no finer than a hundredth: anything else is refused with
`bad_options` and a sentence naming the option, at create and at configure, with nothing
written. A value like "1e99999" was a 500 (its digits could not be written out), "1e400" was
stored as 401 digits, and "1e9999999" took the server many seconds to read."""

from __future__ import annotations

import pytest

from league.tournaments.models import Tournament
from matches.models import Event

from .helpers import api_command, field, open_tournament, state

pytestmark = pytest.mark.django_db

OUT_OF_BOUNDS = [
    pytest.param("swiss", {"match_points": {"win": "1e99999", "draw": "1", "loss": "0"}}, id="a win of 1e99999"),
    pytest.param("swiss", {"match_points": {"win": "1e400", "draw": "1", "loss": "0"}}, id="a win of 1e400"),
    pytest.param("swiss", {"match_points": {"win": "1e9999999"}}, id="a win too long to read"),
    pytest.param("swiss", {"match_points": {"win": "1001"}}, id="a win over 1000"),
    pytest.param("swiss", {"match_points": {"win": "1", "draw": "1/101"}}, id="a draw finer than hundredths"),
    pytest.param("swiss", {"requested_bye_points": "1e-99999"}, id="a requested bye of 1e-99999"),
    pytest.param("swiss", {"bye_score": "1e-400"}, id="a bye of 1e-400"),
    pytest.param("round_robin", {"match_points": {"win": True}}, id="a win of true"),
    pytest.param("pods", {"placement_points": ["1e400", 1, 0]}, id="placement points of 1e400"),
]


def create(client, fmt, options):
    body = {"name": "Points", "game": "dueling-wizards", "format": fmt, "options": options}
    return client.post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize("fmt, options", OUT_OF_BOUNDS)
def test_a_score_out_of_bounds_is_refused_at_create_and_nothing_is_written(alice, client_for, fmt, options):
    answer = create(client_for(alice), fmt, options)
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_options"), answer.json()
    named = next(iter(options))
    assert f"'{named}'" in answer.json()["detail"]
    assert Tournament.objects.count() == 0 and Event.objects.count() == 0


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"match_points": {"win": "1e99999", "draw": "1", "loss": "0"}}, id="a win of 1e99999"),
        pytest.param({"match_points": {"win": "1e400", "draw": "1", "loss": "0"}}, id="a win of 1e400"),
        pytest.param({"match_points": {"win": "3", "draw": "0.001"}}, id="a draw finer than hundredths"),
        pytest.param({"requested_bye_points": "1e-99999"}, id="a requested bye of 1e-99999"),
    ],
)
def test_a_score_out_of_bounds_is_refused_at_configure_and_nothing_is_written(alice, client_for, change):
    t = open_tournament(alice, "swiss", field(4), rounds=2)
    before = (Event.objects.filter(stream_id=t.stream_id).count(), state(t)["options"])
    answer = api_command(client_for(alice), t, "configure", **change)
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_options"), answer.json()
    assert f"'{next(iter(change))}'" in answer.json()["detail"]
    assert (Event.objects.filter(stream_id=t.stream_id).count(), state(t)["options"]) == before


def test_scores_an_organiser_would_choose_are_still_taken(alice, client_for):
    client = client_for(alice)
    made = create(
        client,
        "swiss",
        {"match_points": {"win": 3, "draw": "1/2", "loss": 0}, "requested_bye_points": "1.5", "rounds": 2},
    )
    assert made.status_code == 201, made.json()
    assert made.json()["options"]["match_points"] == {"win": "3", "draw": "1/2", "loss": "0", "bye": "3"}
    assert made.json()["options"]["requested_bye_points"] == "3/2"
    t = Tournament.objects.get()
    # The bounds themselves are in: a win of 1000, a draw of a hundredth.
    answer = api_command(client, t, "configure", match_points={"win": "1000", "draw": "0.01", "loss": "0"})
    assert answer.status_code == 201, answer.json()
    assert state(t)["options"]["match_points"] == {"win": "1000", "draw": "1/100", "loss": "0", "bye": "1000"}


def test_a_draw_left_out_is_half_a_win_and_must_be_a_score_too(alice, client_for):
    # Half of 0.01 is finer than a hundredth: the organiser is told to give the draw, not left
    # with a stored value that the next configure would refuse.
    answer = create(client_for(alice), "swiss", {"match_points": {"win": "0.01"}})
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_options"), answer.json()
    assert "draw" in answer.json()["detail"]
    assert Tournament.objects.count() == 0
    assert create(client_for(alice), "swiss", {"match_points": {"win": "0.02"}}).status_code == 201
