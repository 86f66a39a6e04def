"""What the benchmarks that play duels through the REST API share: the body of a seat's next POST."""

from __future__ import annotations

import uuid


def first_legal_action_body(engine, match, seat: int) -> dict:
    """The body of ``seat``'s POST of its first legal action in ``match``, at the match's head."""
    return {
        "seat": seat,
        "action": engine.legal_actions(match.state, seat)[0],
        "expected_seq": match.state_seq,
        "event_id": str(uuid.uuid4()),
    }
