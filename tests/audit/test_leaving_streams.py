"""Streams in which a seat left a game the others played on (the ruling "Leaving", docs/AUDIT.md 6):
the platform's verifier and the offline one (``python -m audit verify``, no Django) accept them, and
dispute every forged variant: a ``plays_on`` the engine version does not play on, one with fewer
than two other seats in the game, one for a seat already out, a resignation by someone who does not
play the seat, a timeout before the seat's time was up, and an end recorded where the rules play on."""

from __future__ import annotations

import pytest

from audit.matchverify import verify_match_stream
from engines import registry
from matches import services
from matches.models import Match
from tests.matches.test_resign import rechained, records_of
from tests.matches.test_time_controls import clock  # noqa: F401  (fixture)

from .test_bundle import offline, signing_key  # noqa: F401  (fixture)
from .test_resigned_match_bundle import exported_verifies_offline

pytestmark = pytest.mark.django_db


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def three_wizards(users, **kwargs) -> Match:
    return services.match_create(
        game="dueling-wizards", seats=[services.SeatSpec(user=u) for u in users], created_by=users[0], **kwargs
    )


@pytest.fixture
def left_then_resigned(alice, bob, carol):
    """Bob leaves a duel of three (the others play on); then carol resigns, which ends it."""
    match = three_wizards([alice, bob, carol])
    services.match_resign(match_id=match.id, user=bob, expected_seq=fresh(match).state_seq)
    services.match_resign(match_id=match.id, user=carol, expected_seq=fresh(match).state_seq)
    match = fresh(match)
    assert match.status == Match.Status.FINISHED and match.result["placements"] == [1, 3, 2]
    return match, records_of(match)


def at_type(records, type_, nth=0):
    return [i for i, r in enumerate(records) if r["type"] == type_][nth]


def disputed_at(records, at, words):
    verdict = verify_match_stream(rechained(records, at))
    assert not verdict.verified, "a forged stream verified"
    assert verdict.seq == records[at]["seq"], verdict.reason
    assert words in verdict.reason, verdict.reason


def test_a_stream_where_a_seat_left_and_the_others_played_on_verifies_here_and_offline(left_then_resigned, tmp_path):
    match, records = left_then_resigned
    assert verify_match_stream(records).verified
    exported_verifies_offline(match, tmp_path)


def test_a_plays_on_recorded_with_only_one_other_seat_in_the_game_is_disputed(left_then_resigned):
    _, records = left_then_resigned
    at = at_type(records, "match.resigned", 1)
    records[at] = {**records[at], "data": {**records[at]["data"], "plays_on": True}}
    disputed_at(records, at, "fewer than two other seats")


def test_an_end_recorded_where_the_rules_play_on_is_disputed(left_then_resigned):
    match, records = left_then_resigned
    at = at_type(records, "match.resigned")
    engine = registry.get("dueling-wizards", "3")
    before = engine.result_on_resign(match.state, 1, 3)  # any result: the end itself is the forgery
    forged = records[:at] + [
        {**records[at], "data": {"seat": 1}},
        {**records[-1], "seq": records[at]["seq"] + 1, "data": {**records[-1]["data"], "result": before}},
    ]
    disputed_at(forged, at, "rules play on")


def test_a_plays_on_under_a_version_that_ends_the_match_is_disputed(left_then_resigned):
    _, records = left_then_resigned
    records[0] = {**records[0], "data": {**records[0]["data"], "engine_version": "2"}}
    records = rechained(records, 0)
    at = at_type(records, "match.resigned")
    verdict = verify_match_stream(records)
    assert not verdict.verified and verdict.seq == records[at]["seq"]
    assert "ends the match when a seat leaves" in verdict.reason


def test_a_plays_on_for_a_seat_already_out_is_disputed(left_then_resigned, bob):
    _, records = left_then_resigned
    at = at_type(records, "match.resigned", 1)
    records[at] = {**records[at], "data": {"seat": 1, "plays_on": True}, "actor": f"user:{bob.pk}"}
    disputed_at(records, at, "already out of the game")


def test_a_plays_on_resignation_by_someone_not_playing_the_seat_is_disputed(left_then_resigned, alice):
    _, records = left_then_resigned
    at = at_type(records, "match.resigned")
    records[at] = {**records[at], "actor": f"user:{alice.pk}"}
    disputed_at(records, at, "not made by the seat's player")


@pytest.fixture
def timed_out_then_resigned(alice, bob, carol, clock):  # noqa: F811
    """Carol's minute runs out in a timed duel of three: the claim plays on; then alice resigns."""
    match = three_wizards([alice, bob, carol], time_control={"kind": "fischer", "base": 60, "increment": 0})
    card = match.state["hands"][1][0]
    services.match_act(
        match_id=match.id, user=bob, seat=1, action={"type": "defend", "card": card}, expected_seq=match.state_seq
    )
    clock.advance(61)
    services.match_claim_timeout(match_id=match.id, user=alice, expected_seq=fresh(match).state_seq)
    assert fresh(match).status == Match.Status.LIVE
    clock.advance(5)
    services.match_resign(match_id=match.id, user=alice, expected_seq=fresh(match).state_seq)
    match = fresh(match)
    assert match.result["placements"] == [2, 1, 3]
    return match, records_of(match)


def test_a_claim_on_time_that_played_on_verifies_here_and_offline(timed_out_then_resigned, tmp_path):
    match, records = timed_out_then_resigned
    assert records[at_type(records, "match.timeout")]["data"] == {"seat": 2, "plays_on": True}
    assert verify_match_stream(records).verified
    exported_verifies_offline(match, tmp_path)


def test_a_plays_on_timeout_of_a_seat_whose_time_was_not_up_is_disputed(timed_out_then_resigned):
    _, records = timed_out_then_resigned
    at = at_type(records, "match.timeout")
    records[at] = {**records[at], "data": {"seat": 1, "plays_on": True}}
    disputed_at(records, at, "before the seat's time was up")


def test_a_loss_on_time_recorded_as_the_end_where_the_rules_play_on_is_disputed(timed_out_then_resigned):
    match, records = timed_out_then_resigned
    at = at_type(records, "match.timeout")
    engine = registry.get("dueling-wizards", "3")
    ended = engine.result_on_time(match.state, 2, 3)  # any result: the end itself is the forgery
    forged = records[:at] + [
        {**records[at], "data": {"seat": 2}},
        {**records[-1], "seq": records[at]["seq"] + 1, "data": {**records[-1]["data"], "result": ended}},
    ]
    disputed_at(forged, at, "rules play on")


def test_an_outcome_entered_at_a_real_table_by_a_seat_that_had_left_is_disputed(alice, bob, carol, client_for):
    # Whoever enters a public roll at a real table chooses it; a seat that left plays no more, so
    # the server refuses its entry (409 seat_out_of_game), and a stream claiming one is forged.
    import uuid

    from engines.base import CHANCE

    users = [alice, bob, carol]
    match = services.match_create(
        game="spellcaster", seats=[services.SeatSpec(user=u) for u in users], created_by=alice, mode=Match.Mode.TABLETOP
    )
    services.match_resign(match_id=match.id, user=bob, expected_seq=fresh(match).state_seq)
    engine = registry.get("spellcaster")
    for seat in (0, 2):
        m = fresh(match)
        action = engine.legal_actions(m.state, seat)[0]
        services.match_act(match_id=m.id, user=users[seat], seat=seat, action=action, expected_seq=m.state_seq)
    m = fresh(match)
    assert engine.to_move(m.state) == [CHANCE]
    body = {"seat": 0, "chance": [1], "expected_seq": m.state_seq, "event_id": str(uuid.uuid4())}
    assert client_for(alice).post(f"/api/matches/{m.id}/actions/", body, format="json").status_code == 201
    services.match_resign(match_id=match.id, user=carol, expected_seq=fresh(match).state_seq)
    match = fresh(match)
    assert match.status == Match.Status.FINISHED
    records = records_of(match)
    assert verify_match_stream(records).verified
    at = at_type(records, "chance")
    records[at] = {**records[at], "actor": f"user:{bob.pk}"}
    disputed_at(records, at, "had left the game")
