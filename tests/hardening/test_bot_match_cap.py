"""The per-account cap on unfinished matches and drafts that seat no other person: those start at
once, without anyone's consent, and each keeps a live state, a stream and a bot turn per move.
Past ``MAX_OPEN_BOT_MATCHES_PER_USER`` a create is 409 ``too_many_bot_matches`` and writes
nothing; a finished one frees its place; matches with another person seated, and a season's or
tournament's fixtures, are not counted; two creates at once cannot both take the last place."""

from __future__ import annotations

import uuid

import pytest

from league.drafts.invitations import draft_open
from league.drafts.models import Draft
from matches.models import Event, Match, OutboxMessage, Seat, Stream
from matches.services import MatchError, SeatSpec, match_create
from tests.matches.helpers import at_once

pytestmark = pytest.mark.django_db


def bot_match(client, *, event_id=None):
    body = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}]}
    if event_id is not None:
        body["event_id"] = str(event_id)
    return client.post("/api/matches/", body, format="json")


def rows() -> dict:
    return {model.__name__: model.objects.count() for model in (Match, Stream, Event, Seat, OutboxMessage, Draft)}


def refused(response, sentence: str):
    assert response.status_code == 409, response.json()
    assert response.json()["code"] == "too_many_bot_matches" and sentence in response.json()["detail"]


def test_a_match_against_bots_past_the_cap_is_refused_and_writes_nothing(alice, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 2
    client = client_for(alice)
    assert [bot_match(client).status_code for _ in range(2)] == [201, 201]
    before = rows()
    refused(bot_match(client), "You have 2 matches and drafts against bots that have not finished")
    assert rows() == before


def test_a_finished_match_against_bots_frees_its_place(alice, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    client = client_for(alice)
    first = bot_match(client)
    assert first.status_code == 201
    refused(bot_match(client), "You have 1 match or draft against bots")
    Match.objects.filter(pk=first.json()["id"]).update(status=Match.Status.FINISHED)
    assert bot_match(client).status_code == 201


def test_a_match_its_person_resigned_counts_until_its_bots_have_finished_it(
    alice, client_for, settings, django_capture_on_commit_callbacks
):
    # Its bots play it on in later commands (test_bot_chunks.py), the platform's work but on this
    # account's say: were it freed at the resignation, a script could keep any number of games of
    # bots playing at once by starting one and resigning it, over and over.
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    settings.BOT_MOVES_PER_COMMAND = 20
    client = client_for(alice)
    three = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}, {"bot": "random"}]}
    first = client.post("/api/matches/", three, format="json")
    assert first.status_code == 201, first.json()
    body = {"expected_seq": first.json()["head_seq"], "event_id": str(uuid.uuid4())}
    with django_capture_on_commit_callbacks() as queued:
        resigned = client.post(f"/api/matches/{first.json()['id']}/resign/", body, format="json")
    assert resigned.status_code == 201 and resigned.json()["status"] == "live", resigned.json()
    refused(bot_match(client), "a game you left counts until its bots have finished it")
    with django_capture_on_commit_callbacks(execute=True):
        for callback in queued:
            callback()
    assert Match.objects.get(pk=first.json()["id"]).status == Match.Status.FINISHED
    assert bot_match(client).status_code == 201


def test_matches_seating_another_person_and_fixtures_do_not_count(alice, bob, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    # As an accepted invitation makes it: alice created it, bob sits in it.
    match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    # A season's fixture against a bot club is the season's.
    match_create(
        game="dueling-wizards",
        seats=[SeatSpec(user=alice), SeatSpec(bot="random")],
        created_by=alice,
        origin={"season": str(uuid.uuid4()), "fixture": "1-1"},
    )
    # Bob's matches against bots are his own.
    assert (
        client_for(bob)
        .post(
            "/api/matches/",
            {"game": "dueling-wizards", "seats": [{"username": "bob"}, {"bot": "random"}]},
            format="json",
        )
        .status_code
        == 201
    )
    client = client_for(alice)
    assert bot_match(client).status_code == 201
    refused(bot_match(client), "You have 1 match or draft against bots")
    # Invitations have their own cap: at this one alice can still invite bob.
    invite = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"username": "bob"}]}
    assert client.post("/api/matches/", invite, format="json").status_code == 202


def test_a_draft_against_bots_counts_against_the_same_cap(alice, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    draft, created = draft_open(seats=[SeatSpec(user=alice), SeatSpec(bot="auto")], created_by=alice)
    assert created and isinstance(draft, Draft)
    refused(bot_match(client_for(alice)), "You have 1 match or draft against bots")
    before = rows()
    with pytest.raises(MatchError) as refusal:
        draft_open(seats=[SeatSpec(bot="auto"), SeatSpec(user=alice)], created_by=alice)
    assert refusal.value.code == "too_many_bot_matches" and refusal.value.status == 409
    assert rows() == before


def test_a_retried_create_at_the_cap_gets_the_match_the_first_one_made(alice, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    client = client_for(alice)
    event_id = uuid.uuid4()
    first = bot_match(client, event_id=event_id)
    assert first.status_code == 201
    again = bot_match(client, event_id=event_id)
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]


@pytest.mark.django_db(transaction=True)
def test_creates_sent_at_once_cannot_both_take_the_last_place(make_user, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    alice = make_user("alice")
    client_for(alice)  # its token, made before the threads start

    codes = at_once(4, lambda i: bot_match(client_for(alice)).status_code)
    assert sorted(codes) == [201, 409, 409, 409], codes
    assert Match.objects.filter(created_by=alice).count() == 1


def test_the_default_leaves_a_player_room(settings):
    assert settings.MAX_OPEN_BOT_MATCHES_PER_USER >= 5


def test_at_the_cap_a_create_that_could_never_start_gets_its_own_refusal(alice, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    client = client_for(alice)
    assert bot_match(client).status_code == 201
    before = rows()
    # Bad input first: the cap would only tell them to finish a match, and the next try would fail too.
    bad = client.post(
        "/api/matches/",
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "no-such-bot"}]},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["code"] == "unknown_bot", bad.json()
    assert rows() == before
