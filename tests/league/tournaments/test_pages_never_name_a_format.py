"""The tournament pages (their script and templates) draw what ``format_info`` and the Format
object say, never a format's name: a new format is one module, and the page follows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from league.tournaments import selectors
from league.tournaments.formats import registry

from .helpers import field, open_tournament, people

ROOT = Path(__file__).resolve().parents[3]
PAGES = [
    *sorted((ROOT / "static" / "js" / "tournaments").glob("*.js")),
    ROOT / "static" / "js" / "pages" / "tournament.js",
    *sorted((ROOT / "templates" / "tournaments").rglob("*.html")),
]


def format_names_in(text: str) -> list[str]:
    # A quoted format name ("swiss", 'pods') or a comparison with the format's name.
    quoted = re.compile("[\"'](" + "|".join(map(re.escape, registry.names())) + ")[\"']")
    compared = re.compile(r"\bformat\s*(===?|!==?|==|!=)|(===?|!==?)\s*\w*\.?format\b|\.format\)")
    return [m.group(0) for line in text.splitlines() for m in (quoted.search(line), compared.search(line)) if m]


def test_the_tournament_script_and_templates_compare_no_format_names():
    offenders = []
    for path in PAGES:
        assert path.exists(), path
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if format_names_in(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert offenders == []


@pytest.mark.parametrize(
    "line",
    [
        'const pod = data.format === "pods";',
        'if (["swiss", "pods"].includes(data.format)) {',
        '{% if t.format == "swiss" %}',
        "{% if s.format != 'pods' %}",
    ],
)
def test_the_check_catches_the_name_comparisons_the_page_used_to_make(line):
    assert format_names_in(line)


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", registry.names())
def test_format_info_says_what_the_page_draws_for_every_format(fmt):
    (alice,) = people("alice")
    game = "wizard-dodgeball" if registry.get(fmt).pods else "dueling-wizards"
    t = open_tournament(alice, fmt, field(8), start=True, game=game)
    info = selectors.tournament_summary(tournament=t, user=alice)["format_info"]
    f = registry.get(fmt)
    assert info["draws"] == f.draws and info["late_entry"] == f.late_entry
    assert info["multiplayer"] == f.pods and info["trf_export"] == f.trf_export
    assert info["cross_table"] == f.cross_table and info["elimination"] == f.elimination
    assert info["offers_cut"] == f.offers_cut and info["has_cut"] == f.always_cut
    assert info["bracket_title"] == ("Bracket" if f.elimination else "Playoff")
