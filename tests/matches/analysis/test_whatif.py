"""What-if sandboxes: branched from a finished replay, private to their creator, never in the event store."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matches.analysis.models import Sandbox
from matches.autoplay import autoplay_match
from matches.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(db):
    return autoplay_match(game="dueling-wizards", seats=2)


def _first(match, type_):
    return Event.objects.filter(stream_id=match.stream_id, type=type_, seq__gt=2).order_by("seq").first()


def _events(match) -> int:
    return Event.objects.filter(stream_id=match.stream_id).count()


def test_rerolling_a_draw_from_a_replay_shows_the_new_outcomes_odds_beside_the_original(client_for, alice, finished):
    client, before = client_for(alice), _events(finished)
    chance = _first(finished, "chance")
    response = client.post(f"/api/matches/{finished.id}/whatif/", {"at": chance.seq - 1}, format="json")
    assert response.status_code == 201, response.json()
    box = response.json()
    assert box["to_move"] == ["chance"] and box["original"]["seq"] == chance.seq
    assert box["original"]["outcome"] == chance.data["outcome"]
    assert box["original"]["odds"]["p_outcome"]["exact"]
    rerolled = client.post(f"/api/sandboxes/{box['id']}/chance/", {}, format="json").json()
    step = rerolled["steps"][1]
    assert step["kind"] == "chance" and step["odds"]["p_outcome"] == box["original"]["odds"]["p_outcome"]
    # The sandbox plays on; the match's stream is exactly as it was.
    assert _events(finished) == before


def test_an_outcome_picked_by_hand_is_checked_against_the_draw_and_a_bad_one_changes_nothing(
    client_for, alice, finished
):
    client = client_for(alice)
    chance = _first(finished, "chance")
    box = client.post(
        f"/api/matches/{finished.id}/whatif/", {"at": chance.seq - 1, "hand_chance": True}, format="json"
    ).json()
    spec = box["chance"]
    bad = client.post(f"/api/sandboxes/{box['id']}/chance/", {"outcome": [spec["pool"]]}, format="json")
    assert bad.status_code == 422 and bad.json()["code"] == "bad_chance_outcome"
    assert Sandbox.objects.get(pk=box["id"]).steps == box["steps"]
    picked = list(range(spec["count"]))
    good = client.post(f"/api/sandboxes/{box['id']}/chance/", {"outcome": picked}, format="json").json()
    assert good["steps"][1]["outcome"] == picked


def test_playing_on_by_hand_against_the_bot_goes_through_the_engines_rules(client_for, alice, finished):
    client = client_for(alice)
    action = _first(finished, "action")
    seat = action.data["seat"]
    box = client.post(
        f"/api/matches/{finished.id}/whatif/", {"at": action.seq - 1, "bot_seats": [1 - seat]}, format="json"
    ).json()
    assert box["to_move"] == [seat] and box["legal"][str(seat)]
    illegal = client.post(
        f"/api/sandboxes/{box['id']}/actions/", {"seat": seat, "action": {"no": "such move"}}, format="json"
    )
    # Refused as the match API refuses it (422 with the engine's code), and the sandbox is as it was.
    assert illegal.status_code == 422 and illegal.json()["code"]
    assert Sandbox.objects.get(pk=box["id"]).steps == box["steps"]
    move = box["legal"][str(seat)][0]
    played = client.post(f"/api/sandboxes/{box['id']}/actions/", {"seat": seat, "action": move}, format="json").json()
    assert played["steps"][1] == {**played["steps"][1], "kind": "action", "seat": seat, "action": move}
    # The bot and the server's dice answered until it was this seat's turn again (or the game ended).
    assert played["to_move"] in ([seat], [])
    assert len(played["steps"]) > 2


def test_a_sandbox_is_its_creators_alone(client_for, alice, bob, finished):
    box = client_for(alice).post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json").json()
    for method, path, body in [("get", "", None), ("post", "bot/", {}), ("post", "chance/", {}), ("delete", "", None)]:
        response = getattr(client_for(bob), method)(f"/api/sandboxes/{box['id']}/{path}", body, format="json")
        assert response.status_code == 404 and response.json()["code"] in ("not_found", "sandbox_not_found")
    anonymous = client_for().post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json")
    assert anonymous.status_code == 401
    assert Sandbox.objects.count() == 1
    assert client_for(bob).get("/api/sandboxes/").json() == {"results": []}
    assert [s["id"] for s in client_for(alice).get("/api/sandboxes/").json()["results"]] == [box["id"]]


def test_an_expired_sandbox_is_gone(client_for, alice, finished):
    client = client_for(alice)
    box = client.post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json").json()
    Sandbox.objects.filter(pk=box["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert client.get(f"/api/sandboxes/{box['id']}/").status_code == 404
    assert client.post(f"/api/sandboxes/{box['id']}/bot/", {}, format="json").status_code == 404
    # The next branch sweeps expired sandboxes away.
    client.post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json")
    assert not Sandbox.objects.filter(pk=box["id"]).exists()


def test_a_branch_point_outside_the_replay_or_a_live_match_is_refused(client_for, alice, finished):
    from ..helpers import new_duel

    client = client_for(alice)
    response = client.post(f"/api/matches/{finished.id}/whatif/", {"at": finished.state_seq + 1}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_branch_point"
    response = client.post(f"/api/matches/{finished.id}/whatif/", {"at": 3, "bot_seats": [5]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_bot_seats"
    live = new_duel(alice, bots=("random",))
    response = client.post(f"/api/matches/{live.id}/whatif/", {"at": 1}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "match_not_finished"
    assert not Sandbox.objects.exists()


def test_one_person_keeps_a_bounded_number_of_sandboxes_and_may_delete_one(client_for, alice, finished, monkeypatch):
    from matches.analysis import services

    monkeypatch.setattr(services, "SANDBOXES_PER_OWNER", 1)
    client = client_for(alice)
    box = client.post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json").json()
    refused = client.post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_sandboxes"
    assert client.delete(f"/api/sandboxes/{box['id']}/").status_code == 204
    assert client.post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json").status_code == 201


def test_a_seat_the_bot_plays_is_not_moved_by_hand(client_for, alice, finished):
    client = client_for(alice)
    action = _first(finished, "action")
    seat = action.data["seat"]
    box = client.post(
        f"/api/matches/{finished.id}/whatif/",
        {"at": action.seq - 1, "bot_seats": [seat], "hand_chance": True},
        format="json",
    ).json()
    # The bot moved for its seat at once; asking to move that seat by hand is refused.
    assert box["steps"][1]["seat"] == seat
    response = client.post(
        f"/api/sandboxes/{box['id']}/actions/", {"seat": seat, "action": action.data["action"]}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "bot_seat"


def test_a_sandbox_whose_game_is_over_refuses_a_bot_move_and_a_roll(client_for, alice, finished):
    client = client_for(alice)
    box = client.post(f"/api/matches/{finished.id}/whatif/", {"at": finished.state_seq}, format="json").json()
    assert box["to_move"] == [] and box["result"] is not None
    response = client.post(f"/api/sandboxes/{box['id']}/bot/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "sandbox_over"
    response = client.post(f"/api/sandboxes/{box['id']}/chance/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "no_chance_due"
    assert Sandbox.objects.get(pk=box["id"]).steps == box["steps"]


def test_a_stream_the_engine_will_not_replay_branches_no_sandbox(client_for, alice, finished, monkeypatch):
    from engines.base import IllegalAction
    from matches.selectors import engine_for

    def refuse(state, event):
        raise IllegalAction("Not in these rules.", code="illegal_action")

    monkeypatch.setattr(engine_for(finished), "apply", refuse)
    response = client_for(alice).post(f"/api/matches/{finished.id}/whatif/", {"at": 3}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "analysis_failed"
    assert not Sandbox.objects.exists()


def test_a_sandbox_stops_at_its_step_limit_and_then_refuses_more(client_for, alice, finished, monkeypatch):
    from matches.analysis import services

    monkeypatch.setattr(services, "SANDBOX_STEPS", 3)
    client = client_for(alice)
    box = client.post(f"/api/matches/{finished.id}/whatif/", {"at": 3, "bot_seats": [0, 1]}, format="json").json()
    # The bots and the dice played on until the limit, not to the end of the game.
    assert len(box["steps"]) == 3 and box["to_move"]
    response = client.post(f"/api/sandboxes/{box['id']}/bot/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "sandbox_full"
    assert Sandbox.objects.get(pk=box["id"]).steps == box["steps"]
