"""matches.replay: stored stream events become engine events in one place."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from engines import registry
from engines.base import IllegalAction, replay
from matches import eventstore
from matches.analysis.models import MatchAnalysis, Sandbox
from matches.autoplay import autoplay_match
from matches.replay import engine_event, engine_events
from matches.selectors import engine_for, match_state_at
from matches.services import match_act_on_behalf

from .helpers import fresh, new_duel

ROOT = Path(__file__).resolve().parents[2]


def row(type_, data):
    return SimpleNamespace(type=type_, data=data)


def test_an_action_and_a_chance_become_the_events_their_engine_applies():
    assert engine_event("action", {"seat": 1, "action": {"type": "pass"}, "at": 5}) == {
        "kind": "action",
        "seat": 1,
        "action": {"type": "pass"},
    }
    assert engine_event("chance", {"spec": {"kind": "dice"}, "outcome": [4, 2]}) == {
        "kind": "chance",
        "outcome": [4, 2],
    }


def test_the_streams_own_bookkeeping_is_no_engine_event():
    assert engine_event("match.created", {"game": "dueling-wizards"}) is None
    assert engine_event("match.finished", {"result": {}}) is None
    rows = [
        row("match.created", {"game": "dueling-wizards"}),
        row("chance", {"outcome": [3]}),
        row("action", {"seat": 0, "action": {"type": "x"}}),
        row("match.finished", {}),
    ]
    assert engine_events(rows) == [
        {"kind": "chance", "outcome": [3]},
        {"kind": "action", "seat": 0, "action": {"type": "x"}},
    ]


def test_a_played_streams_engine_events_replay_to_the_state_the_match_keeps(alice):
    match = new_duel(alice, bots=["random"])
    engine = registry.get(match.game, match.engine_version)
    for _ in range(6):
        match = fresh(match)
        to_move = engine.to_move(match.state)
        if 0 not in to_move:
            break
        action = engine.legal_actions(match.state, 0)[0]
        match_act_on_behalf(match_id=match.id, seat=0, action=action, expected_seq=match.state_seq, actor="test")
    match = fresh(match)
    stored = eventstore.stream_events(stream_id=match.stream_id)
    assert {e.type for e in stored} >= {"match.created", "action", "chance"}
    assert replay(engine, match.config, match.seats.count(), engine_events(stored)) == match.state


def test_nothing_else_in_matches_or_league_converts_stored_events_itself():
    # audit.matchverify.engine_event is the rule; matches.replay is the only reader of it above audit.
    users = []
    for package in ("matches", "league"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == "audit.matchverify":
                    if any(alias.name == "engine_event" for alias in node.names):
                        users.append(str(path.relative_to(ROOT)))
    assert users == ["matches/replay.py"]


def test_an_event_refused_mid_fold_leaves_every_replaying_caller_refusing_with_nothing_kept(
    client_for, alice, monkeypatch
):
    finished = autoplay_match(game="dueling-wizards", seats=2)
    engine = engine_for(finished)
    stored = eventstore.stream_events(stream_id=finished.stream_id)
    refused = engine_events(stored)[4]
    apply_in_place = engine.apply_in_place

    def half_then_refuse(state, event):
        if event == refused:
            # An in-place step may have written into the state before its refusal.
            state["half_changed"] = True
            raise IllegalAction("Not in these rules.", code="illegal_action")
        return apply_in_place(state, event)

    monkeypatch.setattr(engine, "apply_in_place", half_then_refuse)
    with pytest.raises(IllegalAction):
        match_state_at(match=finished, seat=None, at=stored[-1].seq)
    response = client_for().get(f"/api/matches/{finished.id}/analysis/")
    assert response.status_code == 409 and response.json()["code"] == "analysis_failed"
    assert not MatchAnalysis.objects.exists()
    response = client_for(alice).post(f"/api/matches/{finished.id}/whatif/", {"at": 8}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "analysis_failed"
    assert not Sandbox.objects.exists()
    assert "half_changed" not in fresh(finished).state
