"""Who writes a season's result facts. Every ``result.recorded``, ``result.unfinished`` and
``result.retracted`` is the platform's (actor ``system``): a verified match's result arriving
(``_result_fact``), and its retraction when the match is found disputed (``result_retract``). No
organiser writes one: an organiser's rulings are ``result.corrected`` and ``fixture.walkover``. So
the season verifier disputes one in any other hand, and the fold does not act on it (as a walkover
citing a draft in another hand than the platform's is not taken as the platform's)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest

from league.seasons import services
from league.seasons.models import Fixture, Season
from league.seasons.verification import verify_season
from matches.commands import AT_HEAD
from matches.models import Event, Match

from .test_season_audit import organiser, played  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def forged(season, type: str, data: dict, actor: str) -> int:
    """A fact appended in another hand than the platform's (as a rewritten stream would hold it)."""
    services._append(season, type, data, actor, expected_seq=AT_HEAD, event_id=uuid.uuid4())
    return Event.objects.filter(stream_id=season.stream_id).order_by("-seq").values_list("seq", flat=True)[0]


def verdict(season):
    return verify_season(Season.objects.get(pk=season.pk).stream)


def test_a_result_recorded_by_an_organiser_is_disputed_and_does_not_count(played, organiser):  # noqa: F811
    season, fixture = played
    other = season.fixtures.exclude(pk=fixture.pk).get()
    match = Match.objects.get(pk=fixture.match_id)
    home, away = services._fixture_score(match)
    # Everything about it but its hand is a true result (the fixture's own verified match, its head,
    # its score): only the hand says that it is not the platform's.
    data = {"fixture": other.key, "match": str(match.id), "home_left": home, "away_left": away}
    seq = forged(season, "result.recorded", {**data, "head_hash": match.head_hash}, f"user:{organiser.pk}")
    other.refresh_from_db()
    assert other.status == Fixture.Status.SCHEDULED and other.result_seq is None
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == f"A recorded result is the platform's to record, but this one is by user:{organiser.pk}."


def test_a_retraction_by_an_organiser_is_disputed_and_does_not_reopen_the_fixture(played, organiser):  # noqa: F811
    season, fixture = played
    data = {"fixture": fixture.key, "match": str(fixture.match_id), "reason": "I say so"}
    seq = forged(season, "result.retracted", data, f"user:{organiser.pk}")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and fixture.ruling == ""
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == f"A retraction is the platform's to record, but this one is by user:{organiser.pk}."


def test_an_unfinished_result_by_an_organiser_is_disputed_and_does_not_reopen_the_fixture(
    played,  # noqa: F811
    organiser,  # noqa: F811
):
    season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    data = {"fixture": fixture.key, "match": str(match.id), "reason": "Too many turns.", "head_hash": match.head_hash}
    seq = forged(season, "result.unfinished", data, f"user:{organiser.pk}")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == f"An unfinished result is the platform's to record, but this one is by user:{organiser.pk}."


def test_a_season_played_by_the_platform_still_verifies(played):  # noqa: F811
    season, _ = played
    assert all(
        actor == "system"
        for actor in Event.objects.filter(stream_id=season.stream_id, type__startswith="result.").values_list(
            "actor", flat=True
        )
    )
    assert verdict(season).ok


def fact(seq, type, data, actor="system"):
    return SimpleNamespace(seq=seq, type=type, data=data, actor=actor)


SCHEDULE = fact(
    1,
    "fixtures.scheduled",
    {"fixtures": [{"key": "r1:a:b", "round": 1, "date": "2027-01-04", "home": "a", "away": "b", "division": ""}]},
)
STARTED = fact(2, "fixture.started", {"fixture": "r1:a:b", "match": "m1"}, "user:2")
RECORDED = fact(3, "result.recorded", {"fixture": "r1:a:b", "match": "m1", "home_left": 3, "away_left": 0})


@pytest.mark.parametrize("hand", ["user:2", "", None])
def test_the_fold_takes_no_result_fact_from_another_hand_than_the_platforms(hand):
    recorded = fact(3, "result.recorded", RECORDED.data, hand)
    assert services.season_fold([SCHEDULE, STARTED, recorded])["r1:a:b"]["status"] == Fixture.Status.IN_PLAY
    unfinished = fact(4, "result.unfinished", {"fixture": "r1:a:b", "match": "m1", "reason": "Too many turns."}, hand)
    assert services.season_fold([SCHEDULE, STARTED, RECORDED, unfinished])["r1:a:b"]["home_left"] == 3
    retracted = fact(4, "result.retracted", {"fixture": "r1:a:b", "match": "m1", "reason": "I say so"}, hand)
    row = services.season_fold([SCHEDULE, STARTED, RECORDED, retracted])["r1:a:b"]
    assert (row["status"], row["home_left"], row["ruling"]) == (Fixture.Status.PLAYED, 3, "")
