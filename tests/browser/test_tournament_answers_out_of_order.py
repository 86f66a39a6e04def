"""A command's answer that arrives after a newer one must not take the page back (found by
scripts/test-browser-under-load: a registration's row vanished and never came back). The page
holds the first registration's answer until the second registration has shown, then lets it
through: both players stay listed."""

from __future__ import annotations

import pytest

from league.tournaments import services
from tests.browser.people import users

pytestmark = pytest.mark.browser

# The first answer to a registration is held until the test releases it. Its body is read before
# the hold, so after the release the page parses it at once; `__staleSeen` is set one task after
# the page has had the answer (its own handling runs in the microtasks before that task).
HOLD_FIRST_REGISTRATION = """
(() => {
  const original = window.fetch.bind(window);
  let held = false;
  window.fetch = async (url, init) => {
    const response = await original(url, init);
    if (held || !String(url).endsWith("/register/")) return response;
    held = true;
    const text = await response.text();
    window.__firstAnswerHeld = true;
    await new Promise((release) => { window.__release = release; });
    const late = new Response(text, { status: response.status, headers: response.headers });
    const parse = late.json.bind(late);
    late.json = async () => { const value = await parse(); setTimeout(() => { window.__staleSeen = true; }, 0); return value; };
    return late;
  };
})();
"""


def test_an_older_answer_arriving_late_does_not_take_the_page_back(page_as, live, off_loop):
    (org,) = users("org")
    users("ann", "bob")
    t = off_loop(
        lambda: services.tournament_create(created_by=org, name="Late answers", game="dueling-wizards", format="swiss")
    )
    page = page_as("org")
    page.add_init_script(HOLD_FIRST_REGISTRATION)
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")

    page.fill("[data-testid=add-player-name]", "ann")
    page.click("[data-testid=add-player]")
    page.wait_for_function("() => window.__firstAnswerHeld === true")
    # The socket's announcement brings ann in while her answer is still held.
    page.wait_for_selector("[data-testid=players] li[data-player='ann']")

    page.fill("[data-testid=add-player-name]", "bob")
    page.click("[data-testid=add-player]")
    page.wait_for_selector("[data-testid=players] li[data-player='bob']")

    page.evaluate("() => window.__release()")
    page.wait_for_function("() => window.__staleSeen === true")
    assert page.locator("[data-testid=players] li[data-player='ann']").count() == 1
    assert page.locator("[data-testid=players] li[data-player='bob']").count() == 1
    assert "2 registered" in page.inner_text("[data-testid=status]")
