"""A draft is made in a draft room (league.drafts), never as a bare match: the room keeps its pick
clock and hands its teams on to the match. The match API and the new-match page refuse a draft
engine with a code and a sentence that says where drafts are made, and make nothing."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from engines import registry
from league.drafts.models import Draft
from matches.invitations.models import Invitation
from matches.models import Event, Match

pytestmark = pytest.mark.django_db

DRAFTS = [e.name for e in registry.latest() if e.draft]


def _nothing_made():
    return not Match.objects.exists() and not Event.objects.exists() and not Invitation.objects.exists()


def test_there_is_a_draft_engine_to_refuse():
    assert DRAFTS == ["iwdl-draft"]


@pytest.mark.parametrize("game", DRAFTS)
@pytest.mark.parametrize("other", [{"bot": "auto"}, {"username": "bob"}], ids=["against-a-bot", "inviting-a-person"])
def test_a_draft_asked_of_the_match_api_is_refused_and_makes_nothing(alice, bob, client_for, game, other):
    body = {"game": game, "config": {"format": "schoolyard"}, "seats": [{"username": "alice"}, other]}
    answer = client_for(alice).post("/api/matches/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "draft_needs_a_room"
    assert "/drafts/" in answer.json()["detail"]  # says where drafts are made
    assert _nothing_made()


def test_an_organiser_cannot_make_a_bare_draft_either(make_user, client_for):
    organiser, ann, ben = make_user("organiser", staff=True), make_user("ann"), make_user("ben")
    body = {"game": "iwdl-draft", "seats": [{"username": ann.username}, {"username": ben.username}]}
    answer = client_for(organiser).post("/api/matches/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "draft_needs_a_room")
    assert _nothing_made()


def test_a_retried_bare_draft_create_is_refused_the_same_way(alice, client_for):
    body = {
        "game": "iwdl-draft",
        "seats": [{"username": "alice"}, {"bot": "auto"}],
        "event_id": "6c1a7e9e-4a55-4d3e-8f0c-2b1d8e0f4a11",
    }
    for _ in range(2):
        answer = client_for(alice).post("/api/matches/", body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (400, "draft_needs_a_room")
    assert _nothing_made()


def test_the_new_match_page_refuses_a_draft_and_makes_nothing(client, alice):
    client.force_login(alice)
    fields = {"game": "iwdl-draft", "opponent": "", "seats": "", "bot": "", "mode": "server", "clock": ""}
    page = client.post("/matches/new/", fields)
    assert page.status_code == 200  # the form again, with the refusal; no redirect to a match
    assert "iwdl-draft" not in [name for name, _ in page.context["form"].fields["game"].choices]
    assert "game" in page.context["form"].errors
    assert _nothing_made()


def test_the_draft_room_still_opens_a_draft(make_user, client_for):
    organiser, ann, ben = make_user("organiser", staff=True), make_user("ann"), make_user("ben")
    body = {"coaches": [ann.username, ben.username], "format": "schoolyard"}
    answer = client_for(organiser).post("/api/drafts/", body, format="json")
    assert answer.status_code == 201, answer.json()
    assert Draft.objects.get(draft_match_id=answer.json()["id"]).draft_match.game == "iwdl-draft"


def test_the_api_docs_say_drafts_are_not_made_here():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    game = schema["components"]["schemas"]["MatchCreate"]["properties"]["game"]
    assert "/api/drafts/" in game["description"]


def test_the_game_list_tells_a_client_which_games_are_drafts(client):
    # A client building its own new-match form must be able to leave drafts out, as the page does.
    games = {g["name"]: g for g in client.get("/api/engines/").json()}
    assert {name for name, g in games.items() if g["draft"]} == set(DRAFTS)
    assert all(g["draft"] is False for name, g in games.items() if name not in DRAFTS)
