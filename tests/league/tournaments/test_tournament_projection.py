"""A tournament is its events: the cached projection equals a replay from scratch, the
stream's events are immutable and chained (issue 6, item 1)."""

from __future__ import annotations

import json

import pytest

from league.streams import stream_events
from league.tournaments import projection, services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from league.tournaments.services import event_dict, projection_rebuild
from matches.commands import AT_HEAD

from .helpers import field, lower_id_wins, open_tournament, settle, state

pytestmark = pytest.mark.django_db


def test_dropping_and_rebuilding_the_projection_gives_the_cached_one(alice):
    players = field(8)
    t = open_tournament(alice, "double_elimination", players, start=True)
    settle(t, lower_id_wins)
    services.tournament_correct(
        tournament=t, pairing="M1", by=alice, result={"winner": str(players[7].pk)}, expected_seq=AT_HEAD
    )
    settle(t, lower_id_wins)
    cached = state(t)
    Tournament.objects.filter(pk=t.pk).update(state={}, state_seq=0)
    t.refresh_from_db()
    rebuilt = projection_rebuild(tournament=t)
    assert json.loads(json.dumps(rebuilt)) == cached
    t.refresh_from_db()
    assert t.state == cached and t.state_seq == cached["seq"]


def test_a_stale_cache_catches_up_from_the_events_it_has_not_folded(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    settle(t, lower_id_wins)
    full = state(t)
    events = [event_dict(e) for e in stream_events(stream_id=t.stream_id)]
    partial = projection.fold(events[:3])
    Tournament.objects.filter(pk=t.pk).update(state=partial, state_seq=3)
    t.refresh_from_db()
    assert tournament_state(tournament=t) == full


def test_every_fact_of_a_tournament_is_an_event_in_its_stream(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=1)
    settle(t, lower_id_wins)
    types = [e.type for e in stream_events(stream_id=t.stream_id)]
    assert types[:6] == ["tournament.created"] + ["player.registered"] * 4 + ["tournament.started"]
    assert types[6] == "round.paired"
    assert types.count("result.reported") == 2 and types.count("result.confirmed") == 2


def test_an_unknown_event_type_is_refused_by_the_fold():
    with pytest.raises(ValueError):
        projection.fold([{"seq": 1, "type": "tournament.exploded", "data": {}, "actor": "system"}])
