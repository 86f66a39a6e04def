"""At a real table, a private draw is entered by the player who drew it (issue 9, item 2).

Dueling Wizards deals by private draws: each seat draws three spells that only it may see. In a
tabletop match the drawer enters the cards they drew by naming them; anyone else is refused with
a stable code and nothing is written, and the other seats are never served the cards.
"""

from __future__ import annotations

import uuid

import pytest

from audit.chain import event_hash, payload_of
from audit.matchverify import verify_match_stream
from engines.chance import event_salt
from matches import eventstore
from matches.models import Event, Match

from .helpers import event_count, fresh, new_duel

pytestmark = pytest.mark.django_db


def enter(client, match, seat, outcome, *, expected_seq=None):
    match = fresh(match)
    return client.post(
        f"/api/matches/{match.id}/actions/",
        {
            "seat": seat,
            "chance": outcome,
            "expected_seq": match.state_seq if expected_seq is None else expected_seq,
            "event_id": str(uuid.uuid4()),
        },
        format="json",
    )


def test_only_the_drawer_may_enter_a_private_draw_and_a_refusal_writes_nothing(alice, bob, client_for):
    match = new_duel(alice, bob, mode=Match.Mode.TABLETOP)
    summary = client_for(bob).get(f"/api/matches/{match.id}/").json()
    assert summary["chance"]["kind"] == "draw" and summary["chance"]["visible_to"] == [0]
    assert summary["chance_entered_by"] == [0]

    before = event_count(match)
    for outcome in ({"cards": ["R9", "PK", "X1"]}, [0, 1, 2]):
        refused = enter(client_for(bob), match, 1, outcome)
        assert refused.status_code == 403 and refused.json()["code"] == "outcome_not_yours"
        assert refused.json()["detail"]
    assert event_count(match) == before

    taken = enter(client_for(alice), match, 0, {"cards": ["R9", "PK", "X1"]})
    assert taken.status_code == 201, taken.json()
    assert fresh(match).state["hands"][0] == ["R9", "PK", "X1"]
    # Bob and a spectator see that alice drew three, never which three, nor the salt.
    for client in (client_for(bob), client_for()):
        served = client.get(f"/api/matches/{match.id}/events/").json()["events"][-1]
        assert served["type"] == "chance" and served["data"]["outcome"] is None and served["salt"] is None
        assert "R9" not in str(served)
        assert client.get(f"/api/matches/{match.id}/state/").json()["view"]["players"][0]["hand"] is None

    # Now bob draws: alice may not enter it for him.
    summary = client_for(alice).get(f"/api/matches/{match.id}/").json()
    assert summary["chance_entered_by"] == [1]
    assert enter(client_for(alice), match, 0, {"cards": ["S2", "S3", "S4"]}).json()["code"] == "outcome_not_yours"
    assert enter(client_for(bob), match, 1, {"cards": ["S2", "S3", "S4"]}).status_code == 201


def test_a_card_that_is_not_in_the_pool_cannot_be_entered(alice, bob, client_for):
    match = new_duel(alice, bob, mode=Match.Mode.TABLETOP)
    assert enter(client_for(alice), match, 0, {"cards": ["R9", "PK", "X1"]}).status_code == 201
    before = event_count(match)
    again = enter(client_for(bob), match, 1, {"cards": ["R9", "S3", "S4"]})  # alice holds the 9 of Rock
    assert again.status_code == 422 and again.json()["code"] == "card_not_in_pool"
    nonsense = enter(client_for(bob), match, 1, {"cards": "R9"})
    assert nonsense.status_code == 422 and nonsense.json()["code"] == "bad_chance_outcome"
    assert event_count(match) == before


def test_a_retried_entry_by_cards_returns_the_stored_event(alice, bob, client_for):
    match = new_duel(alice, bob, mode=Match.Mode.TABLETOP)
    body = {"seat": 0, "chance": {"cards": ["R9", "PK", "X1"]}, "expected_seq": 1, "event_id": str(uuid.uuid4())}
    first = client_for(alice).post(f"/api/matches/{match.id}/actions/", body, format="json")
    retry = client_for(alice).post(f"/api/matches/{match.id}/actions/", body, format="json")
    assert first.status_code == 201 and retry.status_code in (200, 201)
    assert event_count(match) == 2
    other = {**body, "chance": {"cards": ["R8", "PK", "X1"]}}
    reused = client_for(alice).post(f"/api/matches/{match.id}/actions/", other, format="json")
    assert reused.status_code == 409 and reused.json()["code"] == "event_id_reused"


def test_the_verifier_disputes_a_draw_entered_by_another_seat(alice, bob, client_for):
    match = new_duel(alice, bob, mode=Match.Mode.TABLETOP)
    assert enter(client_for(alice), match, 0, {"cards": ["R9", "PK", "X1"]}).status_code == 201
    records = [eventstore.event_record(e) for e in Event.objects.filter(stream_id=match.stream_id).order_by("seq")]
    records.append(
        {  # the match closes, revealing its secret, so every salt can be recomputed
            "stream": match.stream_id,
            "seq": 3,
            "event_id": str(uuid.uuid4()),
            "type": "match.finished",
            "data": {"result": None, "seed": match.seed_hex},
            "actor": "server",
            "recorded_at": records[-1]["recorded_at"],
            "salt": None,
            "prev_hash": None,
            "hash": None,
        }
    )
    # A forger with the secret rewrites who entered alice's draw and re-chains everything after it.
    records[1]["actor"] = f"user:{bob.pk}"
    secret = bytes.fromhex(match.seed_hex)
    prev = records[0]["hash"]
    for record in records[1:]:
        record["salt"] = event_salt(secret, record["stream"], record["seq"])
        record["prev_hash"] = prev
        record["hash"] = prev = event_hash(prev, payload_of(record))
    verdict = verify_match_stream(records)
    assert not verdict.verified and verdict.seq == 2
    assert "not allowed to see it" in verdict.reason
