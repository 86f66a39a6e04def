"""At a real table the clocks run while a player owes their own draw (a timed tabletop match).

A private draw is entered only by the player who drew it (test_tabletop_private_draws.py). Nobody's
clock used to run while a random outcome was due, so a player losing a timed tabletop match could
leave their draw unentered and the match never ended: no clock ran out, nobody could claim it.
"""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from audit.chain import event_hash, payload_of
from audit.matchverify import verify_match_stream
from matches import eventstore
from matches.models import Event, Match

from . import test_time_controls
from .helpers import event_count, fresh
from .test_time_controls import claim, match_verdict, timed_duel

pytestmark = pytest.mark.django_db

clock = test_time_controls.clock  # the platform's now, moved on by hand


def enter(client, match, seat, cards):
    match = fresh(match)
    body = {"seat": seat, "chance": {"cards": cards}, "expected_seq": match.state_seq, "event_id": str(uuid.uuid4())}
    return client.post(f"/api/matches/{match.id}/actions/", body, format="json")


def clocks(client, match):
    return client.get(f"/api/matches/{match.id}/").json()["clocks"]


def test_a_player_who_never_enters_their_own_draw_loses_on_time(alice, bob, client_for, clock):
    match = timed_duel(alice, bob, mode=Match.Mode.TABLETOP)
    assert clocks(client_for(bob), match)["running"] == [0]  # alice owes the first draw
    assert enter(client_for(alice), match, 0, ["R9", "PK", "X1"]).status_code == 201
    assert clocks(client_for(alice), match)["running"] == [1]

    clock.advance(59)
    early = claim(client_for(alice), match)
    assert early.status_code == 409 and early.json()["code"] == "time_not_up"

    clock.advance(2)  # bob has sat on his draw for a minute
    before = event_count(match)
    late = enter(client_for(bob), match, 1, ["S2", "S3", "S4"])
    assert late.status_code == 409 and late.json()["code"] == "time_up", late.json()
    assert event_count(match) == before

    won = claim(client_for(alice), match)
    assert won.status_code == 201, won.json()
    assert won.json()["result"]["reason"] == "timeout" and won.json()["result"]["winners"] == [0]
    assert match_verdict(match) == Match.Verdict.VERIFIED


def shifted(records, index, seconds):
    """The stream with record ``index`` and everything after it ``seconds`` later, re-chained."""
    for record in records[index:]:
        at = dt.datetime.fromisoformat(record["recorded_at"]) + dt.timedelta(seconds=seconds)
        record["recorded_at"] = at.isoformat()
    return rechained(records)


def rechained(records):
    prev = "0" * 64
    for record in records:
        record["prev_hash"] = prev
        record["hash"] = prev = event_hash(prev, payload_of(record))
    return records


def test_the_verifier_runs_a_drawers_clock_only_in_matches_recorded_so(alice, bob, client_for, clock):
    match = timed_duel(alice, bob, mode=Match.Mode.TABLETOP)
    assert enter(client_for(alice), match, 0, ["R9", "PK", "X1"]).status_code == 201
    clock.advance(10)
    assert enter(client_for(bob), match, 1, ["S2", "S3", "S4"]).status_code == 201
    clock.advance(61)
    assert claim(client_for(alice), match).status_code == 201
    records = [eventstore.event_record(e) for e in Event.objects.filter(stream_id=match.stream_id).order_by("seq")]
    assert records[0]["data"]["entry_clocks"] is True
    assert verify_match_stream(records).verified

    # Bob's draw (and all that follows) entered 100 s later: past his minute.
    late = next(i for i, r in enumerate(records) if r["type"] == "chance" and r["actor"] == f"user:{bob.pk}")
    forged = shifted([dict(r) for r in records], late, 100)
    verdict = verify_match_stream(forged)
    assert not verdict.verified and verdict.seq == records[late]["seq"]
    assert "after the seat's time had run out" in verdict.reason

    # A match recorded before draws ran clocks (no entry_clocks) is replayed by the rules it was played by.
    old = [dict(r) for r in forged]
    old[0]["data"] = {k: v for k, v in old[0]["data"].items() if k != "entry_clocks"}
    assert verify_match_stream(rechained(old)).verified
