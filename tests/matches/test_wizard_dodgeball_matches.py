"""Wizard Dodgeball on the platform (issue 3): created, played through the API, refused
illegal actions leave the stream untouched, and autoplayed matches verify."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from engines import registry
from matches.models import Match
from matches.services import SeatSpec, match_create

from .helpers import event_count, fresh, post_action

WD = registry.get("wizard-dodgeball")


@pytest.fixture
def duel(alice, bob):
    # Player 1 fixed so no roll-off is due; tabletop so no bot or server dice interfere.
    return match_create(
        game="wizard-dodgeball",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
        created_by=alice,
        mode=Match.Mode.TABLETOP,
        config={"first_player": 0},
    )


def active(match):
    return fresh(match).state and WD.view(fresh(match).state, None)["turn"]


def end_turns_until(clients, match, wizard):
    """Everyone else passes until ``wizard`` is the active wizard again."""
    for _ in range(20):
        turn = active(match)
        if turn["wizard"] == wizard:
            return
        assert post_action(clients[turn["seat"]], match, turn["seat"], {"type": "end_turn"}).status_code == 201
    raise AssertionError(f"#{wizard} never became active")


def furthest_move(match, seat):
    moves = [a for a in WD.legal_actions(fresh(match).state, seat) if a["type"] == "move" and "pick_up" not in a]
    return max(moves, key=lambda a: (a["to"][1], -abs(a["to"][0] - 1)))


def refused(client, match, seat, action, code):
    before = event_count(match)
    response = post_action(client, match, seat, action)
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == code, response.json()
    assert response.json()["detail"]
    assert event_count(match) == before


def test_illegal_dodgeball_actions_are_refused_with_a_reason_and_append_nothing(alice, bob, client_for, duel):
    clients = {0: client_for(alice), 1: client_for(bob)}
    assert active(duel)["wizard"] == 21
    # Two moves take #21 from the starting area into the Neutral Area (row 9).
    for _ in range(2):
        assert post_action(clients[0], duel, 0, furthest_move(duel, 0)).status_code == 201
    me = next(w for w in WD.view(fresh(duel).state, None)["wizards"] if w["jersey"] == 21)
    assert me["square"][1] == 9
    col, row = me["square"]
    # A third action: #21 has used both; only free actions (a pick-up) and ending the turn remain.
    refused(clients[0], duel, 0, {"type": "move", "to": [col, row - 1]}, "no_actions_left")
    assert post_action(clients[0], duel, 0, {"type": "end_turn"}).status_code == 201
    end_turns_until(clients, duel, 21)
    refused(clients[0], duel, 0, {"type": "move", "to": [col, row + 1]}, "cross_neutral_area")
    refused(
        clients[0], duel, 0, {"type": "cast", "spell": "freeze", "targets": [{"wizard": 45}]}, "cast_from_neutral_area"
    )
    # Pick up a ball on a star beside #21 (free), then try to throw it: balls on the stars are not active.
    pick = next(a for a in WD.legal_actions(fresh(duel).state, 0) if a["type"] == "pick_up")
    assert post_action(clients[0], duel, 0, pick).status_code == 201
    refused(clients[0], duel, 0, {"type": "throw", "target": 45}, "ball_not_active")


@pytest.mark.parametrize(
    "config, code",
    [
        ({"court": ["iwdl-standard"]}, "unknown_court"),
        ({"court": {"id": "iwdl-standard"}}, "unknown_court"),
        (
            {"teams": [{"wizards": [21, 58, 41, 25, 36], "spells": [["fireball"]]}, {"wizards": [45, 30, 47, 10, 12]}]},
            "unknown_spell",
        ),
        ({"sides": [["abc"], [1]]}, "bad_sides"),
        ({"controllers": [[0] * 5, [True] * 5]}, "bad_controllers"),
    ],
    ids=["court-list", "court-object", "spell-list", "side-text", "controller-true"],
)
def test_a_config_with_a_wrong_type_inside_is_answered_400_and_creates_nothing(alice, client_for, config, code):
    client = client_for(alice)
    client.raise_request_exception = False
    response = client.post(
        "/api/matches/",
        {"game": "wizard-dodgeball", "seats": [{"username": "alice"}, {"bot": "random"}], "config": config},
        format="json",
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["code"] == code and response.json()["detail"]
    assert not Match.objects.exists()


def test_a_passive_player_against_the_bot_ends_only_by_the_books(alice, client_for, django_capture_on_commit_callbacks):
    """RULES.md "Winning" and "Unfinished games": a player who only ends turns keeps every wizard
    and, in the end, every thrown ball at home. No head count or stalling rule ends the game any
    more; the bound on turns (2000) of a match with a bot in it is far away: the game ends when a
    team has no wizard left on the court. Almost always that is the passive team (the bot
    teleports the balls back and knocks every wizard out), but a passive wizard still catches a
    throw on doubles (RULES.md "Doubles"), which puts the thrower out: in one of 60 engine-level games of this kind, the
    catches won it (and once in CI; the match's dice come from its own secret, so
    which game that is changes from run to run). The bot answers in the same request."""
    client = client_for(alice)
    created = client.post(
        "/api/matches/",
        {"game": "wizard-dodgeball", "seats": [{"username": "alice"}, {"bot": "heuristic"}]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    match = Match.objects.get(pk=created.json()["id"])
    assert fresh(match).config["turn_limit"] == 2000  # a bot plays: the bound for bot games stays
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(600):
            m = fresh(match)
            if m.status == Match.Status.FINISHED:
                break
            assert client.get(f"/api/matches/{m.id}/").json()["to_move"] == [0]
            legal = client.get(f"/api/matches/{m.id}/legal/").json()["actions"]
            # A passive player: end every turn; answer the choices a throw forces (where to dodge).
            action = {"type": "end_turn"} if {"type": "end_turn"} in legal else legal[0]
            assert post_action(client, m, 0, action).status_code == 201
    m = fresh(match)
    assert m.status == Match.Status.FINISHED and m.verdict == Match.Verdict.VERIFIED
    (winner,) = m.result["winners"]
    loser = 1 - winner
    assert m.result["placements"][winner] == 1 and m.result["placements"][loser] == 2
    assert m.result["reason"] == f"{('First', 'Second')[loser]} team has no wizards left on the court."
    assert not m.result.get("unfinished")


def test_a_bot_game_that_reaches_the_turn_bound_ends_unfinished_and_moves_no_rating(
    db, django_capture_on_commit_callbacks
):
    """RULES.md "Unfinished games": a bound on turns ends a bot game with no winner, counted
    nowhere. The match is a league fixture's (the clubs would be rated) so that the rating is at stake."""
    from league.ratings.models import Rating
    from league.ratings.projection import rated_results

    origin = {"fixture_clubs": ["club-a", "club-b"]}
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            game="wizard-dodgeball",
            seats=[SeatSpec(bot="random"), SeatSpec(bot="random")],
            created_by=None,
            config={"turn_limit": 12},
            origin=origin,
        )
    m = fresh(match)
    assert m.status == Match.Status.FINISHED and m.verdict == Match.Verdict.VERIFIED
    assert m.engine_version == "2" and m.config["turn_limit"] == 12
    assert m.result["unfinished"] is True and m.result["winners"] == [] and m.result["placements"] == [1, 1]
    assert m.result["reason"] == "unfinished" and m.state["turn"]["n"] == 12
    assert rated_results("wizard-dodgeball")[0] == [] and not Rating.objects.filter(game="wizard-dodgeball").exists()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_hundred_autoplayed_wizard_dodgeball_matches_are_verified(capsys):
    call_command("autoplay", game="wizard-dodgeball", matches=200, bot="heuristic")
    assert "200 matches played: 200 verified, 0 disputed, 0 pending." in capsys.readouterr().out
