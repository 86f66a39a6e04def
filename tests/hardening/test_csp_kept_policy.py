"""The Content-Security-Policy headers are built once per process and setting (config.middleware
CSPMiddleware; issue 17, P5: django-csp built both policies' text on every response, about 3% of an
action POST's CPU), and every response gets the headers django-csp itself would give it."""

from __future__ import annotations

import csp.middleware
import csp.utils
import pytest
from csp.exceptions import CSPNonceError
from django.http import HttpResponse, JsonResponse
from django.test import RequestFactory

from config.middleware import CSPMiddleware
from tests.matches.helpers import new_duel

HEADERS = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")


def directives(policy: str | None) -> dict[str, list[str]] | None:
    # django-csp lists the directives in a set's order, which changes from one process to the next.
    if policy is None:
        return None
    return {words[0]: words[1:] for words in (part.split() for part in policy.split(";")) if words}


def answered(middleware_class, path: str, make_response, *, use_nonce: bool = False) -> dict:
    request = RequestFactory().get(path)
    middleware = middleware_class(lambda request: make_response())
    middleware.process_request(request)
    if use_nonce:
        str(request.csp_nonce)  # a template that writes the nonce into a <script> tag
    response = middleware.process_response(request, make_response())
    return {header: directives(response.get(header)) for header in HEADERS}


def _with(**attributes):
    def make():
        response = HttpResponse("<p>page</p>")
        for name, value in attributes.items():
            setattr(response, name, value)
        return response

    return make


def _header_set_by_the_view():
    response = JsonResponse({})
    response["Content-Security-Policy"] = "default-src 'none'"
    return response


def _not_found():
    return HttpResponse("missing", status=404)


RESPONSES = {
    "a page": _with(),
    "a JSON answer": lambda: JsonResponse({"code": "stale_seq"}, status=409),
    "a header the view set itself": _header_set_by_the_view,
    "a view's replaced directive (the embed page)": _with(_csp_replace={"frame-ancestors": ["https://club.example"]}),
    "a view's added source": _with(_csp_update={"img-src": ["https://cdn.example"]}),
    "a view's own policy": _with(_csp_config={"default-src": ["'none'"]}),
    "an exempt view": _with(_csp_exempt=True),
    "a report-only exempt view": _with(_csp_exempt_ro=True),
    "a not-found page": _not_found,
}

REPORT_ONLY = {
    "EXCLUDE_URL_PREFIXES": ["/api/"],
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "report-uri": "/csp-reports/",
        "script-src": ["'self'", csp.constants.NONCE],
    },
}


@pytest.fixture(autouse=True)
def _nothing_kept():
    CSPMiddleware._built.clear()
    yield
    CSPMiddleware._built.clear()


@pytest.mark.parametrize("kind", list(RESPONSES))
@pytest.mark.parametrize("path", ["/", "/api/matches/"])
@pytest.mark.parametrize("report_only", [False, True], ids=["enforced only", "with a report-only policy"])
@pytest.mark.parametrize("debug", [False, True], ids=["production", "DEBUG"])
def test_every_response_gets_the_headers_django_csp_would_give_it(kind, path, report_only, debug, settings):
    settings.DEBUG = debug
    if report_only:
        settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = REPORT_ONLY
    make = RESPONSES[kind]
    ours = [answered(CSPMiddleware, path, make) for _ in range(2)]  # the second from what the first kept
    theirs = answered(csp.middleware.CSPMiddleware, path, make)
    assert ours == [theirs, theirs]


@pytest.mark.parametrize("report_only", [False, True], ids=["enforced only", "with a report-only policy"])
def test_a_page_that_used_a_nonce_gets_its_own_nonce_each_time(report_only, settings):
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": ["'self'", csp.constants.NONCE]}}
    if report_only:
        settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = REPORT_ONLY
    first, second = (answered(CSPMiddleware, "/", _with(), use_nonce=True) for _ in range(2))
    nonces = [h["Content-Security-Policy"]["script-src"][1] for h in (first, second)]
    assert all(n.startswith("'nonce-") for n in nonces) and nonces[0] != nonces[1]
    # And a page without one, answered after them, is not given theirs.
    plain = answered(CSPMiddleware, "/", _with())
    assert plain["Content-Security-Policy"]["script-src"] == ["'self'"]


def test_a_nonce_asked_for_after_the_header_was_written_is_refused():
    # django-csp raises rather than hand out a nonce the header no longer names.
    request = RequestFactory().get("/")
    middleware = CSPMiddleware(lambda request: HttpResponse())
    middleware.process_request(request)
    middleware.process_response(request, HttpResponse())
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)


@pytest.mark.django_db
def test_api_posts_build_the_policy_text_once_per_process(alice, bob, client_for, monkeypatch):
    built = []
    real = csp.utils.build_policy
    monkeypatch.setattr(csp.utils, "build_policy", lambda **kw: built.append(kw) or real(**kw))
    monkeypatch.setattr(csp.middleware, "build_policy", lambda **kw: built.append(kw) or real(**kw))
    match = new_duel(alice, bob)
    client = client_for(alice)
    answers = [client.post(f"/api/matches/{match.id}/actions/", {}, format="json") for _ in range(4)]
    assert [a.status_code for a in answers] == [400] * 4
    assert len({a["Content-Security-Policy"] for a in answers}) == 1
    # The policy and the report-only one (empty here), each once; they were both built per response.
    assert len(built) == 2


def test_a_changed_setting_changes_the_kept_header(settings):
    before = answered(CSPMiddleware, "/", _with())
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    after = answered(CSPMiddleware, "/", _with())
    assert before["Content-Security-Policy"]["default-src"] == ["'self'"]
    assert after["Content-Security-Policy"] == {"default-src": ["'none'"]}
