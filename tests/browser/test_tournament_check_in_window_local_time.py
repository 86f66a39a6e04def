"""The desk's check-in window on a tournament page is typed and shown in the viewer's time zone
(issue 18): the page names the zone, and the server stores the UTC instant of what was typed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from tests.browser.people import fill_until_shown

pytestmark = pytest.mark.browser


def test_a_window_typed_in_kolkata_time_is_stored_as_the_same_instant_in_utc(browser, live, off_loop):
    User = get_user_model()
    org = User.objects.create_user("org", password="pw-org")
    t = off_loop(
        lambda: services.tournament_create(created_by=org, name="Late Cup", game="dueling-wizards", format="swiss")
    )
    # India is five and a half hours ahead of UTC all year: no daylight saving to blur the check.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="Asia/Kolkata")
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{live}/accounts/login/")
        page.fill("#id_username", "org")
        page.fill("#id_password", "pw-org")
        page.click("[data-testid=login] button[type=submit]")
        page.wait_for_selector("[data-testid=whoami]")
        # The new-tournament form names the zone its check-in times are typed in, and sends it.
        page.goto(f"{live}/tournaments/")
        page.wait_for_selector("[data-testid=form-zone]:has-text('Asia/')")
        assert page.input_value("[data-testid=new-tournament] input[name=time_zone]") in (
            "Asia/Kolkata",
            "Asia/Calcutta",
        )
        page.goto(f"{live}/tournaments/{t.id}/")
        page.wait_for_selector("[data-testid=connection]:text('live')")
        # Chromium's ICU still names it by its older spelling.
        assert page.inner_text("[data-testid=check-in-zone]") in ("Asia/Kolkata", "Asia/Calcutta")
        # The page redraws on live updates (its socket has just opened and reloads): type until
        # both fields show the window, as someone at the desk would look before pressing Save.
        fill_until_shown(page, "[data-testid=check-in-opens]", "2027-03-05T18:30")
        fill_until_shown(page, "[data-testid=check-in-closes]", "2027-03-05T19:45")
        assert page.input_value("[data-testid=check-in-opens]") == "2027-03-05T18:30"
        # The command's answer comes after its commit: only then is the window stored to be read.
        # (A wait_for_function whose check fetched the API took its Promise for "true" at once, so
        # under load the read below came before the commit and found the opening time still None.)
        with page.expect_response(
            lambda r: r.url.endswith(f"/api/tournaments/{t.id}/configure/") and r.request.method == "POST"
        ) as answer:
            page.click("[data-testid=save-check-in]")
        assert answer.value.ok, answer.value.text()
        options = tournament_state(tournament=Tournament.objects.get(pk=t.pk))["options"]
        assert dt.datetime.fromisoformat(options["check_in_opens"]) == dt.datetime(2027, 3, 5, 13, 0, tzinfo=dt.UTC)
        assert dt.datetime.fromisoformat(options["check_in_closes"]) == dt.datetime(2027, 3, 5, 14, 15, tzinfo=dt.UTC)

        # A fresh page shows the stored window back in the viewer's time, not in UTC.
        page.reload()
        page.wait_for_selector("[data-testid=connection]:text('live')")
        assert page.input_value("[data-testid=check-in-opens]") == "2027-03-05T18:30"
        assert page.input_value("[data-testid=check-in-closes]") == "2027-03-05T19:45"
    finally:
        context.close()
