"""A signed-in browser's cookie goes with every request, whoever's page sends it: each write made
with the cookie needs the CSRF token another site cannot read. No page view is exempt, the API's
session authentication checks the token, and a form posted without it changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.settings import api_settings

from league.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def views(patterns=None, prefix=""):
    for p in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(p, URLResolver):
            yield from views(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.callback


def test_no_page_view_is_exempt_from_the_csrf_check():
    exempt = [
        path
        for path, view in views()
        # DRF marks its views exempt and checks the token itself in SessionAuthentication (below);
        # the admin is Django's own.
        if getattr(view, "csrf_exempt", False) and not hasattr(view, "cls") and not path.startswith("admin/")
    ]
    assert exempt == []


def test_the_api_checks_the_csrf_token_of_every_cookie_signed_request():
    for path, view in views():
        cls = getattr(view, "cls", None)
        if cls is None:
            continue
        for auth in getattr(cls, "authentication_classes", api_settings.DEFAULT_AUTHENTICATION_CLASSES):
            if issubclass(auth, SessionAuthentication):
                assert auth.enforce_csrf is SessionAuthentication.enforce_csrf, path


def signed_in(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def test_forms_and_api_writes_sent_with_the_cookie_but_without_the_token_are_refused(alice):
    client = signed_in(alice)
    token, _ = Token.objects.get_or_create(user=alice)
    before = token.key

    assert client.post("/accounts/").status_code == 403  # rotate the API token
    assert (
        client.post("/tournaments/", {"name": "Cup", "game": "dueling-wizards", "format": "swiss"}).status_code == 403
    )
    assert client.post("/tournaments/emails/", {"opted_out": "1"}).status_code == 403
    api = client.post(
        "/api/tournaments/",
        {"name": "Cup", "game": "dueling-wizards", "format": "swiss"},
        content_type="application/json",
    )
    assert api.status_code == 403 and "CSRF" in api.json()["detail"]

    assert Token.objects.get(user=alice).key == before
    assert not Tournament.objects.exists()
