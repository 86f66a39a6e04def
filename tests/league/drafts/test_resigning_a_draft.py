"""A coach may resign a two-coach draft (POST /api/matches/{id}/resign/, ``match_resign``): the draft
ends at once, that coach forfeiting it, and no match is made from the unfinished picks. A draft of
more coaches stays refused (the other teams are still being drafted). The verifier holds a draft's
resignation to the rules it holds a match's to (docs/AUDIT.md 6.2)."""

from __future__ import annotations

import uuid

import pytest

from audit.matchverify import verify_match_stream
from engines import registry
from league.drafts import services as draft_services
from league.drafts.invitations import draft_open
from league.drafts.models import Draft
from matches import eventstore
from matches import services as match_services
from matches.models import Event, Match, OutboxMessage
from matches.services import SeatSpec
from tests.matches.helpers import event_count, fresh
from tests.matches.test_resign import rechained

pytestmark = pytest.mark.django_db


def open_draft(*coaches, fmt="schoolyard") -> Draft:
    return draft_services.draft_create(
        seats=[SeatSpec(user=c) for c in coaches], created_by=coaches[0], config={"format": fmt}
    )


def resign(client, draft_match, *, event_id=None):
    body = {"expected_seq": fresh(draft_match).state_seq, "event_id": str(event_id or uuid.uuid4())}
    return client.post(f"/api/matches/{draft_match.id}/resign/", body, format="json")


def records_of(match) -> list[dict]:
    return [eventstore.event_record(e) for e in Event.objects.filter(stream_id=match.stream_id).order_by("seq")]


def test_a_coach_who_resigns_a_draft_forfeits_it_and_no_match_is_made_from_the_picks(
    alice, bob, client_for, django_capture_on_commit_callbacks
):
    draft = open_draft(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):  # the hand-off and the verification follow
        answer = resign(client_for(bob), draft.draft_match)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["status"] == "finished"
    ended = fresh(draft.draft_match)
    assert ended.result == {
        "placements": [1, 2],
        "scores": [0, 0],
        "winners": [0],
        "reason": "resigned",
        "resigned": 1,
    }
    assert ended.verdict == Match.Verdict.VERIFIED
    assert Draft.objects.get(pk=draft.pk).match is None
    assert not Match.objects.filter(origin__draft=str(ended.id)).exists()
    assert draft_services.draft_hand_off(draft_match_id=ended.id) is None  # a retried hand-off too
    # The finished draft's follow-ups were delivered: none is left failing, to be retried for ever.
    assert not OutboxMessage.objects.filter(topic="match.finished", delivered_at__isnull=True).exists()


def test_resigning_a_draft_again_with_its_event_id_answers_what_the_first_did(alice, bob, client_for):
    draft = open_draft(alice, bob)
    eid = uuid.uuid4()
    assert resign(client_for(alice), draft.draft_match, event_id=eid).status_code == 201
    before = event_count(draft.draft_match)
    body = {"expected_seq": 0, "event_id": str(eid)}
    again = client_for(alice).post(f"/api/matches/{draft.draft_match_id}/resign/", body, format="json")
    assert again.status_code == 200 and again.json()["result"]["resigned"] == 0
    assert event_count(draft.draft_match) == before


def test_only_a_coach_of_the_draft_may_resign_it_and_a_finished_one_not_at_all(alice, bob, carol, client_for):
    draft = open_draft(alice, bob)
    before = event_count(draft.draft_match)
    stranger = resign(client_for(carol), draft.draft_match)
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_your_seat")
    assert event_count(draft.draft_match) == before
    assert resign(client_for(alice), draft.draft_match).status_code == 201
    late = resign(client_for(bob), draft.draft_match)
    assert (late.status_code, late.json()["code"]) == (409, "match_finished")


def test_a_draft_of_four_coaches_cannot_be_resigned_and_nothing_is_written(alice, bob, carol, make_user):
    draft = open_draft(alice, bob, carol, make_user("dan"), fmt="tournament")
    before = event_count(draft.draft_match)
    with pytest.raises(match_services.MatchError) as refused:
        match_services.match_resign(
            match_id=draft.draft_match_id, user=carol, expected_seq=fresh(draft.draft_match).state_seq
        )
    assert refused.value.code == "draft_not_resignable" and refused.value.status == 409
    assert "more than two coaches" in refused.value.message
    assert event_count(draft.draft_match) == before and fresh(draft.draft_match).status == Match.Status.LIVE


def test_the_verifier_checks_a_drafts_resignation_as_a_matchs(alice, bob):
    draft = open_draft(alice, bob)
    match_services.match_resign(
        match_id=draft.draft_match_id, user=alice, expected_seq=fresh(draft.draft_match).state_seq
    )
    records = records_of(draft.draft_match)
    assert verify_match_stream(records).verified
    at = next(i for i, r in enumerate(records) if r["type"] == "match.resigned")
    forged = [dict(r) for r in records]
    forged[at]["actor"] = f"user:{bob.pk}"  # the other coach conceding for alice
    verdict = verify_match_stream(rechained(forged, at))
    assert not verdict.verified and "not made by the seat's player" in verdict.reason


def test_the_verifier_disputes_a_resignation_of_a_draft_of_four_coaches(alice, bob, carol, make_user):
    # The platform refuses it (above); a stream that records one anyway was not written by it.
    draft = open_draft(alice, bob, carol, make_user("dan"), fmt="tournament")
    records = records_of(draft.draft_match)
    secret = fresh(draft.draft_match).seed_hex
    engine = registry.get("iwdl-draft")
    state = fresh(draft.draft_match).state
    head = records[-1]
    resigned = {**head, "seq": head["seq"] + 1, "type": "match.resigned", "data": {"seat": 0}}
    resigned["actor"] = f"user:{alice.pk}"
    result = engine.result_on_resign(state, 0, 4)
    finished = {**head, "seq": head["seq"] + 2, "type": "match.finished", "actor": "server"}
    finished["data"] = {"result": result, "seed": secret}
    forged = rechained([*records, resigned, finished], len(records))
    verdict = verify_match_stream(forged)
    assert not verdict.verified and verdict.seq == resigned["seq"]
    assert "more than two coaches" in verdict.reason


def test_resigning_a_draft_against_a_bot_frees_its_place_under_the_cap(alice, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    seats = [SeatSpec(user=alice), SeatSpec(bot="auto")]
    draft, _ = draft_open(seats=seats, created_by=alice, config={"format": "schoolyard"})
    with pytest.raises(match_services.MatchError) as full:
        draft_open(seats=seats, created_by=alice, config={"format": "schoolyard"})
    assert full.value.code == "too_many_bot_matches" and "finish or resign one" in full.value.message
    match_services.match_resign(
        match_id=draft.draft_match_id, user=alice, expected_seq=fresh(draft.draft_match).state_seq
    )
    again, created = draft_open(seats=seats, created_by=alice, config={"format": "schoolyard"})
    assert created and again.pk != draft.pk


def test_the_draft_room_offers_its_coaches_a_resign_button_and_nobody_else(alice, bob, carol, make_user):
    from django.test import Client

    def page(user, draft):
        browser = Client()
        browser.force_login(user)
        return browser.get(f"/drafts/{draft.draft_match_id}/").content.decode()

    draft = open_draft(alice, bob)
    assert 'data-testid="resign-start"' in page(alice, draft)
    assert 'data-testid="resign"' not in page(carol, draft)  # a spectator
    four = open_draft(carol, make_user("dan"), make_user("eve"), make_user("fay"), fmt="tournament")
    assert 'data-testid="resign"' not in page(carol, four)
    match_services.match_resign(
        match_id=draft.draft_match_id, user=bob, expected_seq=fresh(draft.draft_match).state_seq
    )
    assert 'aria-label="Resign the draft" hidden' in page(alice, draft)  # over: the button is gone


def test_a_bare_draft_stream_without_a_room_can_be_resigned_and_nothing_follows_it(
    alice, client_for, django_capture_on_commit_callbacks
):
    # The match API refuses a bare draft now (draft_needs_a_room); one made before that, or by the
    # services directly, still ends cleanly.
    draft_match = match_services.match_create(
        game="iwdl-draft",
        seats=[SeatSpec(user=alice), SeatSpec(bot="auto")],
        created_by=alice,
        config={"format": "schoolyard"},
    )
    assert not Draft.objects.filter(draft_match=draft_match).exists()  # no room, so nothing to hand off
    with django_capture_on_commit_callbacks(execute=True):
        answer = resign(client_for(alice), draft_match)
    assert answer.status_code == 201, answer.json()
    ended = fresh(draft_match)
    assert ended.result["resigned"] == 0 and ended.verdict == Match.Verdict.VERIFIED
    assert not Match.objects.filter(origin__draft=str(ended.id)).exists()
    assert not OutboxMessage.objects.filter(topic="match.finished", delivered_at__isnull=True).exists()
