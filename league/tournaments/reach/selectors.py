"""Reads of the reach settings (never imports services)."""

from __future__ import annotations

from ..models import EmailOptOut, EmbedSettings, Tournament, WebhookDelivery, WebhookEndpoint


def embed_origins(*, tournament: Tournament) -> list[str]:
    row = EmbedSettings.objects.filter(tournament=tournament).first()
    return list(row.origins) if row else []


def email_opted_out(*, user) -> bool:
    return bool(user and user.is_authenticated and EmailOptOut.objects.filter(user=user).exists())


def _delivery(d: WebhookDelivery) -> dict:
    return {
        "id": d.pk,
        "event": d.event,
        "event_id": d.body.get("id"),
        "status": d.status,
        "attempts": d.attempts,
        "last_status_code": d.last_status_code,
        "last_error": d.last_error,
        "created_at": d.created_at.isoformat(),
        "delivered_at": d.delivered_at.isoformat() if d.delivered_at else None,
        "next_attempt_at": d.next_attempt_at.isoformat() if d.next_attempt_at else None,
    }


def webhooks(*, tournament: Tournament, deliveries: int = 20) -> list[dict]:
    """The organiser's view: each URL (its secret never again, only its last four characters) and
    its latest deliveries."""
    out = []
    for endpoint in WebhookEndpoint.objects.filter(tournament=tournament):
        out.append(
            {
                "id": endpoint.pk,
                "url": endpoint.url,
                "secret_hint": "…" + endpoint.secret[-4:],
                "created_at": endpoint.created_at.isoformat(),
                "deliveries": [_delivery(d) for d in endpoint.deliveries.all()[:deliveries]],
            }
        )
    return out
