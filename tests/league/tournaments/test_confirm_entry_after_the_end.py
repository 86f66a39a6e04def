"""An entry the organiser made is confirmed while the tournament runs (or before): once it is over
there is nothing left to be emailed about, the account page no longer offers it, and the stream of a
finished tournament takes no new fact from a player, as it takes none from any other command."""

from __future__ import annotations

import pytest

from league.tournaments import projection, services
from league.tournaments.states import TournamentStatus
from matches import eventstore
from matches.commands import AT_HEAD

from .helpers import lower_id_wins, people, pid, refused, settle, state

pytestmark = pytest.mark.django_db


def test_an_entry_is_not_confirmed_once_the_tournament_is_over_and_nothing_is_written(client):
    org, ann, ben = people("org", "ann", "ben")
    t = services.tournament_create(created_by=org, name="Cup", game="dueling-wizards", format="single_elimination")
    services.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=ben, by=org, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert not projection.asked_to_play(state(t)["players"][pid(ben)])
    head = eventstore.stream_events(stream_id=t.stream_id)[-1].seq

    refused("tournament_finished", services.tournament_confirm_entry, tournament=t, user=ben)
    client.force_login(ben)
    page = client.post(f"/tournaments/{t.id}/confirm-entry/", follow=True)
    assert "The tournament is over." in page.content.decode()
    assert eventstore.stream_events(stream_id=t.stream_id)[-1].seq == head
