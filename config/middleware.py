"""Request bounds and the JSON error contract at the edge.

Everything a client can send is bounded before a view reads it: the body's size (413), NUL bytes and
bad UTF-8 in the query string or path (400), and, for JSON bodies, the nesting depth, NUL and lone
surrogates in strings, and non-finite or oversized numbers (400). Under /api/ every error a client can
meet is ``{"code", "detail"}`` JSON, including the ones Django answers before any view runs (an
unknown address) and the ones no view expected (a database that went away: 503).
"""

from __future__ import annotations

import json
import logging
import math
import re
from urllib.parse import unquote_to_bytes

import csp.constants
import csp.middleware
import csp.utils
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.core.signals import setting_changed
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import get_script_prefix, get_urlconf, reverse
from rest_framework import exceptions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser

log = logging.getLogger(__name__)

#: JSON numbers beyond this magnitude lose precision in most clients (IEEE doubles) and overflow
#: PostgreSQL's bigint columns; no field of this API needs one.
MAX_JSON_INT = 2**53


def is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def error(request, code: str, detail: str, status: int) -> HttpResponse:
    if is_api(request):
        return JsonResponse({"code": code, "detail": detail}, status=status)
    return HttpResponse(f"{detail}\n", status=status, content_type="text/plain; charset=utf-8")


#: What each status means when Django (not a view) produced it, for the JSON contract.
STATUS_CODES = {
    400: ("bad_request", "The request is not valid."),
    403: ("permission_denied", "You may not do that."),
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not accept that method."),
    413: ("body_too_large", "The request body is too large."),
    429: ("throttled", "Too many requests; wait a moment."),
    500: ("internal_error", "Something went wrong on our side; nothing you sent was the cause."),
    503: ("unavailable", "The service is briefly unavailable; try again in a moment."),
}


DATABASE_DOWN = "The database is briefly unavailable; try again in a moment."

#: A page made without a request context or the database (the database is what is missing).
DATABASE_DOWN_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back in a moment · Wizard Duels</title><link rel="stylesheet" href="{css}"></head>
<body><header class="top"><a class="brand" href="/">✦ Wizard Duels</a></header>
<main><section class="error-page" data-testid="database-unavailable">
<h1>Back in a moment</h1>
<p>The database is briefly unavailable; try again in a moment. Every move the board showed is stored.</p>
</section></main></body></html>
"""


def database_down(request) -> HttpResponse:
    """503 with Retry-After: JSON ``database_unavailable`` under /api/, a page elsewhere (a 500
    page would say something broke; the client only has to come back)."""
    if is_api(request):
        return JsonResponse(
            {"code": "database_unavailable", "detail": DATABASE_DOWN}, status=503, headers={"Retry-After": "5"}
        )
    from django.templatetags.static import static

    return HttpResponse(
        DATABASE_DOWN_PAGE.replace("{css}", static("css/site.css")),
        status=503,
        headers={"Retry-After": "5"},
        content_type="text/html; charset=utf-8",
    )


class ApiErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refusal = self.refuse(request)
        if refusal is not None:
            return refusal
        response = self.get_response(request)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            code, detail = STATUS_CODES.get(
                response.status_code, STATUS_CODES[400 if response.status_code < 500 else 500]
            )
            retry_after = response.get("Retry-After")
            response = JsonResponse({"code": code, "detail": detail}, status=response.status_code)
            if retry_after is not None:
                # A view rendering its errors in another type (the schema's OpenAPI renderers) still
                # tells a throttled client when to come back.
                response["Retry-After"] = retry_after
        return response

    def process_exception(self, request, exc):
        if isinstance(exc, RequestDataTooBig):
            return error(request, "body_too_large", _too_large_detail(), 413)
        if isinstance(exc, (OperationalError, InterfaceError)):
            log.warning("Database unavailable on %s: %s", request.path, exc)
            return database_down(request)
        if not is_api(request):
            return None
        if isinstance(exc, TooManyFieldsSent):
            limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
            return error(request, "too_many_fields", f"The request sends more than {limit} fields.", 400)
        if isinstance(exc, SuspiciousOperation):
            # Django refuses such a request before the view sees it (too many files, a bad host...):
            # the sender's fault, never a 500.
            code, detail = STATUS_CODES[400]
            return error(request, code, detail, 400)
        if isinstance(exc, RecursionError):
            return JsonResponse({"code": "too_deep", "detail": "The request nests too deeply."}, status=400)
        log.exception("Unexpected error on %s", request.path)
        code, detail = STATUS_CODES[500]
        return JsonResponse({"code": code, "detail": detail}, status=500)

    @staticmethod
    def refuse(request) -> HttpResponse | None:
        if "\x00" in request.path:
            return error(request, "nul_byte", "The address contains a NUL byte.", 400)
        raw = request.META.get("QUERY_STRING", "")
        if raw:
            decoded = unquote_to_bytes(raw.replace("+", " ").encode("latin-1", "replace"))
            if b"\x00" in decoded:
                return error(request, "nul_byte", "The query string contains a NUL byte.", 400)
            try:
                decoded.decode("utf-8")
            except UnicodeDecodeError:
                return error(request, "bad_encoding", "The query string is not valid UTF-8.", 400)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return error(request, "bad_request", "Content-Length is not a number.", 400)
        if length > settings.API_MAX_BODY_BYTES:
            return error(request, "body_too_large", _too_large_detail(), 413)
        if length and is_api(request) and request.content_type == "application/json":
            # Checked here, before any view: a view that looks its object up first would otherwise
            # answer 404 for one id and parse the same deep body for another.
            limit = settings.API_MAX_JSON_DEPTH
            if json_depth(request.body, limit) > limit:
                return error(request, "too_deep", f"JSON nests deeper than {limit} levels.", 400)
        return None


def _too_large_detail() -> str:
    return f"The request body is larger than {settings.API_MAX_BODY_BYTES} bytes."


def _is_json(response) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


TOO_MANY_ATTEMPTS = "Too many sign-in attempts from your address in a short time."


class AuthThrottleMiddleware:
    """Bounds sign-in and sign-up attempts per address (django-axes locks a username after repeated
    failures; this keeps one address from trying many usernames, or creating accounts in bulk)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # The admin's sign-in checks any account's password, as ours does, and the password page
        # checks the old one: they share the budget.
        # request.path, not path_info: reverse() gives each URL with the script prefix, and so does
        # request.path (path_info drops it, so under a prefix no attempt was counted).
        if request.method == "POST" and request.path in sign_in_paths():
            count, seconds = _parse_rate(settings.THROTTLE_AUTH)
            # The window opens at an address's first attempt and closes `seconds` later (the
            # counter's expiry; incr keeps it). Windows on the clock's minutes would let twice
            # the rate through across a minute's turn, and cut a burst in two.
            key = f"auth-throttle:{client_address(request)}"
            cache.add(key, 0, timeout=seconds)
            try:
                seen = cache.incr(key)
            except ValueError:  # expired between add and incr
                seen = 1
            if seen > count:
                # Each of these is a page's form: its visitor gets a page, as for every other
                # refusal, not a bare line of text.
                context = {"wait": seconds, "why": TOO_MANY_ATTEMPTS}
                response = render(request, "429.html", context, status=429)
                response["Retry-After"] = str(seconds)
                return response
        return self.get_response(request)


#: The URLs of the forms AuthThrottleMiddleware counts, by (URLconf, request's URLconf, script prefix).
_SIGN_IN_PATHS: dict[tuple, tuple[str, ...]] = {}


def sign_in_paths() -> tuple[str, ...]:
    """The sign-in, sign-up, admin sign-in and password-change URLs, as ``reverse`` gives them now.
    Resolved once per URLconf and script prefix, not on every POST: four reverses were about 3% of
    an action POST's CPU (issue 17, P5), and their answer changes only with what keys them."""
    key = (settings.ROOT_URLCONF, get_urlconf(), get_script_prefix())
    paths = _SIGN_IN_PATHS.get(key)
    if paths is None:
        paths = _SIGN_IN_PATHS[key] = tuple(
            reverse(name) for name in ("login", "signup", "admin:login", "password_change")
        )
    return paths


@receiver(setting_changed)
def _forget_sign_in_paths(*, setting, **kwargs) -> None:
    if setting == "ROOT_URLCONF":  # a test's URLconf of the same name as another's
        _SIGN_IN_PATHS.clear()


def client_address(request) -> str:
    """The caller's address as the outermost of PROXY_COUNT trusted proxies saw it (as DRF's
    throttles read it, and django-axes through AXES_CLIENT_IP_CALLABLE), else the socket's peer."""
    return _address(request.META.get("HTTP_X_FORWARDED_FOR", ""), request.META.get("REMOTE_ADDR", ""))


def _address(forwarded: str, peer: str) -> str:
    if settings.PROXY_COUNT and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-min(settings.PROXY_COUNT, len(hops))]
    return peer


class SocketOpenThrottle:
    """ASGI middleware bounding websocket opens per address (THROTTLE_SOCKETS), as DRF's throttles
    bound API requests: an open reads the match and sends its whole view, like GET .../events/,
    and nothing else counted them. A refused open is closed before the session, the user or the
    match is read, with code 4429 (a page retries with its backoff)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        count, seconds = _parse_rate(settings.THROTTLE_SOCKETS)
        headers = dict(scope.get("headers") or [])
        peer = (scope.get("client") or [""])[0] or ""
        key = f"socket-throttle:{_address(headers.get(b'x-forwarded-for', b'').decode('latin-1'), peer)}"
        # The window opens at the address's first open and closes `seconds` later (AuthThrottleMiddleware).
        await cache.aadd(key, 0, timeout=seconds)
        try:
            seen = await cache.aincr(key)
        except ValueError:  # expired between add and incr
            seen = 1
        if seen > count:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 4429})
            return
        await self.app(scope, receive, send)


def _parse_rate(rate: str) -> tuple[int, int]:
    count, _, period = rate.partition("/")
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


# JSON bodies -------------------------------------------------------------------------------------

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(rb"[\[\]{}]")


def json_depth(raw: bytes, limit: int) -> int:
    """How deeply the document nests (stops counting past ``limit``), without parsing it: the
    parser itself recurses, and a deep enough document raised RecursionError inside it."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub(b'""', raw)):
        if match.group() in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if len(raw) > settings.API_MAX_BODY_BYTES:
            raise BodyTooLarge()
        if json_depth(raw, settings.API_MAX_JSON_DEPTH) > settings.API_MAX_JSON_DEPTH:
            raise exceptions.ParseError(
                f"JSON nests deeper than {settings.API_MAX_JSON_DEPTH} levels.", code="too_deep"
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.ParseError("The body is not valid UTF-8.", code="bad_encoding") from None
        try:
            data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
        except _BadNumber as exc:
            raise exceptions.ParseError(str(exc), code="bad_number") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        _check_values(data)
        return data


class BodyTooLarge(exceptions.APIException):
    status_code = 413
    default_code = "body_too_large"
    default_detail = "The request body is too large."


class _BadNumber(ValueError):
    pass


def _refuse_constant(name: str):
    raise _BadNumber(f"{name} is not a JSON number.")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(f"{text} is out of range.")
    return value


def _check_values(data) -> None:
    """NUL and lone surrogates cannot be stored (PostgreSQL refuses them in text and jsonb), and
    integers past 2**53 overflow the database's columns: refuse them here, as bad input."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                _check_string(key)
                stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            _check_string(value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_JSON_INT:
            raise exceptions.ParseError(f"{value} is too large a number (at most 2**53).", code="bad_number")


def _check_string(value: str) -> None:
    if "\x00" in value:
        raise exceptions.ParseError("Text may not contain a NUL character.", code="nul_byte")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise exceptions.ParseError("Text contains an unpaired surrogate.", code="bad_encoding") from None


# Per-process answers to per-request questions ----------------------------------------------------

#: The Accept headers nearly every API call sends (none at all, a fetch's, a script's), whose
#: renderer ``ApiContentNegotiation`` keeps: at most these, so no client fills the process with its own.
USUAL_ACCEPTS = frozenset({"*/*", "application/json"})


class ApiContentNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, its choice kept for the usual Accept headers and the same renderers.

    DRF parses the header and every renderer's media type on every request (and builds the
    request's whole header map to read one header): about 3% of an action POST's CPU (issue 17,
    P5) for an answer that depends only on the header's text and the renderers. A format asked for
    (a suffix, ``?format=``), an unusual header or a refusal goes through DRF every time, as before."""

    _chosen: dict[tuple, tuple[int, str]] = {}

    def select_renderer(self, request, renderers, format_suffix=None):
        accept = request.META.get("HTTP_ACCEPT", "*/*")  # what request.headers.get("accept", "*/*") reads
        if format_suffix or accept not in USUAL_ACCEPTS or self.settings.URL_FORMAT_OVERRIDE in request.query_params:
            return super().select_renderer(request, renderers, format_suffix)
        key = (accept, *((type(r), r.media_type, r.format) for r in renderers))
        chosen = self._chosen.get(key)
        if chosen is None:
            renderer, media_type = super().select_renderer(request, renderers, format_suffix)
            chosen = self._chosen[key] = (renderers.index(renderer), media_type)
        return renderers[chosen[0]], chosen[1]


#: The response attributes through which django-csp's view decorators change a response's policy.
_CSP_PER_RESPONSE = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_exempt",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
    "_csp_exempt_ro",
)


class CSPMiddleware(csp.middleware.CSPMiddleware):
    """django-csp's middleware, its headers built once per process and setting for the responses
    that change nothing in them.

    django-csp builds the policy's text from the settings twice per response (the policy and the
    report-only one): about 3% of an action POST's CPU (issue 17, P5). That text depends only on the
    settings unless the response carries a view's own policy (a ``csp_*`` decorator, the embed
    page's ``_csp_replace``) or the request used a nonce; such responses, and a debug page's, go
    through django-csp every time, as before. The kept text is the one django-csp gives for the
    same settings (tests/hardening/test_csp_kept_policy.py compares them for every kind of
    response)."""

    _built: dict[bool, str] = {}

    def process_response(self, request, response):
        if (
            getattr(request, "_csp_nonce", None) is not None
            or any(hasattr(response, name) for name in _CSP_PER_RESPONSE)
            or (settings.DEBUG and response.status_code in (500, 404))
        ):
            return super().process_response(request, response)
        for report_only, header, setting in (
            (False, csp.constants.HEADER, "CONTENT_SECURITY_POLICY"),
            (True, csp.constants.HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
        ):
            policy = self._built.get(report_only)
            if policy is None:
                policy = self._built[report_only] = csp.utils.build_policy(report_only=report_only)
            if policy and header not in response:
                prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ()
                if not request.path_info.startswith(tuple(prefixes)):
                    response[header] = policy
        # As django-csp does: a nonce asked for after the header was written raises, not slips by.
        request.csp_nonce = csp.middleware.CheckableLazyObject(self._csp_nonce_post_response)
        return response


@receiver(setting_changed)
def _forget_csp_policies(*, setting, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        CSPMiddleware._built.clear()
