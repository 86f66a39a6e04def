"""Text the API refuses blank says so in the schema (minLength: 1), so a client built from it never
sends "" where it will be refused; text it takes blank says nothing of the kind."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def components():
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


REFUSED_BLANK = [
    ("LeagueCreate", "name"),
    ("ClubCreate", "name"),
    ("Coach", "username"),
    ("Create", "name"),  # a tournament's
    ("MatchCreate", "game"),
    ("SetupSave", "name"),
    ("TournamentReadmit", "user"),
    ("TournamentSwap", "reason"),
    ("TournamentSetBye", "reason"),
    ("TournamentRepair", "reason"),
    # A ruling's reason passes the serializer blank and the service refuses it (reason_required).
    ("FixtureWalkover", "reason"),
    ("FixturePostpone", "reason"),
    ("FixtureCorrect", "reason"),
    ("WebhookInput", "url"),
]
TAKEN_BLANK = [
    ("ClubCreate", "plane"),
    ("TournamentDispute", "reason"),
    ("TournamentCheckInUndo", "reason"),
    ("TournamentRegister", "club"),
]


@pytest.mark.parametrize(("component", "field"), REFUSED_BLANK)
def test_text_refused_blank_says_its_minimum_length_is_one(components, component, field):
    schema = components[component]["properties"][field]
    assert schema.get("minLength") == 1, schema


@pytest.mark.parametrize(("component", "field"), TAKEN_BLANK)
def test_text_taken_blank_sets_no_minimum_length(components, component, field):
    schema = components[component]["properties"][field]
    assert "minLength" not in schema, schema


def test_a_blank_ruling_reason_is_still_refused_by_the_service_with_its_own_code(db, make_user):
    import datetime as dt
    import uuid

    from rest_framework.test import APIClient

    from league.seasons import services

    organiser = make_user("organiser")
    league = services.league_load_iwdl()
    league.created_by = organiser
    league.save()
    season = services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2026, 1, 5), clubs=list(league.clubs.all()[:4])
    )
    fixture = season.fixtures.order_by("round", "key").first()
    client = APIClient()
    client.force_authenticate(organiser)
    for reason in ("", "   ", None):
        body = {"action": "walkover", "winner": fixture.home.slug, "expected_seq": 0, "event_id": str(uuid.uuid4())}
        if reason is not None:
            body["reason"] = reason
        season.refresh_from_db()
        body["expected_seq"] = season.projected_seq
        answer = client.post(
            f"/api/leagues/{league.slug}/seasons/{season.number}/fixtures/{fixture.key}/", body, format="json"
        )
        assert answer.status_code == 400 and answer.json()["code"] == "reason_required", answer.json()
    fixture.refresh_from_db()
    assert fixture.status == "scheduled"
