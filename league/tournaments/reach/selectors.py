"""Reads of the reach settings (never imports services)."""

from __future__ import annotations

from ..access import pid_of
from ..models import EmailOptOut, EmbedSettings, Tournament, WebhookDelivery, WebhookEndpoint
from ..projection import asked_to_play
from ..states import PlayerStatus, TournamentStatus


def embed_origins(*, tournament: Tournament) -> list[str]:
    row = EmbedSettings.objects.filter(tournament=tournament).first()
    return list(row.origins) if row else []


def email_opted_out(*, user) -> bool:
    return bool(user and user.is_authenticated and EmailOptOut.objects.filter(user=user).exists())


def entries_to_confirm(*, user, limit: int = 50) -> list[dict]:
    """Tournaments not yet finished that the organiser entered the user in, unconfirmed: the
    account page lists them so the player can confirm (and be emailed) or withdraw."""
    if user is None or not user.is_authenticated:
        return []
    pid = pid_of(user)
    out = []
    rows = (
        Tournament.objects.filter(entrants__user=user)
        .exclude(status=TournamentStatus.FINISHED)
        .select_related("created_by")
        .order_by("-created_at")
    )
    for t in rows[:limit]:
        player = t.state["players"][pid]
        if player["status"] == PlayerStatus.WITHDRAWN or asked_to_play(player):
            continue
        out.append(
            {
                "id": str(t.id),
                "name": t.name,
                "organiser": t.created_by.get_username(),
                "status": t.status,
                "player_status": player["status"],
            }
        )
    return out


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
