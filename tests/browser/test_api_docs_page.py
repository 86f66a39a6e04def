"""The API docs page works under a Content-Security-Policy without 'unsafe-inline' for scripts
(issue 15, item 5): Swagger UI's start-up script comes from a URL of its own. The page_as fixture
fails the test if the policy blocks anything on the page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_visitor_reads_the_api_docs_with_the_operations_listed(page_as, live):
    page = page_as(None)
    page.goto(f"{live}/")
    page.click("nav >> text=API")
    # Swagger UI draws the schema's title and one block per operation once its script has run; it
    # fetches and renders a large schema first, which on a busy machine takes longer than a click.
    page.wait_for_selector(".swagger-ui .info .title >> text=Wizard Duels API", timeout=30_000)
    page.wait_for_selector(".swagger-ui .opblock-summary-path >> text=/api/matches/")
    assert page.locator(".swagger-ui .opblock").count() > 10
