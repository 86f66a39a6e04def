"""The Content-Security-Policy runs no inline script (issue 15, item 5: CSP through a well-kept library;
'unsafe-inline' for scripts let any injected <script> or on*= handler run).

The browser suite (tests/browser/conftest.py) fails any test whose page the policy blocked, so every
page a browser test opens is checked to work under this policy; these tests check the policy itself
and that no template brings an inline script back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]

# A <script> element whose tag has no src= and is not JSON data (json_script's type="application/json"
# is never executed, so the policy does not apply to it).
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.IGNORECASE)
# An inline event handler attribute such as onclick= or onload=.
INLINE_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)


def directive(policy: str, name: str) -> list[str]:
    for part in policy.split(";"):
        words = part.split()
        if words and words[0] == name:
            return words[1:]
    raise AssertionError(f"no {name} in {policy!r}")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/docs/"])
def test_script_src_allows_only_this_site_and_no_inline_script(path):
    policy = Client().get(path)["Content-Security-Policy"]
    assert directive(policy, "script-src") == ["'self'"]
    assert "'unsafe-inline'" not in directive(policy, "script-src")
    assert "'unsafe-eval'" not in policy


def test_no_template_has_an_inline_script_or_event_handler():
    offenders = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text()
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER):
            offenders += [f"{template.relative_to(ROOT)}: {m.group(0)}" for m in pattern.finditer(text)]
    assert offenders == []


def test_the_inline_script_check_catches_what_it_looks_for():
    # The scan above must not pass because its patterns match nothing.
    assert INLINE_SCRIPT.search("<script>MatchClient.live(x);</script>")
    assert not INLINE_SCRIPT.search('<script src="/static/js/match.js"></script>')
    assert not INLINE_SCRIPT.search('<script id="seats-data" type="application/json">[]</script>')
    assert INLINE_HANDLER.search('<button class="x" onclick="go()">')
    assert not INLINE_HANDLER.search('<button data-step="next">')


@pytest.mark.django_db
def test_the_api_docs_page_loads_its_start_up_script_from_a_url_of_its_own():
    # Swagger UI's start-up script used to be inline in the page; now the page names it and the URL serves it.
    page = Client().get("/api/docs/").content.decode()
    assert not INLINE_SCRIPT.search(page)
    script_url = re.findall(r'<script src="([^"]*script=[^"]*)"', page)
    assert len(script_url) == 1
    script = Client().get(script_url[0].replace("&amp;", "&"))
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content and b"/api/schema/" in script.content


@pytest.mark.django_db
def test_the_redoc_page_has_no_inline_script():
    # drf-spectacular's Redoc template writes an inline start-up script when REDOC_UI_SETTINGS is set;
    # without it the page is a <redoc> element and the bundle from this site (SIDECAR), which the policy allows.
    page = Client().get("/api/redoc/").content.decode()
    assert not INLINE_SCRIPT.search(page)
    assert re.findall(r'<script src="(/static/[^"]*redoc[^"]*)"', page)
