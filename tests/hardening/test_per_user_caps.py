"""Per-account caps on what one account can create: leagues, clubs in a league, unfinished
tournaments and invitations still waiting for answers. Past a cap the create is 409
``too_many_<things>`` with a sentence, and nothing is written; two creates at once cannot both
take the last place."""

from __future__ import annotations

import pytest
from django.utils import timezone

from league.seasons.models import Club, League
from league.tournaments.models import Tournament
from matches.invitations.models import Invitation
from tests.matches.helpers import at_once

pytestmark = pytest.mark.django_db


def new_league(client, slug: str):
    return client.post("/api/leagues/", {"slug": slug, "name": slug.title(), "game": "dueling-wizards"}, format="json")


def new_tournament(client, name: str):
    return client.post("/api/tournaments/", {"name": name, "game": "dueling-wizards", "format": "swiss"}, format="json")


def invite(client, opponent: str):
    return client.post(
        "/api/matches/",
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": opponent}]},
        format="json",
    )


def refused(response, code: str, sentence: str):
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == code and sentence in response.json()["detail"]


def test_an_account_starts_at_most_its_cap_of_leagues(alice, bob, client_for, settings):
    settings.MAX_LEAGUES_PER_USER = 2
    client = client_for(alice)
    assert [new_league(client, f"league-{i}").status_code for i in range(2)] == [201, 201]
    refused(new_league(client, "league-2"), "too_many_leagues", "You organise 2 leagues already")
    assert not League.objects.filter(slug="league-2").exists()
    assert new_league(client_for(bob), "bobs-league").status_code == 201  # a cap per account


def test_a_league_holds_at_most_its_cap_of_clubs(alice, client_for, settings):
    settings.MAX_CLUBS_PER_LEAGUE = 2
    client = client_for(alice)
    assert new_league(client, "small").status_code == 201
    codes = [client.post("/api/leagues/small/clubs/", {"slug": f"c{i}", "name": f"C{i}"}).status_code for i in range(2)]
    assert codes == [201, 201]
    refused(client.post("/api/leagues/small/clubs/", {"slug": "c2", "name": "C2"}), "league_full", "at most 2 clubs")
    assert not Club.objects.filter(slug="c2").exists()


def test_an_account_runs_at_most_its_cap_of_unfinished_tournaments(alice, bob, client_for, settings):
    settings.MAX_TOURNAMENTS_PER_USER = 2
    client = client_for(alice)
    assert [new_tournament(client, f"Open {i}").status_code for i in range(2)] == [201, 201]
    refused(new_tournament(client, "Open 2"), "too_many_tournaments", "2 tournaments that have not finished")
    assert not Tournament.objects.filter(name="Open 2").exists()
    assert new_tournament(client_for(bob), "Bob's Open").status_code == 201
    # A finished tournament no longer counts.
    Tournament.objects.filter(name="Open 0").update(status="finished")
    assert new_tournament(client, "Open 2").status_code == 201


def test_an_account_has_at_most_its_cap_of_invitations_waiting(alice, bob, carol, client_for, settings):
    settings.MAX_OPEN_INVITATIONS_PER_USER = 2
    client = client_for(alice)
    assert [invite(client, name).status_code for name in ("bob", "carol")] == [202, 202]
    refused(invite(client, "bob"), "too_many_invitations", "2 invitations waiting for answers")
    assert Invitation.objects.filter(created_by=alice).count() == 2
    # One cancelled, or one left to expire, makes room again.
    first = Invitation.objects.filter(created_by=alice).order_by("created_at").first()
    assert client.post(f"/api/invitations/{first.id}/cancel/").status_code == 200
    assert invite(client, "bob").status_code == 202
    Invitation.objects.filter(created_by=alice, status="pending").update(
        created_at=timezone.now() - timezone.timedelta(hours=settings.INVITATION_TTL_HOURS + 1)
    )
    assert invite(client, "carol").status_code == 202


def test_draft_invitations_count_against_the_same_cap(alice, bob, client_for, settings):
    settings.MAX_OPEN_INVITATIONS_PER_USER = 1
    client = client_for(alice)
    assert invite(client, "bob").status_code == 202
    draft = client.post("/api/drafts/", {"coaches": ["alice", "bob"]}, format="json")
    refused(draft, "too_many_invitations", "1 invitation waiting for answers")


@pytest.mark.django_db(transaction=True)
def test_creates_sent_at_once_cannot_both_take_the_last_place(make_user, client_for, settings):
    settings.MAX_TOURNAMENTS_PER_USER = 1
    settings.MAX_LEAGUES_PER_USER = 1
    settings.MAX_OPEN_INVITATIONS_PER_USER = 1
    dora = make_user("dora")
    make_user("bob")
    client_for(dora)  # its token, made before the threads start

    def invite_bob(i):
        seats = [{"username": "dora"}, {"username": "bob"}]
        return client_for(dora).post("/api/matches/", {"game": "dueling-wizards", "seats": seats}, format="json")

    tournaments = at_once(4, lambda i: new_tournament(client_for(dora), f"Rush {i}").status_code)
    leagues = at_once(4, lambda i: new_league(client_for(dora), f"rush-{i}").status_code)
    assert sorted(tournaments) == [201, 409, 409, 409] and Tournament.objects.filter(created_by=dora).count() == 1
    assert sorted(leagues) == [201, 409, 409, 409] and League.objects.filter(created_by=dora).count() == 1
    invitations = at_once(4, lambda i: invite_bob(i).status_code)
    assert sorted(invitations) == [202, 409, 409, 409] and Invitation.objects.filter(created_by=dora).count() == 1


def test_the_defaults_leave_an_organiser_room(settings):
    assert settings.MAX_LEAGUES_PER_USER >= 10
    assert settings.MAX_CLUBS_PER_LEAGUE >= 256  # a season of the most clubs a season holds
    assert settings.MAX_TOURNAMENTS_PER_USER >= 20
    assert settings.MAX_OPEN_INVITATIONS_PER_USER >= 20
