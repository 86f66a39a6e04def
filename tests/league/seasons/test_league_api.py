"""The league API: leagues, seasons, fixtures, standings (JSON and CSV), rulings, clubs, ratings."""

from __future__ import annotations

import csv
import io
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from league.seasons import services
from matches.models import Event


@pytest.fixture
def iwdl(db, make_user):
    league = services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    return league


def create_season(client, clubs=("aetherhold-zephyrs", "ashen-wastes-revenants", "brassgate-djinn")):
    return client.post(
        "/api/leagues/iwdl/seasons/", {"start_date": "2027-01-04", "double": True, "clubs": list(clubs)}, format="json"
    )


def rule(client, key, body, *, event_id=None, expected_seq=None):
    """An organiser's ruling, based on the season's head as the organiser last read it."""
    if expected_seq is None:
        expected_seq = client.get("/api/leagues/iwdl/seasons/1/").json()["head_seq"]
    return client.post(
        f"/api/leagues/iwdl/seasons/1/fixtures/{key}/",
        {**body, "expected_seq": expected_seq, "event_id": str(event_id or uuid.uuid4())},
        format="json",
    )


def close(client):
    """The organiser closes season 1, based on its head as last read (both guards required)."""
    head = client.get("/api/leagues/iwdl/seasons/1/").json()["head_seq"]
    return client.post(
        "/api/leagues/iwdl/seasons/1/close/", {"expected_seq": head, "event_id": str(uuid.uuid4())}, format="json"
    )


def test_organisers_schedule_seasons_and_others_are_refused(iwdl, client_for, make_user):
    refused = create_season(client_for(make_user("fan")))
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    created = create_season(client_for(iwdl.created_by))
    assert created.status_code == 201, created.json()
    assert created.json()["number"] == 1 and len(created.json()["clubs"]) == 3
    unknown = create_season(client_for(iwdl.created_by), clubs=("aetherhold-zephyrs", "nowhere-nobodies"))
    assert unknown.status_code == 400 and "nowhere-nobodies" in unknown.json()["detail"]
    league = client_for().get("/api/leagues/iwdl/").json()
    assert len(league["clubs"]) == 24 and [s["number"] for s in league["seasons"]] == [1]


def test_fixtures_standings_and_csv_follow_the_organisers_rulings(iwdl, client_for):
    organiser = client_for(iwdl.created_by)
    create_season(organiser)
    fixtures = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"]
    assert len(fixtures) == 6 and {f["status"] for f in fixtures} == {"scheduled"}
    first = fixtures[0]
    walkover = rule(organiser, first["key"], {"action": "walkover", "winner": first["home"], "reason": "No show"})
    assert walkover.status_code == 200 and walkover.json()["status"] == "walkover"
    corrected = rule(
        organiser,
        first["key"],
        {"action": "correct", "home_left": 0, "away_left": 3, "reason": "The away club did arrive; the referee erred"},
    )
    assert corrected.json()["status"] == "played" and corrected.json()["away_left"] == 3
    standings = client_for().get("/api/leagues/iwdl/seasons/1/standings/").json()["standings"]
    top = standings[0]
    assert top["club"] == first["away"] and top["points"] == 3 and top["wizard_difference"] == 3
    export = client_for().get("/api/leagues/iwdl/seasons/1/standings/", {"export": "csv"})
    assert export["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(export.content.decode())))
    assert rows[0]["club"] == first["away"] and rows[0]["points"] == "3" and len(rows) == 3


def test_a_fixture_ruling_by_a_fan_is_refused_and_writes_nothing(iwdl, client_for, make_user):
    create_season(client_for(iwdl.created_by))
    fixture = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"][0]
    before = Event.objects.count()
    refused = rule(
        client_for(make_user("fan")),
        fixture["key"],
        {"action": "correct", "home_left": 5, "away_left": 0, "reason": "I say so"},
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    assert Event.objects.count() == before
    anonymous = client_for().post(
        f"/api/leagues/iwdl/seasons/1/fixtures/{fixture['key']}/", {"action": "start"}, format="json"
    )
    assert anonymous.status_code == 401


def test_club_and_leaderboard_endpoints_answer(iwdl, client_for):
    club = client_for().get("/api/clubs/aetherhold-zephyrs/").json()
    assert club["plane"] == "the Plane of Air" and club["results"] == [] and club["rating_history"] == []
    assert client_for().get("/api/ratings/wizard-dodgeball/").json()["ratings"] == []
    assert client_for().get("/api/clubs/nobody/").status_code == 404


def test_closing_a_season_through_the_api_needs_every_fixture_settled(iwdl, client_for):
    organiser = client_for(iwdl.created_by)
    create_season(organiser)
    early = close(organiser)
    assert early.status_code == 409 and early.json()["code"] == "season_unfinished"
    for f in client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"]:
        assert (
            rule(organiser, f["key"], {"action": "walkover", "winner": f["home"], "reason": "ruling"}).status_code
            == 200
        )
    closed = close(organiser)
    assert closed.status_code == 200 and len(closed.json()["final"][""]) == 3
    assert closed.json()["movements"] == []  # one division: nobody goes up or down


def test_the_season_page_shows_one_table_per_division(iwdl, client_for):
    from django.test import Client

    slugs = sorted(c.slug for c in iwdl.clubs.all())[:6]
    created = client_for(iwdl.created_by).post(
        "/api/leagues/iwdl/seasons/",
        {"start_date": "2027-01-04", "clubs": slugs, "divisions": {"North": slugs[:3], "South": slugs[3:]}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    page = Client().get("/leagues/iwdl/seasons/1/").content.decode()
    assert page.count('data-testid="standings"') == 2 and "North" in page and "South" in page
    south = client_for().get("/api/leagues/iwdl/seasons/1/standings/", {"division": "South"}).json()["standings"]
    assert sorted(r["club"] for r in south) == slugs[3:]


def test_anyone_signed_in_starts_a_league_for_any_game_and_runs_it(db, make_user, client_for):
    host, ann, _ben = make_user("host"), make_user("ann"), make_user("ben")
    client = client_for(host)
    bad = client.post("/api/leagues/", {"slug": "x", "name": "X", "game": "chess"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "unknown_game"
    odd = client.post(
        "/api/leagues/", {"slug": "x", "name": "X", "game": "dueling-wizards", "tiebreaks": ["goals"]}, format="json"
    )
    assert odd.status_code == 400 and odd.json()["code"] == "bad_tiebreaks"
    made = client.post(
        "/api/leagues/",
        {
            "slug": "duels",
            "name": "Duel Night",
            "game": "dueling-wizards",
            "points": [2, 1, 0],
            "tiebreaks": ["wins", "lot"],
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    for slug, name in (("reds", "Reds"), ("blues", "Blues")):
        assert client.post("/api/leagues/duels/clubs/", {"slug": slug, "name": name}, format="json").status_code == 201
    refused = client_for(ann).post("/api/clubs/reds/coaches/", {"username": "ann"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    for club, coach in (("reds", "ann"), ("blues", "ben")):
        r = client.post(f"/api/clubs/{club}/coaches/", {"username": coach}, format="json")
        assert r.json()["coaches"] == [coach]
    season = client.post("/api/leagues/duels/seasons/", {"start_date": "2027-03-01", "double": False}, format="json")
    assert season.status_code == 201, season.json()
    fixture = client.get("/api/leagues/duels/seasons/1/fixtures/").json()["fixtures"][0]
    head = client.get("/api/leagues/duels/seasons/1/").json()["head_seq"]
    started = client_for(ann).post(
        f"/api/leagues/duels/seasons/1/fixtures/{fixture['key']}/",
        {"action": "start", "expected_seq": head, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert started.status_code == 200 and started.json()["status"] == "in_play" and started.json()["match"]


def test_league_and_club_names_are_unique_and_points_must_make_sense(iwdl, client_for, make_user):
    client = client_for(make_user("host"))
    taken = client.post("/api/leagues/", {"slug": "iwdl", "name": "Again", "game": "wizard-dodgeball"}, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "slug_taken"
    upside = client.post(
        "/api/leagues/", {"slug": "odd", "name": "Odd", "game": "wizard-dodgeball", "points": [0, 1, 3]}, format="json"
    )
    assert upside.status_code == 400 and upside.json()["code"] == "bad_points"
    club = client_for(iwdl.created_by).post(
        "/api/leagues/iwdl/clubs/", {"slug": "aetherhold-zephyrs", "name": "X"}, format="json"
    )
    assert club.status_code == 409 and club.json()["code"] == "slug_taken"


def test_a_ruling_without_its_guards_is_refused_and_writes_nothing(iwdl, client_for):
    organiser = client_for(iwdl.created_by)
    create_season(organiser)
    key = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"][0]["key"]
    before = Event.objects.count()
    bare = organiser.post(
        f"/api/leagues/iwdl/seasons/1/fixtures/{key}/",
        {"action": "postpone", "date": "2027-02-01", "reason": "Snow"},
        format="json",
    )
    assert (
        bare.status_code == 400 and bare.json()["code"] == "invalid_request" and "expected_seq" in bare.json()["detail"]
    )
    stale = rule(organiser, key, {"action": "postpone", "date": "2027-02-01", "reason": "Snow"}, expected_seq=0)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_seq"
    assert Event.objects.count() == before


def test_a_retried_ruling_is_recorded_once(iwdl, client_for):
    organiser = client_for(iwdl.created_by)
    create_season(organiser)
    f = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"][0]
    head = organiser.get("/api/leagues/iwdl/seasons/1/").json()["head_seq"]
    event_id = uuid.uuid4()
    body = {"action": "walkover", "winner": f["home"], "reason": "No show"}
    first = rule(organiser, f["key"], body, event_id=event_id, expected_seq=head)
    again = rule(organiser, f["key"], body, event_id=event_id, expected_seq=head)  # the reply was lost
    assert first.status_code == 200 and again.status_code == 200
    assert Event.objects.filter(type="fixture.walkover").count() == 1


@pytest.mark.django_db(transaction=True)
def test_thirty_walkovers_sent_at_once_at_the_same_head_record_exactly_one(client_for, make_user):
    league = services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    organiser = client_for(league.created_by)
    create_season(organiser)
    f = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"][0]
    head = organiser.get("/api/leagues/iwdl/seasons/1/").json()["head_seq"]

    def send(i):
        from django.db import connection

        try:
            winner = f["home"] if i % 2 else f["away"]
            return rule(
                client_for(league.created_by),
                f["key"],
                {"action": "walkover", "winner": winner, "reason": f"ruling {i}"},
                expected_seq=head,
            ).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        codes = list(pool.map(send, range(30)))
    assert codes.count(200) == 1 and codes.count(409) == 29
    assert Event.objects.filter(type="fixture.walkover").count() == 1


@pytest.mark.parametrize(
    ("body", "missing"),
    [
        ({"action": "postpone", "reason": "Snow"}, "date"),
        ({"action": "walkover", "reason": "No show"}, "winner"),
        ({"action": "correct", "away_left": 3}, "home_left"),
        ({"action": "correct", "home_left": 3}, "away_left"),
        # A field another command takes does not stand in for this one's.
        ({"action": "postpone", "winner": "aetherhold-zephyrs"}, "date"),
        ({"action": "start"}, "expected_seq"),
        ({"action": "start"}, "event_id"),
        ({"action": "walkover", "winner": "aetherhold-zephyrs"}, "event_id"),
        ({"winner": "aetherhold-zephyrs"}, "action"),
    ],
)
def test_each_fixture_command_refuses_a_missing_field_of_its_own_and_writes_nothing(iwdl, client_for, body, missing):
    organiser = client_for(iwdl.created_by)
    create_season(organiser)
    key = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"][0]["key"]
    head = organiser.get("/api/leagues/iwdl/seasons/1/").json()["head_seq"]
    full = {**body, "expected_seq": head, "event_id": str(uuid.uuid4())}
    full.pop(missing, None)
    before = Event.objects.count()
    refused = organiser.post(f"/api/leagues/iwdl/seasons/1/fixtures/{key}/", full, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_request"
    assert missing in refused.json()["fields"] and refused.json()["detail"].startswith(f"{missing}:")
    assert Event.objects.count() == before


def test_an_unknown_fixture_command_is_refused_and_writes_nothing(iwdl, client_for):
    organiser = client_for(iwdl.created_by)
    create_season(organiser)
    key = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"][0]["key"]
    before = Event.objects.count()
    refused = rule(organiser, key, {"action": "abandon", "reason": "Rain"})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_request"
    assert list(refused.json()["fields"]) == ["action"]
    assert Event.objects.count() == before


def test_the_schema_names_one_request_body_per_fixture_command(db):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/leagues/{slug}/seasons/{number}/fixtures/{key}/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/FixtureCommandBody"}
    components = schema["components"]["schemas"]
    one_of = components["FixtureCommandBody"]
    assert one_of["discriminator"]["propertyName"] == "action"
    mapping = one_of["discriminator"]["mapping"]
    assert set(mapping) == {"postpone", "walkover", "correct", "start"}
    assert len(set(mapping.values())) == 4 and [s["$ref"] for s in one_of["oneOf"]] == list(mapping.values())
    required = {action: set(components[ref.rsplit("/", 1)[1]]["required"]) for action, ref in mapping.items()}
    guards = {"action", "expected_seq", "event_id"}
    assert required == {
        "postpone": guards | {"date"},
        "walkover": guards | {"winner"},
        "correct": guards | {"home_left", "away_left"},
        "start": guards,
    }
