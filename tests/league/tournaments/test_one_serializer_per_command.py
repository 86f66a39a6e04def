"""Each tournament API command has its own input serializer: it names what that command takes,
requires what it needs, and all of them carry the stream guards (expected_seq, event_id)."""

from __future__ import annotations

import pytest

from league.tournaments.api import views
from league.tournaments.api.serializers import TournamentCommandSerializer

from .helpers import field
from .test_tournament_api import command, create, events

pytestmark = pytest.mark.django_db


def _fields(serializer):
    return {name: f.required for name, f in serializer().fields.items()}


def test_every_command_has_a_serializer_carrying_the_guards():
    for table in (views.TOURNAMENT_INPUT, views.PAIRING_INPUT):
        for verb, serializer in table.items():
            assert issubclass(serializer, TournamentCommandSerializer), verb
            fields = _fields(serializer)
            assert fields["expected_seq"] and fields["event_id"], verb


def test_each_serializer_names_only_what_its_command_takes():
    guards = {"expected_seq": True, "event_id": True}
    assert _fields(views.TOURNAMENT_INPUT["start"]) == guards
    assert _fields(views.TOURNAMENT_INPUT["seed"]) == {**guards, "method": True, "order": False}
    assert _fields(views.TOURNAMENT_INPUT["timer-extend"]) == {**guards, "minutes": True}
    assert _fields(views.TOURNAMENT_INPUT["timer-start"]) == {**guards, "minutes": False}
    assert _fields(views.PAIRING_INPUT["report"]) == {**guards, "result": True}
    assert _fields(views.PAIRING_INPUT["no-show"]) == {**guards, "absent": True}
    assert _fields(views.PAIRING_INPUT["rule"]) == {**guards, "result": True, "reason": False}


@pytest.mark.parametrize(("verb", "missing"), [("seed", "method"), ("timer-extend", "minutes")])
def test_a_command_without_what_it_needs_is_refused_and_writes_nothing(alice, client_for, verb, missing):
    tid = create(client_for(alice)).json()["id"]
    before = events(tid)
    r = command(client_for(alice), tid, verb)
    assert r.status_code == 400 and missing in str(r.json())
    assert events(tid) == before


def test_a_report_with_an_oversized_result_is_refused(alice, client_for):
    players = field(2)
    tid = create(client_for(alice)).json()["id"]
    for p in players:
        assert command(client_for(p), tid, "register").status_code == 201
    assert command(client_for(alice), tid, "start").status_code == 201
    before = events(tid)
    r = client_for(players[0]).post(
        f"/api/tournaments/{tid}/pairings/M1/report/",
        {"expected_seq": before, "event_id": "6f1c1f4e-1d1e-4c55-9a39-3d6f62a1b001", "result": {"x": "y" * 3000}},
        format="json",
    )
    assert r.status_code == 400
    assert events(tid) == before
