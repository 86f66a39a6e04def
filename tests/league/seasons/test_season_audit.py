"""Seasons under audit (issue 14): the season verifier in `verify --all`, and a result whose
match is later found disputed retracted by an event, the standings following."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import CommandError, call_command

from league.seasons import selectors, services
from league.seasons.models import Fixture
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify
from tests.audit.helpers import alter_event, rehash_stream


@pytest.fixture
def organiser(make_user, db):
    league = services.league_load_iwdl()
    user = make_user("organiser")
    league.created_by = user
    league.save()
    return user


@pytest.fixture
def played(organiser, django_capture_on_commit_callbacks):
    """A two-club season whose first fixture was drafted, played by bots, verified and recorded."""
    league = services.league_load_iwdl()
    season = services.season_create(
        league=league,
        created_by=organiser,
        start_date=dt.date(2027, 1, 4),
        clubs=list(league.clubs.order_by("slug")[:2]),
    )
    fixture = season.fixtures.order_by("round", "id").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    return season, fixture


def verify_all(capsys, *kinds) -> tuple[str, int]:
    try:
        call_command("verify", all=True, kind=list(kinds))
        code = 0
    except CommandError as exc:
        code = exc.returncode
    return capsys.readouterr().out, code


def forged(data: dict) -> dict:
    """The recorded score turned round (or nudged, if level): always a different result."""
    home, away = data["home_left"], data["away_left"]
    return {**data, "home_left": away, "away_left": home} if home != away else {**data, "home_left": (home + 1) % 6}


def result_event(season) -> Event:
    return Event.objects.get(stream_id=season.stream_id, type="result.recorded")


def test_an_untouched_season_with_a_recorded_result_verifies(played, capsys):
    out, code = verify_all(capsys)
    assert code == 0, out
    assert "0 disputed" in out and "1 season" in out and "1 draft" in out and "1 match" in out


def test_an_altered_season_result_is_reported_at_its_seq_with_kind_season(played, capsys):
    """The issue's attack: a result.recorded score changed with the triggers disabled."""
    season, _ = played
    event = result_event(season)
    alter_event(event, data=forged(event.data))
    out, code = verify_all(capsys)
    assert code == 2
    assert f"[season] {season.stream_id}: DISPUTED at event {event.seq}: " in out
    assert "altered" in out


def test_a_rehashed_season_result_is_caught_against_the_match_it_cites(played, capsys):
    """A forger who recomputes the season's chain still has to agree with the match."""
    season, _ = played
    event = result_event(season)
    alter_event(event, data=forged(event.data))
    rehash_stream(season.stream_id, event.seq)
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert f"[season] {season.stream_id}: DISPUTED at event {event.seq}: The score recorded differs" in out


def test_a_season_result_whose_match_head_was_changed_is_reported(played, capsys):
    season, fixture = played
    Match.objects.filter(pk=fixture.match_id).update(head_hash="f" * 64)
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert f"DISPUTED at event {result_event(season).seq}: The head hash recorded with the result" in out


def test_a_tampered_fixture_row_is_caught_by_a_fresh_fold(played, capsys):
    """The standings are computed from Fixture rows: a row edited in place swaps places in the table."""
    season, fixture = played
    score = forged({"home_left": fixture.home_left, "away_left": fixture.away_left})
    Fixture.objects.filter(pk=fixture.pk).update(home_left=score["home_left"], away_left=score["away_left"])
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert (
        f"[season] {season.stream_id}: DISPUTED at event {result_event(season).seq}: Fixture {fixture.key}'s stored "
    ) in out


def test_a_match_found_disputed_after_its_result_was_recorded_is_retracted(
    played, capsys, django_capture_on_commit_callbacks
):
    season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    before = {row["club"]: row for row in selectors.season_standings(season=season)}
    assert sum(row["played"] for row in before.values()) == 2
    # Found out later: an event of the match was altered; re-verification disputes it.
    target = Event.objects.filter(stream_id=match.stream_id, type="action").order_by("seq")[1]
    alter_event(target, actor="user:999")
    with django_capture_on_commit_callbacks(execute=True):
        assert not match_verify(match_id=match.id).verified

    retraction = Event.objects.get(stream_id=season.stream_id, type="result.retracted")
    assert retraction.data["match"] == str(match.id) and str(target.seq) in retraction.data["reason"]
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.home_left is None
    assert fixture.ruling.startswith("Result retracted: the match was disputed")
    assert all(row["played"] == 0 for row in selectors.season_standings(season=season))
    # The organiser sees the reason on the season page, beside the fixture.
    page = season_page(season)
    assert "Result retracted: the match was disputed" in page
    # Delivered twice, the verdict retracts once; the season itself still verifies.
    with django_capture_on_commit_callbacks(execute=True):
        match_verify(match_id=match.id)
    assert services.result_retract(match_id=match.id) is False
    assert Event.objects.filter(stream_id=season.stream_id, type="result.retracted").count() == 1
    out, code = verify_all(capsys, "season")
    assert code == 0, out
    # The organiser can replay the fixture.
    with django_capture_on_commit_callbacks(execute=True):
        services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and str(fixture.match_id) != str(match.id)


def season_page(season) -> str:
    from django.test import Client
    from django.urls import reverse

    url = reverse("season", args=[season.league.slug, season.number])
    return Client().get(url).content.decode()


def test_a_season_whose_disputed_match_still_counts_is_reported(played, capsys):
    """Without a retraction, a result whose match is disputed must not pass the audit."""
    season, fixture = played
    Match.objects.filter(pk=fixture.match_id).update(verdict=Match.Verdict.DISPUTED)
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert f"DISPUTED at event {result_event(season).seq}: The match behind this result is disputed" in out


def test_one_season_is_verified_by_its_stream_id(played, capsys):
    season, _ = played
    call_command("verify", season.stream_id)
    assert f"[season] {season.stream_id}: verified" in capsys.readouterr().out
    event = result_event(season)
    alter_event(event, data=forged(event.data))
    with pytest.raises(CommandError) as failure:
        call_command("verify", season.stream_id)
    assert failure.value.returncode == 2
    assert f"DISPUTED at event {event.seq}" in capsys.readouterr().out


class _Fact:
    # In the platform's hand unless said: the fold takes a result, or its retraction, from no other.
    def __init__(self, seq, type, data, actor="system"):
        self.seq, self.type, self.data, self.actor = seq, type, data, actor


SCHEDULE = _Fact(
    2,
    "fixtures.scheduled",
    {"fixtures": [{"key": "r1:a:b", "round": 1, "date": "2027-01-04", "home": "a", "away": "b", "division": ""}]},
)
RECORDED = _Fact(
    4, "result.recorded", {"fixture": "r1:a:b", "match": "m1", "home_left": 3, "away_left": 0, "head_hash": "h"}
)
RETRACTED = _Fact(6, "result.retracted", {"fixture": "r1:a:b", "match": "m1", "reason": "the match was disputed"})


def test_a_retraction_reopens_the_fixture_with_its_reason():
    row = services.season_fold([SCHEDULE, RECORDED, RETRACTED])["r1:a:b"]
    assert (row["status"], row["home_left"], row["result_seq"]) == (Fixture.Status.SCHEDULED, None, None)
    assert row["ruling"] == "Result retracted: the match was disputed" and row["match_id"] == "m1"


def test_an_organisers_ruling_made_before_the_retraction_stands():
    corrected = _Fact(
        5, "result.corrected", {"fixture": "r1:a:b", "home_left": 1, "away_left": 2, "reason": "ruled at the hearing"}
    )
    row = services.season_fold([SCHEDULE, RECORDED, corrected, RETRACTED])["r1:a:b"]
    assert (row["status"], row["home_left"], row["away_left"]) == (Fixture.Status.PLAYED, 1, 2)
    assert row["ruling"] == "ruled at the hearing"


def test_a_retraction_of_another_match_than_the_fixtures_leaves_it_alone():
    restarted = _Fact(7, "fixture.started", {"fixture": "r1:a:b", "match": "m2"})
    recorded_again = _Fact(8, "result.recorded", {**RECORDED.data, "match": "m2", "home_left": 0})
    late = _Fact(9, "result.retracted", {**RETRACTED.data})
    row = services.season_fold([SCHEDULE, RECORDED, RETRACTED, restarted, recorded_again, late])["r1:a:b"]
    assert (row["status"], row["match_id"], row["home_left"]) == (Fixture.Status.PLAYED, "m2", 0)


def test_a_start_citing_a_draft_made_for_another_fixture_is_reported(played, capsys):
    season, fixture = played
    started = Event.objects.get(stream_id=season.stream_id, type="fixture.started")
    draft = Match.objects.get(pk=started.data["draft"])
    Match.objects.filter(pk=draft.pk).update(origin={**draft.origin, "fixture": "r9:elsewhere"})
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert (
        f"DISPUTED at event {started.seq}: The fixture's start cites a match or draft that was not made "
        "for this fixture."
    ) in out
