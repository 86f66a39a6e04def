"""Drafts by invitation: a draft that seats other coaches opens when each of them accepts.

Registers the "draft" kind with matches.invitations (matches never imports league). Organisers
(staff, and league seasons and tournaments through ``draft_create``) seat their coaches directly."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse

from matches.invitations import kinds
from matches.invitations import services as invitation_services
from matches.invitations.models import Invitation
from matches.models import Match
from matches.services import SeatSpec, bot_match_cap_check

from .models import Draft
from .services import DRAFT_GAME, draft_create, draft_create_check, draft_create_or_get


def draft_request(*, seats: list[SeatSpec], config: dict | None, clock_seconds: int) -> dict:
    return {
        "game": DRAFT_GAME,
        "config": config or {},
        "clock_seconds": clock_seconds,
        "seats": invitation_services.seats_to_request(seats),
    }


def _check(request: dict, created_by) -> None:
    draft_create_check(
        seats=invitation_services.seats_from_request(request["seats"]),
        created_by=created_by,
        config=request["config"],
        clock_seconds=request["clock_seconds"],
    )


def _create(request: dict, created_by, origin: dict) -> Match:
    return draft_create(
        seats=invitation_services.seats_from_request(request["seats"]),
        created_by=created_by,
        config=request["config"],
        clock_seconds=request["clock_seconds"],
        origin=origin,
    ).draft_match


DRAFT = kinds.register(
    kinds.InvitationKind(
        name="draft",
        check=_check,
        create=_create,
        url=lambda match: reverse("draft-room", kwargs={"draft_id": match.id}),
    )
)


def draft_open(
    *,
    seats: list[SeatSpec],
    created_by: AbstractBaseUser,
    config: dict | None = None,
    clock_seconds: int = 60,
    event_id: uuid.UUID | None = None,
) -> tuple[Draft | Invitation, bool]:
    """Open a draft room at once if it seats nobody but the opener (or the opener organises);
    otherwise invite the other coaches. Returns (the draft or the invitation, whether this call
    made it: a retried invitation with the same ``event_id`` returns the first)."""
    invitees = invitation_services.seats_needing_consent(seats=seats, created_by=created_by)
    if not invitees:
        invitation_services.check_event_id_unused(event_id=event_id)
        with transaction.atomic():
            bot_match_cap_check(created_by=created_by, seats=seats, event_id=event_id)
            return draft_create_or_get(
                seats=seats, created_by=created_by, config=config, clock_seconds=clock_seconds, event_id=event_id
            )
    return invitation_services.invitation_create(
        kind="draft",
        created_by=created_by,
        invitees=invitees,
        event_id=event_id,
        request=draft_request(seats=seats, config=config, clock_seconds=clock_seconds),
    )
