"""Migration tournaments 0003 refolds the cached projection of every tournament with an entry the
organiser made, to the seq the cache was at. A cache behind the stream's head (events a command
folds on the next read) is refolded where it was and still catches up; a cache claiming events the
stream does not hold (a restore that brought back the tournaments table newer than the events) is
left as it is, for verification to report: refolded, it would claim only what the stream holds, the
next command would save it as such, and the gap would be gone from the record."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from league.tournaments import projection, services
from league.tournaments.models import Tournament
from league.tournaments.projection import event_dict
from league.tournaments.verification import verify_tournament
from matches import eventstore
from matches.commands import AT_HEAD
from matches.models import Stream

from .helpers import people, pid, state

pytestmark = pytest.mark.django_db

MIGRATION = "league.tournaments.migrations.0003_refold_entries_by_the_organiser"


def entered_by_the_organiser():
    org, ann, ben, cat = people("org", "ann", "ben", "cat")
    t = services.tournament_create(created_by=org, name="Cup", game="dueling-wizards", format="swiss")
    services.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=ben, by=org, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=cat, expected_seq=AT_HEAD)
    return t, ben


def as_the_old_fold_left_it(t, ben) -> dict:
    old = Tournament.objects.get(pk=t.pk).state
    del old["players"][pid(ben)]["entered_by"]
    return old


def refold():
    importlib.import_module(MIGRATION).refold_entries_by_the_organiser(apps, None)


def test_a_cache_behind_the_stream_is_refolded_where_it_was_and_catches_up():
    t, ben = entered_by_the_organiser()
    # The cache as it stood before cat's registration, which it has not folded yet.
    at = eventstore.stream_events(stream_id=t.stream_id)[-2].seq
    behind = projection.fold(event_dict(e) for e in eventstore.stream_events(stream_id=t.stream_id) if e.seq <= at)
    del behind["players"][pid(ben)]["entered_by"]
    Tournament.objects.filter(pk=t.pk).update(state=behind, state_seq=at)
    refold()
    t.refresh_from_db()
    assert t.state_seq == at and t.state["seq"] == at and "entered_by" in t.state["players"][pid(ben)]
    assert verify_tournament(Stream.objects.get(pk=t.stream_id)).ok
    assert state(t) == projection.fold(event_dict(e) for e in eventstore.stream_events(stream_id=t.stream_id))


def test_a_cache_claiming_events_the_stream_lacks_is_left_for_verification_to_report():
    t, ben = entered_by_the_organiser()
    dan = people("dan")[0]
    events = [event_dict(e) for e in eventstore.stream_events(stream_id=t.stream_id)]
    head = events[-1]["seq"]
    # A cache one fact ahead of the stream (dan's registration, which the stream does not hold), as
    # the old fold left it.
    lost = {"seq": head + 1, "type": "player.registered", "actor": f"user:{dan.pk}"}
    lost["data"] = {**next(e for e in events if e["type"] == "player.registered")["data"], "player": pid(dan)}
    lost["data"]["name"] = "dan"
    ahead = projection.fold([*events, lost])
    del ahead["players"][pid(ben)]["entered_by"]
    Tournament.objects.filter(pk=t.pk).update(state=ahead, state_seq=head + 1)
    before = verify_tournament(Stream.objects.get(pk=t.stream_id))
    assert not before.ok and "beyond the stream" in before.reason
    refold()
    t.refresh_from_db()
    assert (t.state, t.state_seq) == (ahead, head + 1)
    # The next command finds the cache as it was, and verification still finds it out of step.
    services.tournament_register(tournament=t, user=people("eve")[0], expected_seq=AT_HEAD)
    assert not verify_tournament(Stream.objects.get(pk=t.stream_id)).ok
