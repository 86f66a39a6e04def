"""Bad input is refused as {"code", "detail"} JSON with a 4xx, never a 500 (issue 15, "Why": the
39 HTTP 500s, the 20 MB body, the unbounded `club`; "Deliver" item 3)."""

from __future__ import annotations

import uuid

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import get_resolver

from league.seasons import services as season_services
from league.tournaments.models import Tournament
from matches.models import Event, Match
from tests.matches.helpers import new_duel

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str | None = None):
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) >= {"code", "detail"} and body["detail"], body
    if code is not None:
        assert body["code"] == code, body
    return body


def deep(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def api_post_paths() -> list[str]:
    """Every API route that takes a POST, with made-up ids (the body is refused before any lookup)."""
    from rest_framework.views import APIView

    fill = {
        "match_id": str(uuid.uuid4()),
        "draft_id": str(uuid.uuid4()),
        "tournament_id": str(uuid.uuid4()),
        "slug": "iwdl",
        "number": "1",
        "key": "r1-a-b",
        "verb": "pick",
        "pairing_id": "r1-1",
    }
    paths = []
    for pattern, route in _routes(get_resolver().url_patterns, ""):
        view = getattr(pattern.callback, "view_class", None)
        if route.startswith("api/") and view and issubclass(view, APIView) and hasattr(view, "post"):
            for name, value in fill.items():
                route = route.replace(f"<uuid:{name}>", value).replace(f"<str:{name}>", value)
                route = route.replace(f"<slug:{name}>", value).replace(f"<int:{name}>", value)
            paths.append("/" + route)
    return paths


def _routes(patterns, prefix):
    for p in patterns:
        if hasattr(p, "url_patterns"):
            yield from _routes(p.url_patterns, prefix + str(p.pattern))
        else:
            yield p, prefix + str(p.pattern)


def test_every_post_endpoint_refuses_deeply_nested_json_with_400_json(alice, client_for):
    paths = api_post_paths()
    assert len(paths) >= 12, paths  # matches, drafts, leagues, seasons, clubs, tournaments
    client = client_for(alice)
    for path in paths:
        # 20,000 levels made the JSON parser raise RecursionError: an HTML 500.
        r = client.generic("POST", path, deep(20_000), content_type="application/json")
        assert_error(r, 400, "too_deep")


def test_json_nested_just_within_the_limit_is_parsed(alice, client_for, settings):
    client = client_for(alice)
    config = deep(settings.API_MAX_JSON_DEPTH - 2)
    body = '{"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}], "config": ' + config + "}"
    r = client.generic("POST", "/api/matches/", body, content_type="application/json")
    assert r.status_code in (201, 400), r.content
    assert r.json().get("code") != "too_deep"


def test_a_body_larger_than_the_limit_is_refused_with_413_json(alice, client_for):
    client = client_for(alice)
    big = '{"name": "x", "game": "dueling-wizards", "format": "swiss", "options": {"pad": "%s"}}' % ("x" * 20_000_000)
    assert_error(
        client.generic("POST", "/api/tournaments/", big, content_type="application/json"), 413, "body_too_large"
    )
    assert not Tournament.objects.exists()


def test_a_registration_club_is_bounded_and_nothing_oversized_reaches_the_stream(alice, client_for):
    client = client_for(alice)
    tid = client.post(
        "/api/tournaments/", {"name": "Open", "game": "dueling-wizards", "format": "swiss"}, format="json"
    ).json()["id"]
    before = Event.objects.filter(stream_id=f"tournament:{tid}").count()
    # A megabyte of club per request used to be written into the immutable stream.
    r = client.post(f"/api/tournaments/{tid}/register/", {"club": "x" * 1_000_000}, format="json")
    assert_error(r, 413)
    r = client.post(f"/api/tournaments/{tid}/register/", {"club": "x" * 81}, format="json")
    body = assert_error(r, 400, "invalid_request")
    assert "club" in body["fields"]
    assert Event.objects.filter(stream_id=f"tournament:{tid}").count() == before
    guards = {"expected_seq": before, "event_id": str(uuid.uuid4())}  # every tournament command carries both
    assert (
        client.post(f"/api/tournaments/{tid}/register/", {"club": "Zephyrs", **guards}, format="json").status_code
        == 201
    )


@pytest.mark.parametrize(
    "query",
    [
        {"offset": str(2**64)},
        {"offset": "99999999999999999999999"},
        {"limit": str(2**70)},
        {"offset": "-1"},
        {"offset": "abc"},
        {"limit": "1e3"},
        {"offset": "١٢"},  # Arabic-Indic digits: int() reads them, nothing else should
    ],
)
def test_match_list_integers_out_of_range_or_not_whole_are_400(client_for, query):
    assert_error(client_for().get("/api/matches/", query), 400, "invalid_request")


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/?status=live%00",
        "/api/matches/?game=%00",
        "/api/matches/?game=dueling%00wizards&offset=1",
        "/api/ratings/%00/",
        "/api/leagues/iwdl/seasons/1/fixtures/r1%00/",
        "/api/tournaments/?x=%00",
    ],
)
def test_nul_bytes_in_a_path_or_query_are_400_json(client_for, path):
    client = client_for()
    response = client.post(path, {}, format="json") if "fixtures" in path else client.get(path)
    assert_error(response, 400, "nul_byte")


def test_bad_utf8_in_a_query_string_is_400_json(client_for):
    assert_error(client_for().get("/api/matches/?game=%ff%fe"), 400, "bad_encoding")


def test_a_tournament_events_after_that_is_not_a_number_is_400(alice, client_for):
    tid = (
        client_for(alice)
        .post("/api/tournaments/", {"name": "Open", "game": "dueling-wizards", "format": "swiss"}, format="json")
        .json()["id"]
    )
    for after in ("abc", "-3", str(2**64)):
        assert_error(client_for().get(f"/api/tournaments/{tid}/events/", {"after": after}), 400, "invalid_request")
    assert client_for().get(f"/api/tournaments/{tid}/events/", {"after": "0"}).status_code == 200


def test_a_fixture_round_that_is_not_a_number_is_400(make_user, client_for):
    league = season_services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    created = client_for(league.created_by).post(
        "/api/leagues/iwdl/seasons/",
        {"start_date": "2027-01-04", "double": True, "clubs": ["aetherhold-zephyrs", "ashen-wastes-revenants"]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    number = created.json()["number"]
    assert_error(client_for().get(f"/api/leagues/iwdl/seasons/{number}/fixtures/", {"round": "abc"}), 400)
    r = client_for().get(f"/api/leagues/iwdl/seasons/{number}/fixtures/", {"round": "1"})
    assert r.status_code == 200 and r.json()["fixtures"]


@pytest.mark.parametrize(
    "body, code",
    [
        ('{"seat": 0, "expected_seq": 2, "action": {"type": "attack\\u0000"}}', "nul_byte"),
        ('{"seat": 0, "expected_seq": 2, "action": {"type": "\\ud800"}}', "bad_encoding"),
        ('{"seat": 0, "expected_seq": 2, "action": {"type": "attack", "n": NaN}}', "bad_number"),
        ('{"seat": 0, "expected_seq": 2, "action": {"type": "attack", "n": 1e999}}', "bad_number"),
        ('{"seat": 0, "expected_seq": ' + str(2**64) + ', "action": {"type": "attack"}}', "bad_number"),
        (b'{"seat": 0, "expected_seq": 2, "action": {"type": "\xff\xfe"}}', "bad_encoding"),
    ],
)
def test_values_the_database_cannot_store_are_refused_and_nothing_is_written(alice, bob, client_for, body, code):
    match = new_duel(alice, bob)
    before = Event.objects.filter(stream_id=match.stream_id).count()
    r = client_for(alice).generic("POST", f"/api/matches/{match.id}/actions/", body, content_type="application/json")
    assert_error(r, 400, code)
    assert Event.objects.filter(stream_id=match.stream_id).count() == before


def test_an_unknown_api_address_is_404_json(client_for):
    assert_error(client_for().get("/api/no-such-thing/"), 404, "not_found")
    assert_error(client_for().get("/api/matches/not-a-uuid/"), 404, "not_found")


def test_a_method_an_endpoint_does_not_take_is_405_json(alice, client_for):
    assert_error(client_for(alice).delete("/api/matches/"), 405, "method_not_allowed")
    assert_error(client_for(alice).put("/api/engines/", {}, format="json"), 405, "method_not_allowed")


def test_an_unexpected_fault_in_a_view_is_500_json(monkeypatch):
    from matches.api import views

    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views.registry, "latest", boom)
    client = Client(raise_request_exception=False)
    assert_error(client.get("/api/engines/"), 500, "internal_error")


def test_a_database_that_went_away_is_503_json_with_retry_after(monkeypatch, alice, bob):
    from matches import selectors

    def dropped(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    match = new_duel(alice, bob)
    monkeypatch.setattr(selectors, "match_get", dropped)
    client = Client(raise_request_exception=False)
    body = assert_error(client.get(f"/api/matches/{match.id}/"), 503, "database_unavailable")
    assert "try again" in body["detail"]
    assert client.get(f"/api/matches/{match.id}/")["Retry-After"]


def test_a_database_fault_outside_any_view_is_503_json_too(monkeypatch, alice):
    """Session and token lookups run before the view (in middleware and authentication)."""
    from config import auth

    def dropped(key):
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(auth, "_token_with_user", dropped)
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION="Token abc")
    assert_error(client.get("/api/engines/"), 503, "database_unavailable")


def test_pages_outside_the_api_keep_their_html_404(client_for):
    r = Client().get("/no-such-page/")
    assert r.status_code == 404 and not r["Content-Type"].startswith("application/json")


def test_a_form_body_with_more_fields_than_django_parses_is_400_json_and_creates_nothing(alice, client_for, settings):
    # Found by schemathesis: Django refuses to parse such a body (TooManyFieldsSent) when the view
    # first reads request.data, and that refusal escaped as a 500.
    from league.seasons.models import League, Season
    from league.seasons.services import league_load_iwdl

    league = league_load_iwdl()
    league.created_by = alice
    league.save()
    fields = "&".join(f"f{i}=x" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = client_for(alice).generic(
        "POST", f"/api/leagues/{league.slug}/seasons/", fields, content_type="application/x-www-form-urlencoded"
    )
    body = assert_error(response, 400, "too_many_fields")
    assert str(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS) in body["detail"]
    assert not Season.objects.filter(league=League.objects.get(slug=league.slug)).exists()


def test_a_body_django_refuses_as_suspicious_is_400_json_not_500(alice, client_for, settings):
    # Any other SuspiciousOperation Django raises while parsing (here too many files) is the sender's fault.
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    boundary = "B0UNDARY"
    parts = "".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="f{i}"; filename="f{i}.txt"\r\n'
        f"Content-Type: text/plain\r\n\r\nx\r\n"
        for i in range(3)
    )
    response = client_for(alice).generic(
        "POST", "/api/matches/", parts + f"--{boundary}--\r\n", content_type=f"multipart/form-data; boundary={boundary}"
    )
    assert_error(response, 400, "bad_request")
    assert not Match.objects.exists()
