"""A verification's reads (issue 17, P7): on PostgreSQL the match, its stream's events, its log
lines, its seats with their partners and the heads the transparency log holds for it come back in
one round trip by hand-written statements; what they give must be what the ORM's five queries give,
which the portable path (SQLite, the embedded default) still runs."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import live, selectors, verification
from matches.autoplay import autoplay_match
from matches.checkpoints.services import heads_log
from matches.models import Match
from matches.selectors import FOLLOWUP_FIELDS, match_for_followups
from matches.services import SeatSpec, match_create
from matches.verification import match_verify, matches_check

from .helpers import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def matches(alice, bob, client_for) -> list[Match]:
    """A team match (Alice and Bob share seat 0 against a bot) and a bots' match, both finished,
    verified and in the transparency log."""
    team = match_create(
        game="dueling-wizards", seats=[SeatSpec(user=alice, partners=(bob,)), SeatSpec(bot="random")], created_by=alice
    )
    team = play_out({0: client_for(alice)}, team)
    bots = autoplay_match(game="dueling-wizards", seats=2)
    for match in (team, bots):
        assert match_verify(match_id=match.pk).verified
    heads_log()
    return [Match.objects.get(pk=team.pk), Match.objects.get(pk=bots.pk)]


def orm_read(monkeypatch, ids: list[str]):
    """``_chunk_read`` as it runs where one execute takes one statement: the ORM's queries."""
    with monkeypatch.context() as patch:
        patch.setattr(verification, "statements_together", lambda connection: False)
        return verification._chunk_read(ids)


def test_the_one_round_trip_read_gives_what_the_orms_queries_give(matches, monkeypatch):
    ids = [str(m.pk) for m in matches]
    found, read_at, streams, published = verification._chunk_read(ids)
    orm_found, orm_read_at, orm_streams, orm_published = orm_read(monkeypatch, ids)
    assert read_at is not None and orm_read_at > read_at  # each read's own database time
    for match_id in ids:
        match, orm_match = found[match_id], orm_found[match_id]
        fields = [f.attname for f in Match._meta.concrete_fields]
        assert [getattr(match, f) for f in fields] == [getattr(orm_match, f) for f in fields]
        assert match._state.adding is False and match._state.db == "default"
        assert published[match_id] == orm_published[match_id]
    assert streams == orm_streams
    # The fixture has what each part of the read is there for: a partner, log lines, logged heads.
    team = published[ids[0]]
    assert team.seats[0][2] == (matches[0].seats.get(index=0).partners.get().pk,)
    assert team.lines and team.logged
    assert [r["seq"] for r in streams[matches[0].stream_id]] == list(range(1, matches[0].state_seq + 1))


def test_a_verification_reads_its_match_and_what_it_holds_it_against_in_one_round_trip(matches):
    with CaptureQueriesContext(connection) as queries:
        checked = matches_check(match_ids=[matches[0].pk])
    assert checked[str(matches[0].pk)].verdict.verified
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]


def test_a_missing_match_is_refused_before_anything_is_checked(matches):
    with pytest.raises(Match.DoesNotExist):
        matches_check(match_ids=[matches[0].pk, "00000000-0000-0000-0000-000000000000"])


def test_the_verdict_frames_read_gives_what_the_orms_queries_give(matches, monkeypatch):
    ids = [str(m.pk) for m in matches] + ["00000000-0000-0000-0000-000000000000"]
    read = live._verdicts_read(ids)
    with monkeypatch.context() as patch:
        patch.setattr(live, "statements_together", lambda connection: False)
        assert live._verdicts_read(ids) == read
    rows, seats = read
    assert sorted(rows) == sorted(ids[:2]) and rows[ids[0]]["verdict"] == Match.Verdict.VERIFIED
    assert sorted(seats[ids[0]]) == [0, 1]


def test_the_match_a_verdicts_receivers_read_is_the_one_only_reads(matches, monkeypatch):
    match = matches[0]
    Match.objects.filter(pk=match.pk).update(origin={"tournament": 3, "round": 1})
    built = match_for_followups(match_id=match.pk)
    orm = Match.objects.only(*FOLLOWUP_FIELDS).get(pk=match.pk)
    assert built.get_deferred_fields() == orm.get_deferred_fields()
    assert [getattr(built, f) for f in FOLLOWUP_FIELDS] == [getattr(orm, f) for f in FOLLOWUP_FIELDS]
    assert built.origin == {"tournament": 3, "round": 1} and built.status == Match.Status.FINISHED
    with monkeypatch.context() as patch:
        patch.setattr(selectors, "statements_together", lambda connection: False)
        portable = match_for_followups(match_id=str(match.pk))
    assert [getattr(portable, f) for f in FOLLOWUP_FIELDS] == [getattr(built, f) for f in FOLLOWUP_FIELDS]
    assert match_for_followups(match_id="00000000-0000-0000-0000-000000000000") is None


@pytest.mark.parametrize("together", [True, False], ids=["one round trip", "the ORM's queries"])
def test_a_match_id_that_is_no_uuid_is_refused_as_the_orm_refuses_it(matches, monkeypatch, together):
    if not together:
        monkeypatch.setattr(verification, "statements_together", lambda connection: False)
        monkeypatch.setattr(selectors, "statements_together", lambda connection: False)
    with pytest.raises(ValidationError):
        matches_check(match_ids=[matches[0].pk, "not-a-match-id"])
    with pytest.raises(ValidationError):
        match_for_followups(match_id="not-a-match-id")
