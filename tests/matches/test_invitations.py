"""Invitations (issue 15, Deliver item 5): a match or draft that seats other people waits until each
of them accepts; nobody is seated opposite anyone without saying yes."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from league.drafts.models import Draft
from matches.invitations.models import Invitation
from matches.models import Event, Match

DUEL = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}]}


def invite(client, body=None, **extra):
    response = client.post("/api/matches/", {**(body or DUEL), **extra}, format="json")
    assert response.status_code == 202, response.json()
    return response.json()


def answer(client, invitation, verb, body=None):
    return client.post(f"/api/invitations/{invitation['id']}/{verb}/", body, format="json")


def test_a_match_against_another_player_is_an_invitation_and_nothing_is_recorded_yet(alice, bob, client_for):
    invitation = invite(client_for(alice))
    assert invitation["status"] == "pending" and invitation["kind"] == "match"
    assert invitation["inviter"] == "alice" and invitation["seats"] == ["alice", "bob"]
    assert invitation["invitees"] == [{"username": "bob", "response": "pending"}]
    assert invitation["match"] is None and invitation["url"] is None
    # No match, no stream, no event until bob says yes.
    assert Match.objects.count() == 0 and Event.objects.count() == 0


def test_the_invited_player_sees_the_invitation_and_accepting_starts_the_match_as_asked(alice, bob, client_for):
    clock = {"kind": "fischer", "base": 300, "increment": 3}
    sent = invite(client_for(alice), time_control=clock, config={"jokers": False})
    listed = client_for(bob).get("/api/invitations/", {"status": "pending", "role": "received"}).json()
    assert [i["id"] for i in listed["results"]] == [sent["id"]] and listed["count"] == 1
    assert listed["results"][0]["your_response"] == "pending"

    accepted = answer(client_for(bob), sent, "accept")
    assert accepted.status_code == 200, accepted.json()
    body = accepted.json()
    assert body["status"] == "accepted" and body["url"] == f"/matches/{body['match']}/"
    match = Match.objects.get(pk=body["match"])
    assert [s.user.username for s in match.seats.order_by("index")] == ["alice", "bob"]
    assert match.created_by.username == "alice" and match.time_control["base"] == 300
    assert match.config["jokers"] is False
    # The match's first event says whose yes started it.
    created = Event.objects.get(stream_id=match.stream_id, seq=1)
    assert created.data["origin"] == {"invitation": sent["id"], "accepted_by": ["bob"]}
    # The inviter reads the same link from the invitation she sent.
    mine = client_for(alice).get(f"/api/invitations/{sent['id']}/").json()
    assert mine["status"] == "accepted" and mine["url"] == body["url"]
    summary = client_for(alice).get(f"/api/matches/{body['match']}/").json()
    assert summary["status"] == "live" and summary["your_seat"] == 0


def test_polling_an_invitation_costs_the_same_queries_however_many_are_invited(alice, bob, carol, client_for):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    two = invite(client_for(alice))
    three = invite(
        client_for(alice),
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}, {"username": "carol"}]},
    )
    counts, polling = [], client_for(bob)
    for sent in (two, three):
        with CaptureQueriesContext(connection) as queries:
            assert polling.get(f"/api/invitations/{sent['id']}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 4  # the token, the invitation (with its inviter), invitees, their users


def test_accepting_twice_starts_one_match(alice, bob, client_for):
    sent = invite(client_for(alice))
    first = answer(client_for(bob), sent, "accept").json()
    again = answer(client_for(bob), sent, "accept")
    assert again.status_code == 200 and again.json()["match"] == first["match"]
    assert Match.objects.count() == 1


def test_with_three_players_the_match_starts_only_when_the_last_one_accepts(alice, bob, carol, client_for):
    sent = invite(
        client_for(alice),
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}, {"username": "carol"}]},
    )
    after_bob = answer(client_for(bob), sent, "accept").json()
    assert after_bob["status"] == "pending" and Match.objects.count() == 0
    assert {i["username"]: i["response"] for i in after_bob["invitees"]} == {"bob": "accepted", "carol": "pending"}
    after_carol = answer(client_for(carol), sent, "accept").json()
    assert after_carol["status"] == "accepted" and Match.objects.count() == 1


def test_a_declined_invitation_seats_nobody_and_cannot_be_accepted_after(alice, bob, carol, client_for):
    sent = invite(
        client_for(alice),
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}, {"username": "carol"}]},
    )
    assert answer(client_for(bob), sent, "accept").status_code == 200
    declined = answer(client_for(carol), sent, "decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    late = answer(client_for(bob), sent, "decline")
    assert late.status_code == 409 and late.json()["code"] == "invitation_closed"
    assert answer(client_for(carol), sent, "decline").status_code == 200  # the same answer again
    refused = answer(client_for(carol), sent, "accept")
    assert refused.status_code == 409 and refused.json()["code"] == "invitation_closed"
    assert Match.objects.count() == 0


def test_the_inviter_cancels_and_the_invitation_seats_nobody(alice, bob, client_for):
    sent = invite(client_for(alice))
    cancelled = answer(client_for(alice), sent, "cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert answer(client_for(alice), sent, "cancel").status_code == 200  # a retried cancel
    refused = answer(client_for(bob), sent, "accept")
    assert refused.status_code == 409 and refused.json()["code"] == "invitation_closed"
    assert Match.objects.count() == 0


def test_a_started_match_cannot_be_cancelled(alice, bob, client_for):
    sent = invite(client_for(alice))
    answer(client_for(bob), sent, "accept")
    refused = answer(client_for(alice), sent, "cancel")
    assert refused.status_code == 409 and refused.json()["code"] == "invitation_closed"
    assert Match.objects.get().status == "live"


def test_only_the_invitee_answers_and_only_the_inviter_cancels(alice, bob, carol, client_for):
    sent = invite(client_for(alice))
    for verb in ("accept", "decline"):
        refused = answer(client_for(alice), sent, verb)
        assert refused.status_code == 403 and refused.json()["code"] == "not_invitee"
    refused = answer(client_for(bob), sent, "cancel")
    assert refused.status_code == 403 and refused.json()["code"] == "not_inviter"
    # Someone else cannot even tell the invitation exists.
    for verb in ("accept", "decline", "cancel"):
        hidden = answer(client_for(carol), sent, verb)
        assert hidden.status_code == 404 and hidden.json()["code"] == "invitation_not_found"
    hidden = client_for(carol).get(f"/api/invitations/{sent['id']}/")
    assert hidden.status_code == 404 and hidden.json()["code"] == "invitation_not_found"
    assert client_for(carol).get("/api/invitations/").json()["results"] == []
    anonymous = answer(client_for(), sent, "accept")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    assert Invitation.objects.get().status == "pending" and Match.objects.count() == 0


@pytest.mark.parametrize(
    "verb, body, status, code",
    [
        ("join", None, 404, "unknown_verb"),
        ("accept", {"seat": 3}, 400, "invalid_request"),
        ("accept", ["x"], 400, "invalid_request"),
    ],
)
def test_bad_answers_are_refused_with_a_code_and_change_nothing(alice, bob, client_for, verb, body, status, code):
    sent = invite(client_for(alice))
    refused = answer(client_for(bob), sent, verb, body)
    assert refused.status_code == status and refused.json()["code"] == code and refused.json()["detail"]
    assert Invitation.objects.get().invitees.get().response == "pending" and Match.objects.count() == 0


def test_an_unknown_invitation_is_a_404(bob, client_for):
    missing = client_for(bob).post(f"/api/invitations/{uuid.uuid4()}/accept/", format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "invitation_not_found"


@pytest.mark.parametrize("params", [{"status": "maybe"}, {"role": "everyone"}, {"limit": "abc"}, {"offset": "-1"}])
def test_bad_list_filters_are_refused_with_a_code(alice, client_for, params):
    refused = client_for(alice).get("/api/invitations/", params)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_request"


def test_a_match_that_could_not_start_is_refused_before_anyone_is_invited(alice, bob, client_for):
    for body, code in (
        ({**DUEL, "config": {"jokers": "yes"}}, "bad_option_value"),
        ({**DUEL, "time_control": {"kind": "blitz"}}, "bad_time_control"),
        ({**DUEL, "game": "chess"}, "unknown_game"),
    ):
        refused = client_for(alice).post("/api/matches/", body, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == code
    assert Invitation.objects.count() == 0


def test_a_retried_create_returns_the_same_invitation_and_then_its_match(alice, bob, client_for):
    event_id = str(uuid.uuid4())
    first = invite(client_for(alice), event_id=event_id)
    again = client_for(alice).post("/api/matches/", {**DUEL, "event_id": event_id}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    assert Invitation.objects.count() == 1
    answer(client_for(bob), first, "accept")
    later = client_for(alice).post("/api/matches/", {**DUEL, "event_id": event_id}, format="json")
    assert later.status_code == 200 and later.json()["status"] == "accepted" and Match.objects.count() == 1
    # The same id for something else is refused, both for another invitation and for a bot match.
    other = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}], "event_id": event_id}
    for body in ({**DUEL, "mode": "tabletop", "event_id": event_id}, other):
        refused = client_for(alice).post("/api/matches/", body, format="json")
        assert refused.status_code == 409 and refused.json()["code"] == "event_id_reused"
    assert Match.objects.count() == 1 and Invitation.objects.count() == 1


def test_an_event_id_of_a_recorded_event_cannot_name_an_invitation(alice, bob, client_for):
    event_id = str(uuid.uuid4())
    bot_match = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}], "event_id": event_id}
    assert client_for(alice).post("/api/matches/", bot_match, format="json").status_code == 201
    refused = client_for(alice).post("/api/matches/", {**DUEL, "event_id": event_id}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "event_id_reused"
    assert Invitation.objects.count() == 0


def test_bots_and_organisers_need_no_invitation(alice, bob, client_for, make_user):
    with_bot = client_for(alice).post(
        "/api/matches/", {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}]}, format="json"
    )
    assert with_bot.status_code == 201 and with_bot.json()["status"] == "live"
    organiser = make_user("organiser", staff=True)
    seated = client_for(organiser).post("/api/matches/", DUEL, format="json")
    assert seated.status_code == 201 and Invitation.objects.count() == 0


def test_the_api_decides_invite_or_create_through_the_service_the_new_match_page_uses(
    alice, bob, client_for, monkeypatch
):
    # One place decides who must say yes first: a rule added there holds for the API and the page
    # alike, not for one of them only.
    from matches.invitations import services as invitation_services

    decided = []
    match_open = invitation_services.match_open

    def recording(**kwargs):
        opened, created = match_open(**kwargs)
        decided.append(type(opened).__name__)
        return opened, created

    monkeypatch.setattr(invitation_services, "match_open", recording)
    invite(client_for(alice))
    with_bot = client_for(alice).post(
        "/api/matches/", {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}]}, format="json"
    )
    assert with_bot.status_code == 201
    assert decided == ["Invitation", "Match"]


def test_a_draft_against_another_coach_opens_when_they_accept(alice, bob, client_for):
    sent = client_for(alice).post(
        "/api/drafts/", {"coaches": ["bob", "alice"], "format": "schoolyard", "clock_seconds": 90}, format="json"
    )
    assert sent.status_code == 202, sent.json()
    invitation = sent.json()
    assert invitation["kind"] == "draft" and invitation["seats"] == ["bob", "alice"]
    assert Draft.objects.count() == 0 and Match.objects.count() == 0
    accepted = answer(client_for(bob), invitation, "accept").json()
    draft = Draft.objects.get()
    assert accepted["url"] == f"/drafts/{draft.draft_match_id}/"
    assert draft.clock_seconds == 90 and draft.draft_match.config["format"] == "schoolyard"
    assert [s.user.username for s in draft.draft_match.seats.order_by("index")] == ["bob", "alice"]


def test_a_retried_draft_create_returns_the_same_invitation_or_the_organisers_room(alice, bob, client_for, make_user):
    body = {"coaches": ["alice", "bob"], "format": "schoolyard", "event_id": str(uuid.uuid4())}
    first = client_for(alice).post("/api/drafts/", body, format="json")
    again = client_for(alice).post("/api/drafts/", body, format="json")
    assert (first.status_code, again.status_code) == (202, 200) and again.json()["id"] == first.json()["id"]
    organiser = make_user("organiser", staff=True)
    direct = {**body, "event_id": str(uuid.uuid4())}
    opened = client_for(organiser).post("/api/drafts/", direct, format="json")
    reopened = client_for(organiser).post("/api/drafts/", direct, format="json")
    assert (opened.status_code, reopened.status_code) == (201, 200) and reopened.json()["id"] == opened.json()["id"]
    assert Invitation.objects.count() == 1 and Draft.objects.count() == 1


def test_a_draft_that_could_not_open_is_refused_before_anyone_is_invited(alice, bob, carol, client_for):
    refused = client_for(alice).post("/api/drafts/", {"coaches": ["alice", "bob"], "clock_seconds": 2}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_clock"
    not_mine = client_for(carol).post("/api/drafts/", {"coaches": ["alice", "bob"]}, format="json")
    assert not_mine.status_code == 403
    assert Invitation.objects.count() == 0 and Draft.objects.count() == 0


def test_every_partner_of_a_team_seat_is_asked_too(alice, bob, carol, client_for):
    sent = (
        client_for(alice)
        .post("/api/drafts/", {"coaches": ["alice+carol", "bob"], "format": "schoolyard"}, format="json")
        .json()
    )
    assert sorted(i["username"] for i in sent["invitees"]) == ["bob", "carol"]
    assert sent["seats"] == ["alice & carol", "bob"]


# -- the pages --------------------------------------------------------------------------------


def test_the_new_match_form_invites_and_the_last_acceptance_leads_into_the_match(client, alice, bob, carol):
    client.force_login(alice)
    sent = client.post(
        "/matches/new/", {"game": "dueling-wizards", "opponent": "bob", "bot": "", "mode": "server", "clock": ""}
    )
    invitation = Invitation.objects.get()
    assert sent.status_code == 302 and sent["Location"] == f"/invitations/{invitation.id}/"
    assert Match.objects.count() == 0
    assert "Waiting for the answers" in client.get(sent["Location"]).content.decode()
    client.force_login(carol)  # neither inviter nor invited: no such page
    assert client.get(f"/invitations/{invitation.id}/").status_code == 404
    assert client.post(f"/invitations/{invitation.id}/accept/").status_code == 404
    client.force_login(bob)
    home = client.get("/").content.decode()
    assert 'data-testid="invitations-received"' in home and f"/invitations/{invitation.id}/accept/" in home
    accepted = client.post(f"/invitations/{invitation.id}/accept/")
    match = Match.objects.get()
    assert accepted.status_code == 302 and accepted["Location"] == f"/matches/{match.id}/"


def test_the_inviter_cancels_from_the_page(client, alice, bob):
    client.force_login(alice)
    client.post(
        "/matches/new/", {"game": "dueling-wizards", "opponent": "bob", "bot": "", "mode": "server", "clock": ""}
    )
    invitation = Invitation.objects.get()
    assert f"/invitations/{invitation.id}/cancel/" in client.get("/").content.decode()
    assert client.post(f"/invitations/{invitation.id}/cancel/")["Location"] == "/"
    assert Invitation.objects.get().status == "cancelled"
    client.force_login(bob)
    assert 'data-testid="invitations"' not in client.get("/").content.decode()
    refused = client.post(f"/invitations/{invitation.id}/accept/")  # the page says why, nothing changes
    assert refused.status_code == 302 and Match.objects.count() == 0


def test_the_pages_refuse_an_unknown_answer_a_get_and_a_signed_out_answer(client, alice, bob):
    client.force_login(alice)
    client.post(
        "/matches/new/", {"game": "dueling-wizards", "opponent": "bob", "bot": "", "mode": "server", "clock": ""}
    )
    invitation = Invitation.objects.get()
    client.force_login(bob)
    assert client.post(f"/invitations/{invitation.id}/join/").status_code == 404
    assert client.get(f"/invitations/{invitation.id}/accept/").status_code == 405
    client.logout()
    signed_out = client.post(f"/invitations/{invitation.id}/accept/")
    assert signed_out.status_code == 302 and signed_out["Location"].startswith("/accounts/login/")
    assert client.get(f"/invitations/{invitation.id}/")["Location"].startswith("/accounts/login/")
    assert Invitation.objects.get().invitees.get().response == "pending" and Match.objects.count() == 0


def test_a_saved_setup_chosen_with_an_invitation_is_played_when_the_match_starts(client, client_for, alice, bob):
    from engines.wizarding_duels import content, groups
    from matches.models import SavedSetup

    pack = content.load("original-v1")
    group = groups.random_group(pack, 40, groups.Lcg(5))
    stock = groups.random_stock(pack, group["models"], groups.Lcg(5))
    setup = SavedSetup.objects.create(
        user=alice,
        game="wizarding-duels",
        name="Forty",
        data={"config": {"pack": "original-v1", "galleons": 40}, "actions": [group, stock]},
    )
    client.force_login(alice)
    client.post(
        "/matches/new/",
        {
            "game": "wizarding-duels",
            "opponent": "bob",
            "bot": "",
            "mode": "server",
            "clock": "",
            "setup": str(setup.pk),
        },
    )
    invitation = Invitation.objects.get()
    # Which saved setup is the inviter's own business: the same id in a later invitation would tell bob
    # that the Group he saw in an earlier match comes again.
    assert client_for(alice).get(f"/api/invitations/{invitation.id}/").json()["request"]["setup"]["id"] == setup.pk
    for seen_by_bob in (
        client_for(bob).get(f"/api/invitations/{invitation.id}/").json(),
        client_for(bob).get("/api/invitations/").json()["results"][0],
    ):
        assert "setup" not in seen_by_bob["request"] and seen_by_bob["request"]["config"]["galleons"] == 40
    client.force_login(bob)
    client.post(f"/invitations/{invitation.id}/accept/")
    match = Match.objects.get()
    assert match.config["galleons"] == 40
    # alice's Group is her first answer, sent for her (it stays secret until bob builds his).
    answers = Event.objects.filter(stream_id=match.stream_id, type="action", actor=f"user:{alice.pk}")
    assert answers.first().data["action"]["models"] == group["models"]


# -- races ----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_acceptances_sent_at_once_start_exactly_one_match(client_for, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    sent = invite(
        client_for(alice),
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}, {"username": "carol"}]},
    )

    def accept(user):
        try:
            return answer(client_for(user), sent, "accept").status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = list(pool.map(accept, [bob, carol] * 10))
    # Each acceptance holds the invitation's lock: exactly one of them is the last and starts the match.
    assert codes == [200] * 20
    assert Match.objects.count() == 1 and Event.objects.filter(type="match.created").count() == 1
    assert Invitation.objects.get().match_id == Match.objects.get().id


@pytest.mark.django_db(transaction=True)
def test_one_create_retried_at_once_makes_one_invitation(client_for, make_user):
    alice, _ = make_user("alice"), make_user("bob")
    body = {**DUEL, "event_id": str(uuid.uuid4())}

    def create(_):
        try:
            response = client_for(alice).post("/api/matches/", body, format="json")
            return response.status_code, response.json()["id"]
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(create, range(16)))
    assert sorted(code for code, _ in answers) == [200] * 15 + [202]
    assert len({invitation for _, invitation in answers}) == 1 and Invitation.objects.count() == 1
