"""A tournament's name is the organiser's free text, and any signed-in person may organise. The TRF
report is read line by line by pairing programs: a name with a line break in it must not start a
line of its own (a forged 001 player line, a forged XXR), it stays the one 012 header line.

A new name with a line break is refused (tests/league/test_names_are_one_line.py), but names
recorded before that check stay in their streams: the report keeps them on one line."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.models import Tournament
from matches.commands import AT_HEAD

from .helpers import field, settle

pytestmark = pytest.mark.django_db

FORGED = "Club Swiss\n001    9      Forged Player                     2999                            9.0    1\rXXR 99"


def test_a_name_with_line_breaks_stays_on_the_trf_header_line(alice, client_for, monkeypatch):
    # As a tournament created before names were checked was.
    monkeypatch.setattr("league.tournaments.services.registration.name_problem", lambda name: None)
    created = client_for(alice).post(
        "/api/tournaments/",
        {"name": FORGED, "game": "dueling-wizards", "format": "swiss", "options": {"rounds": 2}},
        format="json",
    )
    assert created.status_code == 201
    t = Tournament.objects.get(pk=created.json()["id"])
    for user in field(4):
        services.tournament_register(tournament=t, user=user, by=alice, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lambda r: r["players"][0])

    report = client_for().get(f"/api/tournaments/{t.id}/trf.txt").content.decode()
    lines = report.splitlines()  # as a reader splits them: \r, \n and the other line breaks

    assert lines[0].startswith("012 Club Swiss") and "Forged Player" in lines[0]
    assert [line[:3] for line in lines].count("001") == 4
    assert not any("Forged" in line for line in lines[1:])
    assert [line for line in lines if line.startswith("XXR")] == ["XXR 2"]
