"""The files the site hands out (standings CSVs, the TRF report, an audit bundle) carry the same
protective headers as its pages: no content sniffing (a CSV is never taken for a page), never
framed, no referrer beyond the site; and the name a download is saved under is built from ids and
slugs only, never from anyone's free text."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.management import call_command
from django.test import Client

from league.seasons import services as season_services
from tests.league.tournaments.helpers import field, open_tournament, settle

pytestmark = pytest.mark.django_db

SAFE_ATTACHMENT = re.compile(r'^attachment; filename="[A-Za-z0-9_.-]+"$')


@pytest.fixture
def downloads(alice, make_user):
    league = season_services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    season_services.season_create(
        league=league,
        created_by=league.created_by,
        start_date=dt.date(2027, 1, 4),
        clubs=list(league.clubs.filter(slug__in=["aetherhold-zephyrs", "brassgate-djinn"])),
    )
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2)
    settle(t, lambda r: r["players"][0])
    call_command("checkpoint")
    return {
        "season CSV": "/api/leagues/iwdl/seasons/1/standings/?export=csv",
        "tournament CSV": f"/api/tournaments/{t.id}/standings.csv",
        "TRF report": f"/api/tournaments/{t.id}/trf.txt",
        "audit bundle": f"/api/bundles/{t.stream_id}/",
    }


def test_every_download_carries_the_pages_protective_headers(downloads):
    for what, url in downloads.items():
        response = Client().get(url)
        assert response.status_code == 200, what
        assert response["X-Content-Type-Options"] == "nosniff", what
        assert response["X-Frame-Options"] == "DENY", what
        assert "frame-ancestors 'none'" in response["Content-Security-Policy"], what
        assert response["Referrer-Policy"] == "same-origin", what


def test_a_downloads_file_name_is_made_of_ids_and_slugs_only(downloads):
    for what in ("season CSV", "tournament CSV", "audit bundle"):
        disposition = Client().get(downloads[what])["Content-Disposition"]
        assert SAFE_ATTACHMENT.match(disposition), (what, disposition)
