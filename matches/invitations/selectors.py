"""Reads for invitations (never imports services)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.urls import reverse

from . import kinds
from .models import EXPIRED, Invitation, expiry_cutoff

#: Every status an invitation shows (the stored ones and the derived "expired").
STATUSES = [*Invitation.Status.values, EXPIRED]


def invitation_get(*, invitation_id, user) -> Invitation | None:
    """The invitation if ``user`` sent it or is invited to it; None for anyone else."""
    if not user or not user.is_authenticated:
        return None
    try:
        # The invitation page asks for this every few seconds: its summary's rows come in one go.
        return (
            _parties(user)
            .select_related("created_by", "match")
            .prefetch_related("invitees__user")
            .get(pk=invitation_id)
        )
    except (Invitation.DoesNotExist, ValueError, TypeError, ValidationError):
        return None


def invitations_for(*, user, status: str | None = None, role: str | None = None) -> list[Invitation]:
    """The invitations ``user`` sent (role "sent") or received ("received"), or both, newest first."""
    qs = (
        _parties(user)
        if role is None
        else (
            Invitation.objects.filter(created_by=user)
            if role == "sent"
            else Invitation.objects.filter(invitees__user=user)
        )
    )
    if status:
        qs = _with_status(qs, status)
    return qs.select_related("created_by", "match").prefetch_related("invitees__user").distinct()


def _with_status(qs, status: str):
    # "pending" and "expired" are both stored as pending; the invitation's age tells them apart.
    if status == EXPIRED:
        return qs.filter(status=Invitation.Status.PENDING, created_at__lte=expiry_cutoff())
    if status == Invitation.Status.PENDING:
        return qs.filter(status=status, created_at__gt=expiry_cutoff())
    return qs.filter(status=status)


def _parties(user):
    return Invitation.objects.filter(Q(created_by=user) | Q(invitees__user=user)).distinct()


def invitation_summary(*, invitation: Invitation, user) -> dict:
    request = invitation.request
    invitees = list(invitation.invitees.all())
    mine = next((i for i in invitees if i.user_id == getattr(user, "pk", None)), None)
    you_invited = invitation.created_by_id == getattr(user, "pk", None)
    # The seats are shown by name below; the inviter's saved setup (its id) only to the inviter: the
    # same id in a later invitation would tell an opponent which Group, seen in an earlier match, comes.
    hidden = {"seats"} if you_invited else {"seats", "setup"}
    match_url = kinds.get(invitation.kind).url(invitation.match) if invitation.match_id else None
    return {
        "id": str(invitation.id),
        "kind": invitation.kind,
        "status": invitation.shown_status(),
        "game": request.get("game"),
        "inviter": invitation.created_by.get_username(),
        "seats": [seat_label(s) for s in request.get("seats", [])],
        "invitees": [{"username": i.user.get_username(), "response": i.response} for i in invitees],
        "you_invited": you_invited,
        "your_response": mine.response if mine else None,
        "request": {k: v for k, v in request.items() if k not in hidden},
        "created_at": invitation.created_at.isoformat(),
        "expires_at": invitation.expires_at.isoformat(),
        "closed_at": invitation.closed_at.isoformat() if invitation.closed_at else None,
        "match": str(invitation.match_id) if invitation.match_id else None,
        "url": match_url,
        "page": reverse("invitation", kwargs={"invitation_id": invitation.id}),
    }


def seat_label(seat: dict) -> str:
    if not seat.get("user_id"):
        return f"{seat.get('bot')} bot"
    return " & ".join([seat["username"], *(p["username"] for p in seat.get("partners", []))])


def pending_for(*, user) -> dict:
    """What the home page lists: invitations waiting for ``user``'s answer, and the user's own
    that still wait for others (each with the summary's fields)."""
    # A declined invitation is closed, so every pending one still waits on this user or others.
    waiting = _with_status(Invitation.objects.all(), Invitation.Status.PENDING)  # expired ones are over
    received = waiting.filter(invitees__user=user)
    sent = waiting.filter(created_by=user)
    started = Invitation.objects.filter(
        Q(created_by=user) | Q(invitees__user=user), status=Invitation.Status.ACCEPTED
    ).order_by("-closed_at")

    def rows(qs):
        return [
            invitation_summary(invitation=i, user=user)
            for i in qs.distinct().select_related("created_by", "match").prefetch_related("invitees__user")[:10]
        ]

    return {"received": rows(received), "sent": rows(sent), "started": rows(started)}
