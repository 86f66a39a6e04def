"""A batch of verdicts is broadcast as each verdict's own broadcast would be (issue 17, P6):
the same frames to the same groups, built from the matches read in bulk."""

from __future__ import annotations

import pytest

from matches import live

from .helpers import fresh, new_duel

pytestmark = pytest.mark.django_db


class RecordingLayer:
    def __init__(self):
        self.sent = []

    async def group_send(self, group, message):
        self.sent.append((group, message))


def test_a_batch_broadcast_sends_each_match_the_frames_its_own_broadcast_sends(make_user, monkeypatch):
    alice, bob, cyd = make_user("alice"), make_user("bob"), make_user("cyd")
    matches = [fresh(new_duel(alice, bob)), fresh(new_duel(bob, cyd)), fresh(new_duel(cyd, alice))]
    # A verdict's frame starts at the head; an older message without "after" carries the window.
    items = [
        {"match_id": str(matches[0].pk), "head_seq": matches[0].state_seq, "after": matches[0].state_seq},
        {"match_id": str(matches[1].pk), "head_seq": matches[1].state_seq},
        {"match_id": "00000000-0000-0000-0000-000000000000", "head_seq": 1, "after": 0},
        {"match_id": str(matches[2].pk), "head_seq": matches[2].state_seq, "after": 0},
    ]
    one_by_one, batch = RecordingLayer(), RecordingLayer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: one_by_one)
    for item in items:
        live.broadcast_match(**item)
    monkeypatch.setattr(live, "get_channel_layer", lambda: batch)
    monkeypatch.setattr(live, "BROADCAST_CHUNK", 2)  # the matches read and sent in chunks
    live.broadcast_matches(items=items)

    assert batch.sent == one_by_one.sent
    assert len(batch.sent) == 3 * 3  # spectators and two seats, each match
    first = dict(batch.sent)[live.group_name(matches[0].pk)]["frame"]
    assert first["events"] == [] and first["after"] == first["head_seq"] == matches[0].state_seq
    assert dict(batch.sent)[live.group_name(matches[2].pk)]["frame"]["events"]
