"""Work every API request did again although its answer does not change between requests (issue 17,
P5: fifty action POSTs at once in one daphne wait on each other's CPU): the sign-in throttle's
URLs and the renderer chosen for the usual Accept headers. Each is now worked out once per process
and setting, and each answer is the one it was."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import set_script_prefix
from rest_framework import negotiation
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer, TemplateHTMLRenderer
from rest_framework.request import Request

from config import middleware
from tests.matches.helpers import new_duel

pytestmark = pytest.mark.django_db


def _counted(monkeypatch, module, name: str) -> list:
    calls = []
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def test_api_posts_do_not_resolve_the_sign_in_urls_each_time(alice, bob, client_for, monkeypatch):
    match = new_duel(alice, bob)
    reversed_ = _counted(monkeypatch, middleware, "reverse")
    client = client_for(alice)
    for _ in range(3):
        answer = client.post(f"/api/matches/{match.id}/actions/", {}, format="json")
        assert answer.status_code == 400
    # Four names at most, once (the first request of a process); they were four per POST.
    assert len(reversed_) <= 4


def test_sign_in_attempts_are_still_counted_after_the_urls_are_kept(settings):
    settings.THROTTLE_AUTH = "2/minute"
    client = Client()
    codes = [client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code for _ in range(3)]
    assert codes[-1] == 429 and 429 not in codes[:2]


def test_the_sign_in_urls_follow_the_script_prefix():
    try:
        set_script_prefix("/games/")
        under_prefix = middleware.sign_in_paths()
        set_script_prefix("/")
        at_root = middleware.sign_in_paths()
    finally:
        set_script_prefix("/")
    assert "/accounts/login/" in at_root
    assert "/games/accounts/login/" in under_prefix


ACCEPTS = [None, "*/*", "application/json", "application/json; indent=4", "text/html", "text/html, */*;q=0.8", ""]


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api"])
@pytest.mark.parametrize("renderers", [[JSONRenderer, BrowsableAPIRenderer], [BrowsableAPIRenderer, JSONRenderer]])
def test_the_api_chooses_the_renderer_drf_would(accept, query, renderers):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}

    def choose(negotiator):
        request = Request(RequestFactory().get(f"/api/engines/{query}", **headers))
        try:
            renderer, media_type = negotiator.select_renderer(request, [r() for r in renderers])
        except Exception as refused:
            return type(refused)
        return type(renderer), media_type

    for _ in range(2):  # the second time from what the first kept
        assert choose(middleware.ApiContentNegotiation()) == choose(DefaultContentNegotiation())


def test_a_view_without_a_json_renderer_is_still_refused_for_json():
    request = Request(RequestFactory().get("/x/", HTTP_ACCEPT="application/json"))
    for _ in range(2):
        with pytest.raises(Exception) as refused:
            middleware.ApiContentNegotiation().select_renderer(request, [TemplateHTMLRenderer()])
        assert type(refused.value).__name__ == "NotAcceptable"


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_the_usual_accept_headers_are_not_parsed_on_every_request(accept, monkeypatch):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    client = Client()
    assert client.get("/api/engines/", **headers).status_code == 200
    parsed = _counted(monkeypatch, negotiation, "_MediaType")
    for _ in range(3):
        answer = client.get("/api/engines/", **headers)
        assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert parsed == []
