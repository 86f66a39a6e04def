"""OpenAPI: every operation documents the error responses a client can meet, all one shape."""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "description": "Every refusal and fault: a stable code and a sentence a person understands.",
    "properties": {
        "code": {"type": "string", "description": "Stable, machine-readable (e.g. stale_seq, too_deep)."},
        "detail": {"type": "string", "description": "What went wrong, in a sentence."},
        "fields": {
            "type": "object",
            "description": "invalid_request only: the message for each field.",
            "additionalProperties": True,
        },
    },
    "required": ["code", "detail"],
    "additionalProperties": True,
}

#: Status -> when it happens, on every operation. 401 on reads too: a token that was deleted or has
#: expired (config/auth.py) is refused before any view runs, whatever it asks for.
ERRORS = {
    "400": "Bad input: a field or a query parameter; or anywhere in a JSON body (config.middleware."
    "BoundedJSONParser): nesting deeper than API_MAX_JSON_DEPTH (32), an integer past 2**53, NaN or "
    "Infinity, a NUL or an unpaired surrogate in text, bytes that are not UTF-8.",
    "401": "Sign in (session) or send Authorization: Token <key>; a token not (or no longer) valid is refused.",
    "404": "No such object (or no such address).",
    "405": "This address does not take that method.",
    "413": "The body is larger than the server accepts.",
    "429": "Throttled: wait for the time in Retry-After.",
    "500": "A fault on the server's side.",
    "503": "The database (or another service) is briefly unavailable; retry.",
}
#: When to come back, in whole seconds. Every 429 says it (DRF's throttles, config/middleware.py);
#: a 503 says it when a retry soon can succeed (database_unavailable), not when it waits on the
#: operator (signing_key_missing: no checkpoint signing key configured).
RETRY_AFTER = {
    "429": {
        "description": "Seconds until the throttle lets this caller through again.",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    },
    "503": {
        "description": "Seconds to wait before retrying (sent with database_unavailable).",
        "required": False,
        "schema": {"type": "integer", "minimum": 1},
    },
}
#: On writes. A read that can refuse a caller (403) or conflict (409) declares it in its view's
#: extend_schema, with when it happens; this hook gives it the error body.
WRITE_ERRORS = {
    "403": "You may not do this.",
    "409": "The stream moved on (stale_seq) or the command conflicts with what is recorded.",
}


def add_error_responses(result, generator, request, public):
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/") or path.startswith("/api/schema"):
            continue
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            errors = dict(ERRORS)
            if method != "get":
                errors.update(WRITE_ERRORS)
            responses = operation.setdefault("responses", {})
            for status, description in errors.items():
                responses.setdefault(status, {"description": description})
            for status, response in responses.items():
                if status.isdigit() and int(status) >= 400:
                    response["content"] = {"application/json": {"schema": ref}}
            for status, header in RETRY_AFTER.items():
                responses[status].setdefault("headers", {})["Retry-After"] = header
    return result
