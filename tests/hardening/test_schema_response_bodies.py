"""The schema states what the API answers: every 2xx JSON body is documented field by field (not a
bare object a generated client cannot type), and the real answers about a finished match, a season's standings and a running tournament
validate against those schemas."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import jsonschema
import pytest


@pytest.fixture(scope="module")
def openapi():
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(schema, renderer_context={}))


def operations_by_id(openapi) -> dict[str, dict]:
    return {
        operation["operationId"]: operation
        for item in openapi["paths"].values()
        for method, operation in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    }


def resolved(openapi, schema: dict) -> dict:
    while "$ref" in schema:
        schema = openapi["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def bare_bodies(openapi, schema: dict) -> bool:
    """Whether the body's schema (or any alternative of a oneOf, or a list's items) lists no properties."""
    schema = resolved(openapi, schema)
    if schema.get("type") == "array":
        return bare_bodies(openapi, schema["items"])
    if "oneOf" in schema:
        return any(bare_bodies(openapi, alternative) for alternative in schema["oneOf"])
    return not schema.get("properties")


def test_every_json_success_body_of_every_operation_states_its_fields(openapi):
    # A bare object gives a generated client no types and the conformance check nothing to hold
    # the answer to; game-specific parts are free-form objects inside a documented body instead.
    bare, checked = [], 0
    for name, operation in operations_by_id(openapi).items():
        for status, response in operation["responses"].items():
            json_body = (response.get("content") or {}).get("application/json")
            if not status.startswith("2") or json_body is None:
                continue
            checked += 1
            if bare_bodies(openapi, json_body["schema"]):
                bare.append(f"{name} {status}")
    assert checked >= 60
    assert not bare, "Bodies documented as bare objects: " + ", ".join(bare)


def as_json_schema(openapi, schema: dict) -> dict:
    """OpenAPI 3.0's schema dialect as JSON Schema: ``nullable: true`` is null allowed."""

    def convert(node):
        if isinstance(node, list):
            return [convert(v) for v in node]
        if not isinstance(node, dict):
            return node
        out = {k: (v if k in {"enum", "required"} else convert(v)) for k, v in node.items() if k != "nullable"}
        if node.get("nullable"):
            return {"anyOf": [out, {"type": "null"}]}
        return out

    return {**convert(schema), "components": convert(openapi["components"])}


def validator(openapi, operation_id: str, status: str = "200") -> jsonschema.Draft7Validator:
    response = operations_by_id(openapi)[operation_id]["responses"][status]
    schema = as_json_schema(openapi, response["content"]["application/json"]["schema"])
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)


def errors_of(openapi, operation_id: str, body, status: str = "200") -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
        for e in validator(openapi, operation_id, status).iter_errors(body)
    ]


@pytest.fixture
def client(db, make_user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(make_user("reader"))
    return client


def test_a_finished_matchs_answers_validate_against_their_schemas(openapi, client):
    from matches.autoplay import autoplay_match
    from matches.verification import match_verify

    match = autoplay_match(game="dueling-wizards", seats=2)
    match_verify(match_id=match.id)
    base = f"/api/matches/{match.id}/"
    answers = {
        "matches_retrieve": client.get(base),
        "matches_list": client.get("/api/matches/"),
        "matches_events_retrieve": client.get(base + "events/?limit=5"),
        "matches_log_retrieve": client.get(base + "log/"),
        "matches_state_retrieve": client.get(base + "state/?at=3"),
        "matches_legal_retrieve": client.get(base + "legal/?seat=0"),
    }
    for operation_id, answer in answers.items():
        assert answer.status_code == 200, (operation_id, answer.content[:300])
        assert not errors_of(openapi, operation_id, answer.json()), operation_id
    summary = answers["matches_retrieve"].json()
    # What the schema was checked against is a finished, verified match with a result.
    assert summary["status"] == "finished" and summary["result"]["winners"] is not None
    assert summary["verification"]["verdict"] == "verified"
    assert answers["matches_events_retrieve"].json()["next_after"] == 5
    # And the check bites: the same body with a wrong type or a missing field is refused.
    assert errors_of(openapi, "matches_retrieve", {**summary, "head_seq": str(summary["head_seq"])})
    assert errors_of(openapi, "matches_retrieve", {k: v for k, v in summary.items() if k != "verification"})
    assert errors_of(openapi, "matches_retrieve", {**summary, "seats": [{**summary["seats"][0], "seat": None}]})


def test_a_seasons_standings_and_fixtures_validate_against_their_schemas(openapi, client, make_user):
    from league.seasons import services
    from matches.commands import AT_HEAD

    organiser = make_user("organiser")
    league = services.league_load_iwdl()
    league.created_by = organiser
    league.save()
    clubs = list(league.clubs.order_by("slug")[:4])
    season = services.season_create(league=league, created_by=organiser, start_date=dt.date(2026, 1, 5), clubs=clubs)
    fixture = season.fixtures.order_by("round", "key").first()
    services.fixture_walkover(
        fixture=fixture, user=organiser, winner=fixture.home, reason="No show", expected_seq=AT_HEAD
    )
    base = f"/api/leagues/{league.slug}/seasons/{season.number}/"
    standings = client.get(base + "standings/")
    assert standings.status_code == 200
    body = standings.json()
    assert not errors_of(openapi, "leagues_seasons_standings_retrieve", body)
    # The table has a result in it: a club with a win, its form and its points.
    assert any(row["won"] == 1 and row["form"] for row in body["standings"])
    for operation_id, path in [
        ("leagues_seasons_fixtures_retrieve", base + "fixtures/"),
        ("leagues_seasons_retrieve", base),
        ("leagues_retrieve", f"/api/leagues/{league.slug}/"),
        ("leagues_list", "/api/leagues/"),
        ("clubs_retrieve", f"/api/clubs/{fixture.home.slug}/"),
    ]:
        answer = client.get(path)
        assert answer.status_code == 200, (operation_id, answer.content[:300])
        assert not errors_of(openapi, operation_id, answer.json()), operation_id
    row = body["standings"][0]
    assert errors_of(openapi, "leagues_seasons_standings_retrieve", {**body, "standings": [{**row, "won": "1"}]})


def test_a_running_tournaments_answers_validate_against_their_schemas(openapi, make_user):
    from rest_framework.test import APIClient

    from tests.league.tournaments.helpers import field, open_pairings, open_tournament

    organiser = make_user("organiser")
    players = field(4)
    t = open_tournament(organiser, "swiss", players, start=True)
    record = open_pairings(t)[0]
    reporter = next(p for p in players if str(p.pk) == record["players"][0])
    client = APIClient()
    client.force_authenticate(reporter)
    detail = client.get(f"/api/tournaments/{t.id}/")
    report = client.post(
        f"/api/tournaments/{t.id}/pairings/{record['id']}/report/",
        {
            "result": {"winner": record["players"][0]},
            "expected_seq": detail.json()["head_seq"],
            "event_id": str(uuid.uuid4()),
        },
        format="json",
    )
    assert report.status_code == 201, report.content[:300]
    assert not errors_of(openapi, "tournaments_pairings_command", report.json(), "201")
    opponent = next(p for p in players if str(p.pk) == record["players"][1])
    client.force_authenticate(opponent)
    confirm = client.post(
        f"/api/tournaments/{t.id}/pairings/{record['id']}/confirm/",
        {"expected_seq": report.json()["head_seq"], "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert confirm.status_code == 201, confirm.content[:300]
    for operation_id, path in [
        ("tournaments_retrieve", f"/api/tournaments/{t.id}/"),
        ("tournaments_retrieve", f"/api/tournaments/{t.id}/?player={reporter.username}"),
        ("tournaments_standings_retrieve", f"/api/tournaments/{t.id}/standings/"),
        ("tournaments_events_retrieve", f"/api/tournaments/{t.id}/events/"),
        ("tournaments_list", "/api/tournaments/"),
    ]:
        answer = client.get(path)
        assert answer.status_code == 200, (operation_id, answer.content[:300])
        assert not errors_of(openapi, operation_id, answer.json()), (operation_id, path)
    body = client.get(f"/api/tournaments/{t.id}/?player={reporter.username}").json()
    # Checked against a tournament with a round paired, a final result, a player's page and "me".
    final = [p for r in body["rounds"] for p in r["pairings"] if p["status"] == "final"]
    assert final and final[0]["points"] and body["player"]["results"] and body["me"]["next"] is None
    assert errors_of(openapi, "tournaments_retrieve", {**body, "rounds": [{**body["rounds"][0], "number": "1"}]})


def test_the_organisers_answer_with_an_entry_they_made_validates_and_states_asked_to_play(openapi, make_user):
    from rest_framework.test import APIClient

    from league.tournaments import services
    from matches.commands import AT_HEAD
    from tests.league.tournaments.helpers import open_tournament

    organiser, entered = make_user("organiser"), make_user("entered")
    t = open_tournament(organiser, "swiss")
    services.tournament_register(tournament=t, user=entered, by=organiser, expected_seq=AT_HEAD)
    client = APIClient()
    client.force_authenticate(organiser)
    body = client.get(f"/api/tournaments/{t.id}/").json()
    assert body["players"][0]["asked_to_play"] is False
    assert not errors_of(openapi, "tournaments_retrieve", body)
    # The field is documented (an undocumented one would pass whatever it held).
    assert errors_of(
        openapi, "tournaments_retrieve", {**body, "players": [{**body["players"][0], "asked_to_play": "no"}]}
    )
