"""A tournament command's ``event_id`` names one command: sent again with the same command it is a
retry (the stored event, 200 ``created`` False); sent with another command (another result, another
verb) it is 409 ``event_id_reused`` and writes nothing, as matches/commands.py promises, never
"stored" for a command that was not written."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from league.tournaments import services
from matches.commands import AT_HEAD
from matches.eventstore import EventIdReused
from matches.models import Event, Match

from .helpers import api_command, open_pairings, open_tournament, people, state

pytestmark = pytest.mark.django_db


def events(t, type=None):
    stored = Event.objects.filter(stream_id=f"tournament:{t.id}")
    return stored.filter(type=type).count() if type else stored.count()


def a_paired_tournament(organiser):
    t = open_tournament(organiser, "single_elimination", people("p1", "p2"), start=True)
    [pairing] = open_pairings(t)
    return t, pairing


def test_another_result_reported_under_a_used_id_is_409_and_writes_nothing(alice, client_for):
    t, pairing = a_paired_tournament(alice)
    reporter = client_for(type(alice).objects.get(pk=int(pairing["players"][0])))
    head = state(t)["seq"]
    eid = str(uuid.uuid4())
    verb = f"pairings/{pairing['id']}/report"
    first = api_command(reporter, t, verb, result={"winner": pairing["players"][0]}, expected_seq=head, event_id=eid)
    assert first.status_code == 201, first.json()
    before = events(t)
    other = api_command(reporter, t, verb, result={"winner": pairing["players"][1]}, expected_seq=head, event_id=eid)
    assert (other.status_code, other.json()["code"]) == (409, "event_id_reused"), other.json()
    assert "different command" in other.json()["detail"]
    assert events(t) == before
    # The same report again is still a retry, answered with what was stored.
    again = api_command(reporter, t, verb, result={"winner": pairing["players"][0]}, expected_seq=head, event_id=eid)
    assert again.status_code == 200 and again.json()["created"] is False
    assert again.json()["events"] == first.json()["events"]


def test_another_verb_under_a_used_id_is_409_and_writes_nothing(alice, client_for):
    t = open_tournament(alice, "swiss", people("bob"))
    organiser = client_for(alice)
    eid = str(uuid.uuid4())
    assert api_command(organiser, t, "register", event_id=eid).status_code == 201
    before = events(t)
    other = api_command(organiser, t, "withdraw", user="bob", event_id=eid)
    assert (other.status_code, other.json()["code"]) == (409, "event_id_reused"), other.json()
    assert events(t) == before and events(t, "player.withdrew") == 0


def test_a_check_in_retried_later_is_still_the_same_check_in(alice):
    # The check-in records its moment; a retry a minute on records another, yet asks the same thing.
    bob, carol = people("bob", "carol")
    t = open_tournament(alice, "swiss", [bob, carol], check_in_required=True)
    eid = uuid.uuid4()
    now = timezone.now()
    desk = {"by": alice, "expected_seq": AT_HEAD, "event_id": eid}
    first = services.tournament_check_in(tournament=t, user=bob, now=now, **desk)
    again = services.tournament_check_in(tournament=t, user=bob, now=now + timedelta(minutes=1), **desk)
    assert first.created and not again.created and again.events == first.events
    with pytest.raises(EventIdReused):
        services.tournament_check_in(tournament=t, user=carol, now=now, **desk)
    assert events(t, "player.checked_in") == 1


def test_a_retried_platform_match_create_makes_one_match(alice):
    # Deciding the command again to compare it makes a match; that one must not survive.
    t, pairing = a_paired_tournament(alice)
    player = type(alice).objects.get(pk=int(pairing["players"][0]))
    eid = uuid.uuid4()
    first = services.tournament_match_create(
        tournament=t, pairing=pairing["id"], by=player, expected_seq=AT_HEAD, event_id=eid
    )
    again = services.tournament_match_create(
        tournament=t, pairing=pairing["id"], by=player, expected_seq=AT_HEAD, event_id=eid
    )
    assert first.created and not again.created and again.events == first.events
    assert Match.objects.count() == 1
    assert state(t)["pairings"][pairing["id"]]["match_id"] == str(Match.objects.get().id)
