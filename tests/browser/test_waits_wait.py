"""A browser test's wait_for_function waits (issue 17). Playwright tests its check's value for
truth and never awaits it, so a check that fetched the API passed at once, whatever the answer: the
check-in window test then read the tournament before the Save's commit and found no opening time.
The browser fixture makes such a check an error (conftest.refusing_promises)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

pytestmark = pytest.mark.browser


def test_a_check_that_fetches_is_refused_instead_of_passing_at_once(page_as, live):
    page = page_as(None)
    page.goto(f"{live}/tournaments/")
    with pytest.raises(PlaywrightError, match="returned a Promise"):
        # No tournament exists: the answer is false, and the wait must not end as if it were true.
        page.wait_for_function(
            "() => fetch('/api/tournaments/').then((r) => r.json()).then((d) => d.results.length > 0)"
        )


def test_checks_that_give_a_value_still_wait_until_it_holds(page_as, live):
    page = page_as(None)
    page.goto(f"{live}/tournaments/")
    page.evaluate("() => { setTimeout(() => { window.__ready = 2; }, 0); }")
    assert page.wait_for_function("n => window.__ready === n && n", arg=2).json_value() == 2
    assert page.wait_for_function("window.__ready === 2").json_value() is True
    assert page.main_frame.wait_for_function("() => window.__ready").json_value() == 2
