"""A player can resign a match: it ends at once, their seat (in a game of sides, their side) losing
as on time (``Engine.result_on_resign``), and the verifier holds the resignation to the seat's own
person, to a game still going and to the result the engine gives."""

from __future__ import annotations

import uuid

import pytest

from audit.chain import event_hash, payload_of
from audit.matchverify import verify_match_stream
from engines import registry
from engines.chance import event_salt
from matches import eventstore, services
from matches.models import Event, Match, OutboxMessage
from matches.verification import _streams_read, match_verify, verify_records

from .helpers import event_count, fresh, new_duel, play_out

pytestmark = pytest.mark.django_db


def resign(client, match, *, event_id=None, expected_seq=None):
    body = {
        "expected_seq": fresh(match).state_seq if expected_seq is None else expected_seq,
        "event_id": str(event_id or uuid.uuid4()),
    }
    return client.post(f"/api/matches/{match.id}/resign/", body, format="json")


def records_of(match) -> list[dict]:
    return [eventstore.event_record(e) for e in Event.objects.filter(stream_id=match.stream_id).order_by("seq")]


def rechained(records: list[dict], start: int) -> list[dict]:
    """``records`` with the chain recomputed from index ``start`` on, as a forger holding the
    revealed secret would: every salt right for its seq, every hash covering its event."""
    secret = bytes.fromhex(next(r["data"]["seed"] for r in records if r["type"] == "match.finished"))
    prev = records[start - 1]["hash"] if start else "0" * 64
    for record in records[start:]:
        if record["seq"] > 1:
            record["salt"] = event_salt(secret, record["stream"], record["seq"])
        record["prev_hash"] = prev
        record["hash"] = prev = event_hash(prev, payload_of(record))
    return records


def test_a_player_who_resigns_loses_and_the_result_is_verified(
    alice, bob, client_for, django_capture_on_commit_callbacks
):
    match = new_duel(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        response = resign(client_for(alice), match)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "finished"
    assert body["result"] == {
        "placements": [2, 1],
        "scores": [0, 0],
        "winners": [1],
        "reason": "resigned",
        "resigned": 0,
    }
    last_two = Event.objects.filter(stream_id=match.stream_id).order_by("-seq")[:2]
    finished, resigned = list(last_two)
    assert (resigned.type, resigned.data, resigned.actor) == ("match.resigned", {"seat": 0}, f"user:{alice.pk}")
    assert finished.type == "match.finished" and finished.data["result"] == body["result"]
    lines = [line["text"] for line in client_for(bob).get(f"/api/matches/{match.id}/log/").json()["log"]]
    assert lines[-2:] == ["alice resigned.", "Match over. Winner: bob."]
    m = fresh(match)
    assert m.status == Match.Status.FINISHED and m.finished_at is not None
    assert m.verdict == Match.Verdict.VERIFIED, m.verdict_reason


def test_a_wizard_dodgeball_player_who_resigns_loses_for_their_whole_side(alice, bob, carol, make_user):
    dave = make_user("dave")
    users = [alice, bob, carol, dave]
    match = services.match_create(
        game="wizard-dodgeball", seats=[services.SeatSpec(user=u) for u in users], created_by=alice
    )
    state = fresh(match).state
    side_of = {s: i for i, group in enumerate(state["sides"]) for s in group}
    outcome = services.match_resign(match_id=match.id, user=carol, expected_seq=fresh(match).state_seq)
    result = fresh(outcome.match).result
    lost = side_of[2]
    assert result["placements"] == [2 if side_of[s] == lost else 1 for s in range(4)]
    assert result["winners"] == sorted(state["sides"][1 - lost]) and 2 not in result["winners"]
    assert result["reason"] == "resigned" and result["resigned"] == 2 and "timed_out" not in result
    on_time = registry.get(match.game, match.engine_version).result_on_time(state, 2, 4)
    assert {k: result[k] for k in ("placements", "scores", "winners")} == {
        k: on_time[k] for k in ("placements", "scores", "winners")
    }
    assert match_verify(match_id=match.id).verified


def test_a_partner_may_resign_for_the_seat_they_share(alice, bob, carol, client_for):
    match = services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=alice, partners=(carol,)), services.SeatSpec(user=bob)],
        created_by=alice,
    )
    response = resign(client_for(carol), match)
    assert response.status_code == 201, response.json()
    assert response.json()["result"]["resigned"] == 0 and response.json()["result"]["winners"] == [1]
    lines = [line["text"] for line in client_for(bob).get(f"/api/matches/{match.id}/log/").json()["log"]]
    assert "carol resigned for alice & carol." in lines
    assert match_verify(match_id=match.id).verified


def test_a_retried_resignation_is_recorded_once(alice, bob, client_for):
    match = new_duel(alice, bob)
    event_id, seq = uuid.uuid4(), fresh(match).state_seq
    first = resign(client_for(bob), match, event_id=event_id, expected_seq=seq)
    again = resign(client_for(bob), match, event_id=event_id, expected_seq=seq)  # the reply was lost
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["result"] == first.json()["result"]
    assert Event.objects.filter(stream_id=match.stream_id, type="match.resigned").count() == 1
    # The same id from someone else is another command, not a retry.
    other = resign(client_for(alice), match, event_id=event_id, expected_seq=seq)
    assert other.status_code == 409 and other.json()["code"] == "event_id_reused"


def test_a_spectator_or_a_visitor_cannot_resign_and_nothing_is_written(alice, bob, carol, client_for):
    match = new_duel(alice, bob)
    before, outbox = event_count(match), OutboxMessage.objects.count()
    spectator = resign(client_for(carol), match)
    assert spectator.status_code == 403 and spectator.json()["code"] == "not_your_seat"
    visitor = resign(client_for(), match)
    assert visitor.status_code in (401, 403)
    with pytest.raises(services.MatchError) as refused:
        from django.contrib.auth.models import AnonymousUser

        services.match_resign(match_id=match.id, user=AnonymousUser(), expected_seq=fresh(match).state_seq)
    assert refused.value.code == "not_authenticated"
    stale = resign(client_for(alice), match, expected_seq=fresh(match).state_seq - 1)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_seq"
    assert event_count(match) == before and OutboxMessage.objects.count() == outbox
    assert fresh(match).status == Match.Status.LIVE and fresh(match).result is None


def test_a_finished_match_cannot_be_resigned(alice, bob, client_for):
    match = new_duel(alice, bob)
    assert resign(client_for(alice), match).status_code == 201
    before = event_count(match)
    late = resign(client_for(bob), match)
    assert late.status_code == 409 and late.json()["code"] == "match_finished"
    played = play_out({0: client_for(alice), 1: client_for(bob)}, new_duel(alice, bob))
    assert resign(client_for(alice), played).json()["code"] == "match_finished"
    assert event_count(match) == before and fresh(match).result["resigned"] == 0


def test_a_draft_of_more_than_two_coaches_cannot_be_resigned(alice, bob, carol, make_user):
    # A two-coach draft can (tests/league/drafts/test_resigning_a_draft.py): here the other teams
    # are still being drafted.
    draft = services.match_create(
        game="iwdl-draft",
        seats=[services.SeatSpec(user=u) for u in (alice, bob, carol, make_user("dan"))],
        created_by=alice,
        config={"format": "tournament"},
    )
    before = event_count(draft)
    with pytest.raises(services.MatchError) as refused:
        services.match_resign(match_id=draft.id, user=alice, expected_seq=fresh(draft).state_seq)
    assert refused.value.code == "draft_not_resignable" and refused.value.status == 409
    assert event_count(draft) == before


def test_resigning_a_match_against_a_bot_frees_its_place_under_the_cap(alice, client_for, settings):
    settings.MAX_OPEN_BOT_MATCHES_PER_USER = 1
    client = client_for(alice)
    body = {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}]}
    first = client.post("/api/matches/", body, format="json")
    assert first.status_code == 201
    full = client.post("/api/matches/", body, format="json")
    assert full.status_code == 409 and full.json()["code"] == "too_many_bot_matches"
    assert "finish or resign one" in full.json()["detail"]
    assert resign(client, Match.objects.get(pk=first.json()["id"])).status_code == 201
    assert client.post("/api/matches/", body, format="json").status_code == 201


# -- the verifier ---------------------------------------------------------------------------------


def test_the_verifier_disputes_a_resignation_by_someone_else(alice, bob, carol):
    match = new_duel(alice, bob)
    services.match_resign(match_id=match.id, user=alice, expected_seq=fresh(match).state_seq)
    records = records_of(match)
    assert verify_match_stream(records).verified
    at = next(i for i, r in enumerate(records) if r["type"] == "match.resigned")
    for forger in (bob, carol):  # the winner conceding for the loser, or a stranger
        forged = [dict(r) for r in records]
        forged[at]["actor"] = f"user:{forger.pk}"
        verdict = verify_match_stream(rechained(forged, at))
        assert not verdict.verified and verdict.seq == records[at]["seq"]
        assert "not made by the seat's player" in verdict.reason


def test_the_verifier_disputes_a_resignation_after_the_end_and_a_result_not_the_engines(alice, bob, client_for):
    played = play_out({0: client_for(alice), 1: client_for(bob)}, new_duel(alice, bob))
    records = records_of(played)
    assert verify_match_stream(records).verified
    # A resignation slipped in after the game was over, before its close.
    finished = records[-1]
    slipped = {**finished, "type": "match.resigned", "data": {"seat": 0}, "actor": f"user:{alice.pk}"}
    closed = {**finished, "seq": finished["seq"] + 1}
    forged = rechained([*records[:-1], slipped, closed], len(records) - 1)
    verdict = verify_match_stream(forged)
    assert not verdict.verified and verdict.seq == finished["seq"]
    assert "after the game was over" in verdict.reason

    # Appended after the close.
    after = {**finished, "seq": finished["seq"] + 1, "type": "match.resigned", "data": {"seat": 0}}
    after["actor"] = f"user:{alice.pk}"
    verdict = verify_match_stream(rechained([*records, after], len(records)))
    assert not verdict.verified and verdict.seq == finished["seq"]
    assert "closed before its last event" in verdict.reason

    match = new_duel(alice, bob)
    services.match_resign(match_id=match.id, user=alice, expected_seq=fresh(match).state_seq)
    records = records_of(match)
    # The close claims the resigning seat won.
    forged = [dict(r) for r in records]
    forged[-1] = {**forged[-1], "data": {**forged[-1]["data"], "result": {**fresh(match).result, "winners": [0]}}}
    verdict = verify_match_stream(rechained(forged, len(forged) - 1))
    assert not verdict.verified and "differs from the replayed result" in verdict.reason
    # Two resignations: only the close may follow the first.
    second = {**records[-2], "seq": records[-1]["seq"], "data": {"seat": 1}, "actor": f"user:{bob.pk}"}
    closed = {**records[-1], "seq": records[-1]["seq"] + 1}
    verdict = verify_match_stream(rechained([*records[:-1], second, closed], len(records) - 1))
    assert not verdict.verified and verdict.seq == records[-1]["seq"]
    assert "follow a resignation" in verdict.reason


def test_the_platform_holds_a_team_resignation_to_the_seat_rows(alice, bob, carol):
    """A team seat created before partner ids were recorded names its partners only: the stream
    alone cannot tell a partner's resignation from a stranger's, so the platform's seat rows do."""
    match = services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=alice, partners=(carol,)), services.SeatSpec(user=bob)],
        created_by=alice,
    )
    services.match_resign(match_id=match.id, user=carol, expected_seq=fresh(match).state_seq)
    m = fresh(match)
    _streams, published = _streams_read([m])
    records = records_of(m)
    del records[0]["data"]["seats"][0]["partner_ids"]  # as a match created then recorded it
    honest = rechained([dict(r) for r in records], 0)
    assert (
        verify_records(m, honest, published[str(m.pk)]).reason != "The resignation was not made by the seat's player."
    )
    at = next(i for i, r in enumerate(records) if r["type"] == "match.resigned")
    records[at]["actor"] = f"user:{bob.pk}"
    forged = rechained(records, 0)
    assert verify_match_stream(forged).verified  # unknowable from the stream alone
    verdict = verify_records(m, forged, published[str(m.pk)])
    assert not verdict.verified and verdict.seq == records[at]["seq"]
    assert verdict.reason == "The resignation was not made by the seat's player."


# -- what follows a resigned match ----------------------------------------------------------------


def test_a_tournament_pairings_match_resigned_gives_the_tournament_its_result(
    alice, django_capture_on_commit_callbacks
):
    from league.tournaments import services as tournaments
    from matches.commands import AT_HEAD
    from tests.league.tournaments.helpers import field, open_tournament, state

    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    out = tournaments.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["M1"]["match_id"])
    seats = {s.index: s.user for s in match.seats.all()}
    with django_capture_on_commit_callbacks(execute=True):
        services.match_resign(match_id=match.id, user=seats[1], expected_seq=fresh(match).state_seq)
    assert fresh(match).verdict == Match.Verdict.VERIFIED
    record = state(t)["pairings"]["M1"]
    assert record["status"] == "final" and record["source"] == "match"
    assert record["result"] == {"winner": str(seats[0].pk)}


def test_a_resigned_match_is_rated_as_a_loss_for_the_seat_that_resigned(alice, bob, django_capture_on_commit_callbacks):
    from league.ratings.models import Rating

    match = new_duel(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_resign(match_id=match.id, user=alice, expected_seq=fresh(match).state_seq)
    ratings = dict(Rating.objects.filter(game="dueling-wizards").values_list("competitor", "rating"))
    assert ratings[f"user:{bob.pk}"] > ratings[f"user:{alice.pk}"], ratings
