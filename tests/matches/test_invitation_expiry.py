"""Invitations expire (issue 15, left over from Deliver item 5): one that not everyone answered within
INVITATION_TTL_HOURS (72 unless set) can no longer start anything, and shows as expired."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from matches.invitations.models import Invitation, Invitee
from matches.models import Event, Match, OutboxMessage

DUEL = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}]}


def invite(client) -> dict:
    response = client.post("/api/matches/", DUEL, format="json")
    assert response.status_code == 202, response.json()
    return response.json()


def sent_ago(invitation: dict, hours: float) -> None:
    # As if it had been sent that long ago (created_at is set once, on insert).
    Invitation.objects.filter(pk=invitation["id"]).update(created_at=timezone.now() - timedelta(hours=hours))


def answer(client, invitation, verb):
    return client.post(f"/api/invitations/{invitation['id']}/{verb}/", format="json")


def test_an_invitation_answered_within_three_days_still_starts_the_match(alice, bob, client_for):
    sent = invite(client_for(alice))
    sent_ago(sent, 71)
    assert client_for(bob).get(f"/api/invitations/{sent['id']}/").json()["status"] == "pending"
    accepted = answer(client_for(bob), sent, "accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"


def test_an_expired_invitation_cannot_be_accepted_and_nothing_is_written(alice, bob, client_for):
    sent = invite(client_for(alice))
    sent_ago(sent, 73)
    outbox_before = OutboxMessage.objects.count()
    refused = answer(client_for(bob), sent, "accept")
    assert refused.status_code == 409, refused.json()
    assert refused.json()["code"] == "invitation_expired" and refused.json()["detail"]
    assert Match.objects.count() == 0 and Event.objects.count() == 0
    assert Invitee.objects.get().response == Invitee.Response.PENDING
    assert (
        Invitation.objects.get().status == Invitation.Status.PENDING and OutboxMessage.objects.count() == outbox_before
    )
    # Declining or cancelling it is refused alike: it is over already.
    for client, verb in ((client_for(bob), "decline"), (client_for(alice), "cancel")):
        late = answer(client, sent, verb)
        assert late.status_code == 409 and late.json()["code"] == "invitation_expired"


def test_an_expired_invitation_shows_as_expired_and_leaves_the_waiting_lists(alice, bob, client_for, client):
    kept, expired = invite(client_for(alice)), invite(client_for(alice))
    sent_ago(expired, 73)
    shown = client_for(alice).get(f"/api/invitations/{expired['id']}/").json()
    assert shown["status"] == "expired"
    assert (
        shown["expires_at"] == (Invitation.objects.get(pk=expired["id"]).created_at + timedelta(hours=72)).isoformat()
    )

    def listed(status):
        body = client_for(bob).get("/api/invitations/", {"status": status}).json()
        return [i["id"] for i in body["results"]]

    assert listed("pending") == [kept["id"]] and listed("expired") == [expired["id"]]
    client.force_login(bob)
    home = client.get("/").content.decode()
    assert f"/invitations/{kept['id']}/accept/" in home and expired["id"] not in home
    page = client.get(f"/invitations/{expired['id']}/").content.decode()
    assert 'badge expired">expired' in page and "nothing was started" in page
    assert 'data-testid="accept"' not in page


def test_the_time_to_answer_is_a_setting(alice, bob, client_for, settings):
    settings.INVITATION_TTL_HOURS = 1
    sent = invite(client_for(alice))
    sent_ago(sent, 2)
    refused = answer(client_for(bob), sent, "accept")
    assert refused.status_code == 409 and refused.json()["code"] == "invitation_expired"
