"""Shared moves for tournament tests: players, a tournament, everyone registered and started."""

from __future__ import annotations

import inspect
import uuid

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD
from matches.errors import Refusal


def people(*names, staff=False):
    User = get_user_model()
    return [User.objects.create_user(n, password=f"pw-{n}", is_staff=staff) for n in names]


def field(n, prefix="p"):
    return people(*[f"{prefix}{i:02d}" for i in range(1, n + 1)])


def open_tournament(organiser, fmt, players=(), start=False, game="dueling-wizards", **options) -> Tournament:
    t = services.tournament_create(created_by=organiser, name=f"Test {fmt}", game=game, format=fmt, options=options)
    for p in players:
        services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
    if start:
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    return t


def state(t):
    t.refresh_from_db()
    return tournament_state(tournament=t)


def pid(user):
    return str(user.pk)


def open_pairings(t):
    s = state(t)
    return [r for r in s["pairings"].values() if r["status"] == "pending"]


def settle(t, winner_of):
    """Both players report every open pairing of the current state: the first reports,
    the second confirms; ``winner_of(record)`` picks the winner id (None for a draw)."""
    User = get_user_model()
    for record in open_pairings(t):
        w = winner_of(record)
        result = {"draw": True} if w is None else {"winner": w}
        a, b = (User.objects.get(pk=int(p)) for p in record["players"])
        services.tournament_report(tournament=t, pairing=record["id"], user=a, result=result, expected_seq=AT_HEAD)
        services.tournament_confirm(tournament=t, pairing=record["id"], user=b, expected_seq=AT_HEAD)


def lower_id_wins(record):
    return min(record["players"], key=int)


def api_command(client, t, verb, **body):
    """A tournament command as a page sends it: based on the head it shows, with an id of its own."""
    body.setdefault("expected_seq", client.get(f"/api/tournaments/{t.id}/").json()["head_seq"])
    body.setdefault("event_id", str(uuid.uuid4()))
    return client.post(f"/api/tournaments/{t.id}/{verb}/", body, format="json")


def at_head(fn) -> dict:
    """``expected_seq=AT_HEAD`` for a tournament command (a create takes none): tests of a
    refusal run the command at the head, the refusal under test being another."""
    return {"expected_seq": AT_HEAD} if "expected_seq" in inspect.signature(fn).parameters else {}


def refused(code, fn, **kwargs):
    """``fn(**kwargs)`` is refused with ``code``; returns the refusal for further checks."""
    with pytest.raises(Refusal) as exc:
        fn(**kwargs, **at_head(fn))
    assert exc.value.code == code, exc.value.message
    return exc.value
