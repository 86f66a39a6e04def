"""League-side event streams (seasons, tournaments): append facts, read them back.

Matches have their own services; everything else the league records (a season's fixtures,
a tournament's registrations, pairings, results and rulings) is a plain stream of facts in
the same event store, with the same guarantees: per-stream seq, optimistic concurrency by
``expected_seq``, idempotent ``event_id``, hash chain, immutability. Projections (fixtures,
standings, brackets) are rebuilt from these events and nothing else.
"""

from __future__ import annotations

import uuid
from typing import Any

from channels.layers import get_channel_layer

from matches import eventstore
from matches.commands import Appender, command_run
from matches.eventstore import NewEvent
from matches.live import send_messages
from matches.models import Event
from matches.outbox import handler


def stream_group(stream_id: str) -> str:
    # Channels group names allow only ASCII letters, digits, hyphens, underscores and periods.
    return "stream." + stream_id.replace(":", ".")


def stream_append(
    *,
    stream_id: str,
    kind: str,
    type: str,
    data: dict[str, Any],
    actor: str,
    expected_seq: int | object,
    event_id: uuid.UUID | None = None,
) -> tuple[Event, bool]:
    """Append one fact through the command runner (matches.commands); returns (event, created).
    ``expected_seq``: the head the fact was decided at; ``AT_HEAD`` only for the platform's own
    facts that do not depend on what came before (a verified result arriving, which carries an
    ``event_id`` derived from what it records, so it lands once)."""

    def execute(_subject, appender: Appender) -> Event:
        [event] = appender.append([NewEvent(type=type, data=data, actor=actor)])
        # Delivered after the commit, and again by the sweeper if Redis is down (matches.outbox).
        stream_followups(appender)
        return event

    done = command_run(
        stream_id=stream_id,
        stream_kind=kind,
        expected_seq=expected_seq,
        event_id=event_id,
        execute=execute,
        same=lambda existing: existing.type == type and existing.data == data,
    )
    return (done.value if done.created else done.events[0]), done.created


def stream_followups(appender: Appender) -> None:
    """What follows a league stream's command: one broadcast of the new head."""
    if appender.events:
        appender.outbox(
            "league.stream_broadcast", {"stream_id": appender.stream.id, "head_seq": appender.events[-1].seq}
        )


def stream_events(*, stream_id: str, after: int = 0) -> list[Event]:
    return eventstore.stream_events(stream_id=stream_id, after=after)


@handler(
    "league.stream_broadcast",
    if_given_up="its pages miss one live update; the next one carries the head and a page read again shows it",
)
def _broadcast_message(payload: dict[str, Any]) -> None:
    broadcast(stream_id=payload["stream_id"], head_seq=payload["head_seq"])


def broadcast(*, stream_id: str, head_seq: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        # The match broadcasts' sender, bounded by LIVE_BROADCAST_TIMEOUT: a Redis that takes the
        # connection and never answers held the request that committed (a registration, a
        # result) for the layer's socket timeout (30 s), and the sweeper as long per message.
        # Past the bound the message stays pending and the sweeper sends it later.
        send_messages(layer, [(stream_group(stream_id), {"type": "stream.update", "head_seq": head_seq})])
