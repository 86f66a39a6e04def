"""A league organiser runs a season from the pages alone (issue 18): names a coach, schedules a
season in two divisions, postpones a fixture, awards a walkover, corrects a result and closes the
season with promotion and relegation, confirming each ruling."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.seasons import services

pytestmark = pytest.mark.browser


def test_an_organiser_runs_a_season_from_the_pages_with_each_ruling_confirmed(page_as, live, off_loop):
    User = get_user_model()

    def setup():
        olga = User.objects.create_user("olga", password="pw-olga")
        User.objects.create_user("cody", password="pw-cody")
        league = services.league_create(slug="moon", name="Moon League", game="wizard-dodgeball", created_by=olga)
        for slug in ("reds", "blues", "greens", "golds"):
            services.club_create(league=league, user=olga, slug=slug, name=slug.title())

    off_loop(setup)
    page = page_as("olga")
    page.goto(f"{live}/leagues/moon/")
    page.click("[data-testid=organise]")

    # A coach for a club.
    page.fill("#coach-reds", "cody")
    page.click("[data-testid=add-coach-reds]")
    page.wait_for_selector("[data-testid=coaches-reds]:text('cody')")

    # A season: two divisions of two, one round robin, one up and one down.
    page.click("[data-testid=new-season]")
    page.fill("#id_division_names", "Upper, Lower")
    page.fill("#id_start_date", "2027-09-06")
    page.uncheck("#id_double")
    page.fill("#id_promote", "1")
    page.fill("#id_relegate", "1")
    for slug, division in (("reds", "1"), ("blues", "1"), ("greens", "2"), ("golds", "2")):
        page.select_option(f"#id_club_{slug}", division)
    page.click("[data-testid=create-season]")
    page.wait_for_url(f"{live}/leagues/moon/seasons/1/")
    page.wait_for_selector("h3.division:text('Upper')")
    upper = page.locator("tr[data-testid^=fixture-]", has_text="Reds").get_attribute("data-testid")[len("fixture-") :]
    lower = page.locator("tr[data-testid^=fixture-]", has_text="Golds").get_attribute("data-testid")[len("fixture-") :]

    # Postpone the upper fixture, then award it as a walkover to Blues.
    page.click(f"[data-testid='rule-{upper}']")
    form = page.locator("[data-testid=rule-postpone]")
    form.locator("input[name=date]").fill("2027-10-04")
    form.locator("textarea[name=reason]").fill("The pitch froze")
    form.locator("input[name=confirm]").check()
    form.locator("[data-testid=do-postpone]").click()
    page.wait_for_selector(".flash:text('Postponed to 4 October 2027')")
    assert "Postponed" in page.inner_text(f"[data-testid='fixture-{upper}']")

    page.click(f"[data-testid='rule-{upper}']")
    form = page.locator("[data-testid=rule-walkover]")
    assert not form.locator("input[name=winner]:checked").count()  # no winner chosen for the organiser
    form.get_by_label("Blues").check()
    form.locator("textarea[name=reason]").fill("Reds did not travel")
    form.locator("input[name=confirm]").check()
    form.locator("[data-testid=do-walkover]").click()
    page.wait_for_selector(".flash:text('Walkover awarded to Blues')")

    # Correct the lower fixture's result: Golds win 3-1.
    page.click(f"[data-testid='rule-{lower}']")
    home_is_golds = page.inner_text("h1").startswith("Golds")
    form = page.locator("[data-testid=rule-correct]")
    form.locator("input[name=home_left]").fill("3" if home_is_golds else "1")
    form.locator("input[name=away_left]").fill("1" if home_is_golds else "3")
    form.locator("textarea[name=reason]").fill("The scoresheet was misread")
    form.locator("input[name=confirm]").check()
    form.locator("[data-testid=do-correct]").click()
    page.wait_for_selector(".flash:text('Result corrected')")

    # Close: the confirmation page shows the movement rule; the season page then shows who moved.
    page.click("[data-testid=close-season]")
    page.wait_for_selector("[data-testid=movement-rules]")
    page.locator("[data-testid=close-form] input[name=confirm]").check()
    page.click("[data-testid=do-close]")
    page.wait_for_selector("[data-testid=season-closed]")
    closed = page.inner_text("[data-testid=season-closed]")
    assert "Lower → Upper: promoted Golds; relegated Reds." in closed

    # The coach sees the season but none of the organiser's controls.
    coach = page_as("cody")
    coach.goto(f"{live}/leagues/moon/seasons/1/")
    coach.wait_for_selector("[data-testid=season-closed]")
    assert coach.locator("[data-testid^=rule-], [data-testid=organiser-links]").count() == 0
