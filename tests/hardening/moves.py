"""Moves as a player sends them, shared by the hardening tests that cut connections."""

from __future__ import annotations

import uuid

from tests.matches.helpers import fresh


def next_move(clients, match) -> tuple:
    """The first legal move of the first seat to move, as its player sends it (with a fresh event_id)."""
    from engines import registry

    match = fresh(match)
    engine = registry.get(match.game)
    seat = next(seat for seat in range(len(clients)) if engine.legal_actions(match.state, seat))
    return clients[seat], {
        "seat": seat,
        "action": engine.legal_actions(match.state, seat)[0],
        "expected_seq": match.state_seq,
        "event_id": str(uuid.uuid4()),
    }


def send(match, command):
    client, body = command
    return client.post(f"/api/matches/{match.id}/actions/", body, format="json")
