"""Accessibility (issue 18, item 8): axe-core finds no serious or critical violation on any main
page, and the main actions are reachable and operable with the keyboard alone."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.main_pages import build_main_pages

pytestmark = pytest.mark.browser


def serious_violations(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at " + ", ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


def test_no_main_page_has_a_serious_or_critical_axe_violation(page_as, live, off_loop):
    pages = build_main_pages(off_loop)
    signed_in = {None: page_as(None), "alice": page_as("alice")}
    found = {}
    for name, (user, path) in pages.items():
        page = signed_in[user]
        page.goto(f"{live}{path}")
        page.wait_for_selector("main")
        page.wait_for_load_state("load")
        violations = serious_violations(page)
        if violations:
            found[name] = violations
    assert not found, "\n".join(f"{name}: {v}" for name, vs in found.items() for v in vs)
