"""The organiser's reach settings: webhooks and the origins allowed to frame the widgets; a
player's choice to get no tournament emails. Plain rows, not events (a secret must never enter the
public stream). Permission checks come first, and a refusal writes nothing."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from django.db import transaction

from ..access import is_organiser
from ..errors import refuse
from ..models import EmailOptOut, EmbedSettings, Tournament, WebhookEndpoint
from .webhooks import check_url

#: How many webhook URLs and framing origins one tournament may have.
MAX_WEBHOOKS, MAX_ORIGINS = 5, 20


def _need_organiser(tournament: Tournament, user) -> None:
    if user is None or not user.is_authenticated:
        raise refuse("Sign in first.", "not_authenticated", 401)
    if not is_organiser(tournament, user):
        raise refuse("Only the tournament's organiser may do this.", "not_organiser", 403)


def webhook_create(*, tournament: Tournament, by, url: str) -> tuple[WebhookEndpoint, str]:
    """Register a URL; returns the endpoint and its secret, which is shown this once."""
    _need_organiser(tournament, by)
    url = check_url(url)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if WebhookEndpoint.objects.filter(tournament=tournament).count() >= MAX_WEBHOOKS:
            raise refuse(f"A tournament has at most {MAX_WEBHOOKS} webhooks.", "too_many_webhooks", 409)
        secret = "whsec_" + secrets.token_urlsafe(32)
        endpoint = WebhookEndpoint.objects.create(tournament=tournament, url=url, secret=secret, created_by=by)
    return endpoint, secret


def webhook_delete(*, tournament: Tournament, by, webhook_id: int) -> None:
    _need_organiser(tournament, by)
    deleted, _ = WebhookEndpoint.objects.filter(tournament=tournament, pk=webhook_id).delete()
    if not deleted:
        raise refuse("No such webhook.", "webhook_not_found", 404)


def clean_origin(origin) -> str:
    """``scheme://host[:port]`` and nothing else: no path, query, wildcard or user."""
    if not isinstance(origin, str) or not origin.strip():
        raise refuse("An origin is text like https://club.example.", "bad_origin", 400)
    origin = origin.strip()
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        raise refuse(f"{origin} is not an origin like https://club.example:8443.", "bad_origin", 400) from None
    host = parts.hostname or ""
    if (
        parts.scheme not in ("http", "https")
        or not host
        or parts.username
        or parts.password
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "*" in origin
        or any(c in origin for c in " ;,'\"")
    ):
        raise refuse(
            f"{origin} is not an origin: give scheme://host[:port] only, like https://club.example:8443.",
            "bad_origin",
            400,
        )
    netloc = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{netloc}" + (f":{port}" if port else "")


def embed_origins_set(*, tournament: Tournament, by, origins: list) -> list[str]:
    """The origins allowed to frame this tournament's widgets (an empty list: none)."""
    _need_organiser(tournament, by)
    if not isinstance(origins, list):
        raise refuse("Origins are a list.", "bad_origin", 400)
    if len(origins) > MAX_ORIGINS:
        raise refuse(f"At most {MAX_ORIGINS} origins.", "too_many_origins", 400)
    cleaned = list(dict.fromkeys(clean_origin(o) for o in origins))
    EmbedSettings.objects.update_or_create(tournament=tournament, defaults={"origins": cleaned})
    return cleaned


def email_opt_out_set(*, user, opted_out: bool) -> bool:
    if user is None or not user.is_authenticated:
        raise refuse("Sign in first.", "not_authenticated", 401)
    if opted_out:
        EmailOptOut.objects.get_or_create(user=user)
    else:
        EmailOptOut.objects.filter(user=user).delete()
    return opted_out
