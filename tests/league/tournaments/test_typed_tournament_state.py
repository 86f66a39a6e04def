"""Statuses are typed (string enums) without changing a byte of what is stored: the events a
command appends and the folded state serialise exactly as the plain strings did, so streams
recorded before replay to the same state."""

from __future__ import annotations

import json

import pytest

from league.streams import stream_events
from league.tournaments import projection
from league.tournaments.models import Tournament
from league.tournaments.services import event_dict
from league.tournaments.states import OPEN, PairingStatus, PlayerStatus, ResultSource, RoundKind, TournamentStatus

from .helpers import field, lower_id_wins, open_pairings, open_tournament, settle

pytestmark = pytest.mark.django_db

# A stream written with bare strings (the shape every stored tournament has): a Swiss of three.
OLD_STREAM = [
    {
        "type": "tournament.created",
        "data": {
            "id": "t1",
            "name": "Old",
            "game": "dueling-wizards",
            "format": "swiss",
            "options": {"rounds": 1, "bye_score": "1"},
            "organiser": 1,
        },
    },
    {"type": "player.registered", "data": {"player": "1", "name": "ann", "rating": None, "club": None}},
    {"type": "player.registered", "data": {"player": "2", "name": "bob", "rating": None, "club": None}},
    {"type": "player.registered", "data": {"player": "3", "name": "cat", "rating": None, "club": None}},
    {"type": "tournament.started", "data": {"field": ["1", "2", "3"], "seeds": ["1", "2", "3"]}},
    {
        "type": "round.paired",
        "data": {
            "round": 1,
            "method": "exact",
            "pairings": [
                {"id": "r1-1", "board": 1, "players": ["1", "2"], "bye": False},
                {"id": "r1-2", "board": 2, "players": ["3"], "bye": True},
            ],
        },
    },
    {"type": "result.reported", "data": {"pairing": "r1-1", "by": "1", "result": {"winner": "1"}}},
    {"type": "result.confirmed", "data": {"pairing": "r1-1", "by": "2", "result": {"winner": "1"}}},
]


def _events(raw):
    return [{"seq": i, "actor": "user:1", **e} for i, e in enumerate(raw, start=1)]


def test_an_old_stream_folds_to_the_same_json_it_always_did():
    state = projection.fold(_events(OLD_STREAM))
    text = json.dumps(state, sort_keys=True)
    # The typed members serialise as the strings they are.
    assert '"status": "final"' in text and '"status": "active"' in text and '"kind": "round"' in text
    assert json.loads(text) == state
    record = state["pairings"]["r1-1"]
    assert record["status"] is PairingStatus.FINAL and record["source"] is ResultSource.PLAYERS
    assert state["pairings"]["r1-2"]["source"] == "bye"
    assert state["rounds"][0]["kind"] == RoundKind.ROUND == "round"


def test_the_cached_state_and_a_fresh_fold_agree_byte_for_byte(alice):
    t = open_tournament(alice, "single_elimination", field(4), start=True)
    while open_pairings(t):  # the semi-finals, then the final
        settle(t, lower_id_wins)
    t.refresh_from_db()
    folded = projection.fold(event_dict(e) for e in stream_events(stream_id=t.stream_id))
    assert json.dumps(folded, sort_keys=True) == json.dumps(t.state, sort_keys=True)
    assert t.status == TournamentStatus.FINISHED == "finished"
    assert Tournament.objects.filter(status="finished", pk=t.pk).exists()


def test_statuses_read_back_from_the_database_compare_equal_to_the_enums(alice):
    players = field(3)
    t = open_tournament(alice, "swiss", players, start=True, rounds=1)
    t.refresh_from_db()
    stored = t.state
    assert all(p["status"] == PlayerStatus.ACTIVE for p in stored["players"].values())
    assert type(next(iter(stored["players"].values()))["status"]) is str
    assert {r["status"] for r in stored["pairings"].values()} <= {*OPEN, PairingStatus.FINAL}
