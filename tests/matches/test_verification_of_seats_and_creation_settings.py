"""The verifier holds who sits in each seat, and the settings stored beside the match (seed
commitment, hash scheme, time control, origin), against what match.created recorded. Ratings
credit a result to the Seat rows' users and the season and tournament verifiers trust the
match's origin, so a database edit of either is a dispute at seq 1, as an edited mode or config is."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import services
from matches.autoplay import autoplay_match
from matches.eventstore import NewEvent
from matches.models import Event, Match, Seat
from matches.services import SeatSpec, match_create
from matches.verification import match_verify, matches_check

from .helpers import fresh, play_out

pytestmark = pytest.mark.django_db


def bots_match() -> Match:
    match = autoplay_match(game="dueling-wizards", seats=2)
    assert match_verify(match_id=match.id).verified
    return match


@pytest.fixture
def team_match(alice, bob, client_for) -> Match:
    """Alice and Bob share seat 0 against a bot; Alice plays it to the end."""
    match = match_create(
        game="dueling-wizards", seats=[SeatSpec(user=alice, partners=(bob,)), SeatSpec(bot="random")], created_by=alice
    )
    match = play_out({0: client_for(alice)}, match)
    assert match_verify(match_id=match.id).verified
    return match


def assert_disputed_at_creation(match: Match, *words: str) -> None:
    verdict = match_verify(match_id=match.id)
    assert (verdict.verified, verdict.seq) == (False, 1), verdict.reason
    for word in words:
        assert word in verdict.reason, verdict.reason
    assert fresh(match).verdict == Match.Verdict.DISPUTED


def test_a_seat_handed_from_a_bot_to_another_account_is_disputed(carol):
    match = bots_match()
    Seat.objects.filter(match=match, index=0).update(user=carol, bot="")
    assert_disputed_at_creation(match, "Seat 0", f"user {carol.pk}", "random bot")


def test_a_seat_handed_from_one_player_to_another_is_disputed(team_match, alice, carol):
    match = team_match
    Seat.objects.filter(match=match, index=0).update(user=carol)
    assert_disputed_at_creation(match, "Seat 0", f"user {carol.pk}", f"user {alice.pk}")


def test_a_seats_bot_changed_to_another_is_disputed():
    match = bots_match()
    Seat.objects.filter(match=match, index=1).update(bot="greedy")
    assert_disputed_at_creation(match, "Seat 1", "greedy bot", "random bot")


def test_a_partner_added_to_a_team_seat_is_disputed(team_match, alice, bob, carol):
    match = team_match
    Seat.objects.get(match=match, index=0).partners.add(carol)
    partners = ", ".join(f"user {u.pk}" for u in sorted((bob, carol), key=lambda u: u.pk))
    assert_disputed_at_creation(
        match, "Seat 0", f"user {alice.pk} with partners {partners}", f"user {alice.pk} with partner user {bob.pk}"
    )


def test_a_partner_swapped_for_another_account_is_disputed_naming_the_seat_and_ids_not_names(
    team_match, alice, bob, carol
):
    match = team_match
    Seat.objects.get(match=match, index=0).partners.set([carol])
    assert_disputed_at_creation(
        match, "Seat 0", f"with partner user {carol.pk}", f"was given to user {alice.pk} with partner user {bob.pk}"
    )
    reason = fresh(match).verdict_reason
    assert not any(u.username in reason for u in (alice, bob, carol)), reason


def test_a_partner_and_a_seat_holder_renamed_after_the_match_still_verify(team_match):
    # The created event names partners by username; an account renamed since is the same player.
    seat = Seat.objects.get(match=team_match, index=0)
    for user, name in ((seat.partners.get(), "renamed-partner"), (seat.user, "renamed-holder")):
        user.username = name
        user.save()
    assert match_verify(match_id=team_match.pk).verified


@pytest.fixture
def old_shape_team_match(alice, bob, client_for, monkeypatch) -> Match:
    """A team match whose created event names partners by username only, as every match created
    before the event recorded partner_ids: the event is written as the server wrote it then."""

    def as_written_before(*, type, data=None, **fields):
        if type == "match.created":
            data = {**data, "seats": [{k: v for k, v in s.items() if k != "partner_ids"} for s in data["seats"]]}
        return NewEvent(type=type, data=data, **fields)

    monkeypatch.setattr(services, "NewEvent", as_written_before)
    match = match_create(
        game="dueling-wizards", seats=[SeatSpec(user=alice, partners=(bob,)), SeatSpec(bot="random")], created_by=alice
    )
    monkeypatch.undo()
    created = Event.objects.get(stream_id=match.stream_id, seq=1).data
    assert created["seats"][0]["partners"] == [bob.username] and "partner_ids" not in created["seats"][0]
    return play_out({0: client_for(alice)}, match)


def test_a_match_whose_created_event_names_partners_by_username_only_verifies_as_before(old_shape_team_match, bob):
    match = old_shape_team_match
    assert match_verify(match_id=match.pk).verified
    bob.username = "renamed-since"
    bob.save()
    assert match_verify(match_id=match.pk).verified


def test_a_partner_added_to_a_match_of_the_old_shape_is_still_disputed_by_count(old_shape_team_match, carol):
    match = old_shape_team_match
    Seat.objects.get(match=match, index=0).partners.add(carol)
    assert_disputed_at_creation(match, "Seat 0", "with 2 partners", "with 1 partner")


def test_a_seat_row_removed_is_disputed():
    match = bots_match()
    Seat.objects.filter(match=match, index=1).delete()
    assert_disputed_at_creation(match, "Seat 1", "nobody")


@pytest.mark.parametrize(
    "field, value",
    [
        ("seed_commitment", "0" * 64),
        ("hash_scheme", 1),
        ("time_control", {"kind": "fischer", "base": 300, "increment": 5}),
        ("origin", {"season": "another season", "fixture": 1}),
    ],
)
def test_a_setting_stored_on_the_match_that_differs_from_creation_is_disputed(field, value):
    match = bots_match()
    Match.objects.filter(pk=match.pk).update(**{field: value})
    assert_disputed_at_creation(match, field.replace("_", " "), "recorded at creation")


def test_an_untouched_team_match_and_bots_matches_verify_together_in_one_seat_query(team_match):
    matches = [team_match, bots_match(), bots_match()]
    with CaptureQueriesContext(connection) as queries:
        checked = matches_check(match_ids=[m.pk for m in matches])
    assert all(c.verdict.verified for c in checked.values()), [c.verdict.reason for c in checked.values()]
    # Each statement, where one round trip sent several (matches/verification.py ``_chunk_read``).
    statements = [sql for q in queries.captured_queries for sql in q["sql"].split("; ")]
    seat_reads = [sql for sql in statements if Seat._meta.db_table in sql.split(" WHERE")[0]]
    assert len(seat_reads) == 1, seat_reads
