"""The platform's own facts about a match (its verified result, a retraction) carry ids derived
from the match, so a follow-up delivered twice lands them once. Event ids are unique across every
stream and clients choose their own: derived from the public match id alone, such an id could be
taken first by any player in a stream they may write to, and the platform's fact was then refused
as a reused id and never recorded. The derivation is keyed with the server's EVENT_ID_KEY
(matches.commands.platform_event_id)."""

from __future__ import annotations

import uuid

import pytest
from django.test import override_settings

from league.seasons.services import RESULT_NAMESPACE
from league.tournaments import services
from league.tournaments.services import NAMESPACE
from matches.commands import AT_HEAD, platform_event_id
from matches.models import Event, Match

from .helpers import field, open_tournament, state
from .test_tournament_platform_matches import play_out

pytestmark = pytest.mark.django_db


def test_a_verified_result_lands_although_an_id_worked_out_from_its_match_was_taken_first(
    alice, django_capture_on_commit_callbacks
):
    players = field(4)
    by_id = {str(p.pk): p for p in players}
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    out = services.tournament_match_create(tournament=t, pairing="r1-1", by=alice, expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["r1-1"]["match_id"])
    # A player of the other pairing reports their own result under the id the platform's fact
    # would have had when it derived from the match id alone.
    other = state(t)["pairings"]["r1-2"]["players"]
    taken = uuid.uuid5(NAMESPACE, f"{match.id}:verified")
    services.tournament_report(
        tournament=t,
        pairing="r1-2",
        user=by_id[other[0]],
        result={"winner": other[0]},
        expected_seq=AT_HEAD,
        event_id=taken,
    )
    assert Event.objects.filter(event_id=taken).exists()

    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, {s.index: s.user for s in match.seats.all()})
    recorded = state(t)["pairings"]["r1-1"]
    assert recorded["status"] == "final" and recorded["source"] == "match", recorded


@pytest.mark.parametrize("namespace, name", [(NAMESPACE, "m-1:verified"), (RESULT_NAMESPACE, "m-1")])
def test_a_platform_fact_id_cannot_be_worked_out_from_the_match_and_stays_the_same_under_one_key(namespace, name):
    with override_settings(EVENT_ID_KEY="one key"):
        first, again = platform_event_id(namespace, name), platform_event_id(namespace, name)
    with override_settings(EVENT_ID_KEY="another key"):
        other = platform_event_id(namespace, name)
    assert first == again
    assert first != other
    assert first != uuid.uuid5(namespace, name)
