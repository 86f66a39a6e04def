"""Each format is one class behind one interface, found by the registry: a new format is one
module in league/tournaments/formats/ and nothing else in the package names a format."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import textwrap
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.tournaments import formats as formats_package
from league.tournaments import selectors, services
from league.tournaments.formats import registry
from league.tournaments.formats.base import EliminationFormat, Format
from league.tournaments.models import Tournament
from matches.commands import AT_HEAD
from matches.errors import Refusal

from .helpers import field, open_tournament, people, state

PACKAGE = Path(selectors.__file__).parent
BUILT_IN = ("single_elimination", "double_elimination", "round_robin", "swiss", "groups_playoff", "pods")


def test_the_registry_finds_every_built_in_format_in_the_forms_order():
    assert registry.names() == BUILT_IN
    assert all(isinstance(f, Format) and f.label for f in registry.all_formats())


def test_every_built_in_format_fills_in_the_parts_of_the_interface_the_base_leaves_open():
    # base.py's next_round (and an elimination format's bracket_shape) raise NotImplementedError: a
    # format that forgot one would fail only when an event first reached it, mid-tournament.
    for fmt in registry.all_formats():
        kind = type(fmt)
        assert kind.next_round is not Format.next_round, kind.__name__
        if isinstance(fmt, EliminationFormat):
            assert kind.bracket_shape is not EliminationFormat.bracket_shape, kind.__name__


def test_every_module_of_the_formats_package_defines_a_format_the_registry_knows():
    for info in pkgutil.iter_modules(formats_package.__path__):
        if info.name in ("base", "registry"):
            continue
        module = importlib.import_module(f"league.tournaments.formats.{info.name}")
        own = [
            v
            for v in vars(module).values()
            if isinstance(v, type) and issubclass(v, Format) and v.__module__ == module.__name__ and v.name
        ]
        assert own, f"formats/{info.name}.py defines no format"
        assert all(registry.get(v.name).__class__ is v for v in own)


def test_no_tournament_module_outside_the_formats_names_a_format():
    # The pure bracket module builds the two bracket shapes by name; everything else asks
    # the format object (formats.registry) what it does.
    named = re.compile("[\"'](" + "|".join(BUILT_IN) + ")[\"']")
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(("formats/", "migrations/")) or relative == "brackets.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if named.search(line):
                offenders.append(f"{relative}:{number}: {line.strip()}")
    assert offenders == []


def test_selectors_never_import_services():
    imported = set()
    for node in ast.walk(ast.parse((PACKAGE / "selectors.py").read_text())):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(alias.name for alias in node.names if not node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not [name for name in imported if "services" in name]


@pytest.mark.django_db
def test_reading_a_tournament_whose_cache_is_behind_writes_nothing():
    (alice,) = people("alice")
    t = open_tournament(alice, "swiss", field(4), start=True)
    behind = state(t)
    Tournament.objects.filter(pk=t.pk).update(state={**behind, "seq": 1}, state_seq=1)
    t.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        read = selectors.tournament_state(tournament=t)
    assert read["seq"] == behind["seq"]
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))]
    assert writes == []
    assert Tournament.objects.get(pk=t.pk).state_seq == 1


LADDER = '''
from league.tournaments.formats.base import Format


class Ladder(Format):
    """Neighbours in the entry order meet, once."""

    name = "ladder"
    label = "Ladder"
    position = 99

    def next_round(self, state, number):
        order = [p for p in state["entry_order"] if state["players"][p]["status"] == "active"]
        pairs = [order[i : i + 2] for i in range(0, len(order) - 1, 2)]
        pairings = [{"id": f"r{number}-{b}", "board": b, "players": p} for b, p in enumerate(pairs, start=1)]
        return {"round": number, "pairings": pairings, "method": "ladder"}

    def planned_rounds(self, state):
        return 1
'''


@pytest.fixture
def ladder_module(tmp_path, monkeypatch):
    (tmp_path / "ladder.py").write_text(textwrap.dedent(LADDER))
    monkeypatch.setattr(formats_package, "__path__", [*formats_package.__path__, str(tmp_path)])
    registry._formats.cache_clear()
    yield
    registry._formats.cache_clear()


@pytest.mark.django_db
def test_a_new_format_is_one_module_the_services_then_run(ladder_module):
    (alice,) = people("alice")
    players = field(4)
    t = open_tournament(alice, "ladder", players, start=True)
    s = state(t)
    assert s["format"] == "ladder"
    assert [r["players"] for r in s["pairings"].values()] == [
        [str(players[0].pk), str(players[1].pk)],
        [
            str(players[2].pk),
            str(players[3].pk),
        ],
    ]
    for record in list(s["pairings"].values()):
        services.tournament_rule(
            tournament=t, pairing=record["id"], by=alice, result={"winner": record["players"][0]}, expected_seq=AT_HEAD
        )
    info = selectors.tournament_summary(tournament=t, user=alice)
    assert info["progress"]["finished"] is True
    assert [r["name"] for r in info["standings"]["tables"][0]["rows"][:2]] == ["p01", "p03"]


@pytest.mark.django_db
def test_an_unknown_format_is_refused_by_name():
    (alice,) = people("alice")
    with pytest.raises(Refusal) as exc:
        services.tournament_create(created_by=alice, name="x", game="dueling-wizards", format="ladder")
    assert exc.value.code == "bad_format"
    assert "swiss" in exc.value.message
