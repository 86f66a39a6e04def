"""What a person sees at a wrong address or when the server fails: our pages, not Django's."""

import re

import pytest
from django.test import Client, RequestFactory

from config import urls as root_urls

pytestmark = pytest.mark.django_db


def test_an_unknown_page_is_a_friendly_404_that_links_back_into_the_site():
    response = Client().get("/no/such/page-here/")
    assert response.status_code == 404
    body = response.content.decode()
    # The page's own section, not the site's menu (which links everywhere on every page).
    section = re.search(r'<section class="error-page" data-testid="not-found">(.*?)</section>', body, re.S).group(1)
    assert "/no/such/page-here/" in section
    assert {'href="/"', 'href="/tournaments/"', 'href="/drafts/"'} <= set(re.findall(r'href="[^"]*"', section))


def test_an_unknown_api_address_stays_json_not_the_page():
    response = Client().get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_500_page_renders_without_a_request_or_a_database():
    # Django renders 500.html with no request context: a page that needed the user, a
    # context processor or a query would fail again while reporting the first failure.
    request = RequestFactory().get("/some/page/")
    response = root_urls.handler500(request)
    assert response.status_code == 500
    body = response.content.decode()
    assert 'data-testid="server-error"' in body
    assert "Traceback" not in body
