"""Embeddable widgets: the standings and the bracket alone on a page, framed only by the origins
the organiser allowed for that tournament (CSP frame-ancestors), with X-Frame-Options agreeing."""

from __future__ import annotations

import pytest

from league.tournaments.models import EmbedSettings

from .helpers import open_tournament, people

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return people("org")[0]


def frame_ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    [directive] = [d.strip() for d in policy.split(";") if d.strip().startswith("frame-ancestors")]
    return directive


def put_origins(api, t, origins):
    return api.put(f"/api/tournaments/{t.id}/embed/", {"origins": origins}, format="json")


@pytest.mark.parametrize("widget", ["standings", "bracket"])
def test_a_widget_is_framed_by_nobody_until_the_organiser_allows_origins(client, client_for, organiser, widget):
    t = open_tournament(organiser, "single_elimination", people("ann", "ben"))
    page = client.get(f"/tournaments/{t.id}/embed/{widget}/")
    assert page.status_code == 200
    assert frame_ancestors(page) == "frame-ancestors 'none'"
    assert page["X-Frame-Options"] == "DENY"

    saved = put_origins(client_for(organiser), t, ["https://club.example", "http://localhost:8123"])
    assert saved.status_code == 200 and saved.json() == {"origins": ["https://club.example", "http://localhost:8123"]}
    page = client.get(f"/tournaments/{t.id}/embed/{widget}/")
    assert frame_ancestors(page) == "frame-ancestors https://club.example http://localhost:8123"
    assert "X-Frame-Options" not in page  # it cannot name two origins; DENY would contradict the CSP
    assert "script-src 'self'" in page["Content-Security-Policy"]  # the rest of the policy stands


def test_origins_are_per_tournament_and_the_main_pages_stay_unframed(client, client_for, organiser):
    allowed = open_tournament(organiser, "swiss", people("ann", "ben"))
    other = open_tournament(organiser, "swiss")
    assert put_origins(client_for(organiser), allowed, ["https://club.example"]).status_code == 200
    assert frame_ancestors(client.get(f"/tournaments/{allowed.id}/embed/standings/")) == (
        "frame-ancestors https://club.example"
    )
    assert frame_ancestors(client.get(f"/tournaments/{other.id}/embed/standings/")) == "frame-ancestors 'none'"
    main = client.get(f"/tournaments/{allowed.id}/")
    assert frame_ancestors(main) == "frame-ancestors 'none'" and main["X-Frame-Options"] == "DENY"


def test_origins_are_written_the_one_way(client_for, organiser):
    t = open_tournament(organiser, "swiss")
    saved = put_origins(
        client_for(organiser), t, ["https://Club.Example/", "https://club.example", "http://[::1]:9000"]
    )
    assert saved.json() == {"origins": ["https://club.example", "http://[::1]:9000"]}


@pytest.mark.parametrize(
    "origin",
    [
        "https://club.example/standings",
        "club.example",
        "*",
        "https://*.example",
        "javascript:alert(1)",
        "ftp://club.example",
        "https://club.example; script-src *",
        "https://club.example?x=1",
        "https://user@club.example",
        "https://club.example:99999",
        "'self'",
        "",
    ],
)
def test_anything_but_scheme_host_and_port_is_refused(client_for, organiser, origin):
    t = open_tournament(organiser, "swiss")
    api = client_for(organiser)
    assert put_origins(api, t, ["https://kept.example"]).status_code == 200
    response = put_origins(api, t, ["https://fine.example", origin])
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_origin" and body["detail"]
    assert EmbedSettings.objects.get(tournament=t).origins == ["https://kept.example"]


def test_only_the_organiser_sees_or_sets_the_origins(client_for, organiser):
    ann = people("ann")[0]
    t = open_tournament(organiser, "swiss", [ann])
    for response in (
        client_for(ann).get(f"/api/tournaments/{t.id}/embed/"),
        put_origins(client_for(ann), t, ["https://a.example"]),
    ):
        assert response.status_code == 403 and response.json()["code"] == "not_organiser"
    assert put_origins(client_for(), t, ["https://a.example"]).status_code in (401, 403)
    assert not EmbedSettings.objects.filter(tournament=t).exists()
    assert client_for(organiser).get(f"/api/tournaments/{t.id}/embed/").json() == {"origins": []}


def test_a_widget_page_has_no_site_chrome_and_unknown_widgets_are_not_found(client, organiser):
    t = open_tournament(organiser, "swiss")
    html = client.get(f"/tournaments/{t.id}/embed/standings/").content.decode()
    assert 'data-embed="standings"' in html
    assert 'class="top"' not in html and "Sign in" not in html  # no site header or navigation
    assert client.get(f"/tournaments/{t.id}/embed/players/").status_code == 404
    assert client.get("/tournaments/00000000-0000-0000-0000-000000000000/embed/standings/").status_code == 404
