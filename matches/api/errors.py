"""Every refusal is JSON: ``{"code": "<stable_code>", "detail": "<a sentence>"}``.

Errors no view raises on purpose are mapped too: a database that is down or dropped the connection
is 503 ``database_unavailable`` (retry later), a value the database refuses is 400. What still
escapes (a bug) is answered by config.middleware.ApiErrorMiddleware as 500 JSON.
"""

from __future__ import annotations

import logging

from django.db import DataError, InterfaceError, OperationalError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from matches.errors import Refusal
from matches.eventstore import EventStoreError


def error_response(code: str, detail: str, http_status: int, **extra) -> Response:
    return Response({"code": code, "detail": detail, **extra}, status=http_status)


log = logging.getLogger(__name__)


def exception_handler(exc, context):
    if isinstance(exc, (OperationalError, InterfaceError)):
        log.warning("Database unavailable: %s", exc)
        response = error_response(
            "database_unavailable", "The database is briefly unavailable; try again in a moment.", 503
        )
        response["Retry-After"] = "5"
        return response
    if isinstance(exc, DataError):
        return error_response("invalid_value", "A value in the request is out of range or not storable.", 400)
    if isinstance(exc, Refusal):  # MatchError, LeagueError
        return error_response(exc.code, exc.message, exc.status, **exc.extra)
    if isinstance(exc, EventStoreError):
        return error_response(exc.code, exc.message, exc.status, **exc.extra)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = _unechoed(exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail})
        first = _first_message(fields)
        response.data = {"code": "invalid_request", "detail": first, "fields": fields}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"code": code, "detail": str(exc.detail)}
    return response


#: The longest field message passed on as DRF wrote it. DRF's own messages quote what was sent
#: ('"<input>" is not a valid choice.', '"<input>" is not a valid UUID.'), and a refusal must not
#: send back a long value it was sent (engines.base.quoted holds the engines' refusals to the same).
MOST_MESSAGE = 200

#: What a message too long to pass on says instead, by its DRF code.
_INSTEAD = {
    "invalid_choice": "This is not one of the allowed values.",
    "invalid": "This value is not valid.",
    "does_not_exist": "Nothing with this value exists.",
}


def _unechoed(detail):
    """``detail`` with every message longer than MOST_MESSAGE replaced by a sentence for its code
    that quotes nothing sent."""
    if isinstance(detail, dict):
        return {name: _unechoed(value) for name, value in detail.items()}
    if isinstance(detail, list):
        return [_unechoed(value) for value in detail]
    if isinstance(detail, exceptions.ErrorDetail) and len(detail) > MOST_MESSAGE:
        return exceptions.ErrorDetail(_INSTEAD.get(detail.code, "This value is not valid."), code=detail.code)
    return detail


def _first_message(fields) -> str:
    for name, messages in fields.items():
        message = messages[0] if isinstance(messages, list) and messages else messages
        if isinstance(message, dict):
            return _first_message(message)
        return f"{name}: {message}" if name != "non_field_errors" else str(message)
    return "The request is not valid."
