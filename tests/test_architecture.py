"""Imports point one way (docs/ARCHITECTURE.md): league -> matches -> audit -> engines.

Read from the source, not from what happens to be imported: every import statement of every
module, including ones inside functions, is checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: package -> the project packages it must never import (Django and its kin count for the pure ones).
FORBIDDEN = {
    "engines": {"django", "rest_framework", "channels", "celery", "config", "matches", "league", "audit"},
    "audit": {"django", "rest_framework", "channels", "celery", "config", "matches", "league"},
    "matches": {"league"},
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_one_way(package):
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in imports_of(path):
            if module.split(".")[0] in FORBIDDEN[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


def test_the_check_itself_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from league import models\n")
    assert imports_of(sample) == [(2, "league")]


#: Games whose bots still import their engine module, which imports the bots back inside a
#: function (a cycle): SpellCaster's bots, views and hidden-information code read helpers kept in
#: engine.py. Wizard Dodgeball's was broken by handing the bot its engine.
BOTS_STILL_IMPORTING_THEIR_ENGINE = {"spellcaster"}


def engine_modules_imported_by(path: Path) -> set[str]:
    """Which sibling modules of an engine package ``path`` imports (relative or absolute)."""
    package = path.parent.name
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1:
            found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        elif node.level == 0 and (node.module or "").startswith(f"engines.{package}."):
            found.add(node.module.split(".")[2])
    return found


def test_a_games_bots_receive_their_engine_instead_of_importing_it():
    # engine.bot_action passes ``self`` to the bot: the bot plays by the rules of the match's own
    # version, and engine.py may import bots.py at the top without a cycle.
    importing = {
        path.parent.name
        for path in sorted((ROOT / "engines").glob("*/bots.py"))
        if "engine" in engine_modules_imported_by(path)
    }
    assert importing == BOTS_STILL_IMPORTING_THEIR_ENGINE
