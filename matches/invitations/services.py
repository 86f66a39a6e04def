"""Writes for invitations: propose, accept, decline, cancel. Checks first, then one write.

Each answer runs in one transaction holding the invitation's row lock, so two invitees
accepting at once cannot both see themselves as the last one: the match is created exactly
once, by the last acceptance, with the configuration asked for."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from engines import registry
from matches import eventstore
from matches.eventstore import EventIdReused
from matches.models import Match
from matches.services import (
    MatchError,
    SeatSpec,
    bot_match_cap_check,
    match_create,
    match_create_check,
    match_create_or_get,
)

from . import kinds
from .live import invitation_changed
from .models import EXPIRED, Invitation, Invitee, expiry_cutoff


def seats_needing_consent(*, seats: list[SeatSpec], created_by: AbstractBaseUser) -> list[AbstractBaseUser]:
    """The people these seats would sit down who have to accept first: everyone but the creator
    (bots need no asking). Staff are the platform's organisers: they seat players directly, as
    tournament and season organisers do through their own services."""
    if created_by.is_staff:
        return []
    people = [u for s in seats for u in ((s.user,) if s.user else ()) + tuple(s.partners)]
    seen: set = set()
    others = []
    for user in people:
        if user.pk != created_by.pk and user.pk not in seen:
            seen.add(user.pk)
            others.append(user)
    return others


def invitation_create(
    *,
    kind: str,
    request: dict,
    created_by: AbstractBaseUser,
    invitees: list[AbstractBaseUser],
    event_id: uuid.UUID | None = None,
) -> tuple[Invitation, bool]:
    """Propose a match or draft to ``invitees``. Returns (invitation, created): a retried create
    with the same ``event_id`` returns the first invitation (created False), whatever has become
    of it since; the same id for a different proposal is 409 ``event_id_reused``."""
    if not created_by or not created_by.is_authenticated:
        raise MatchError("Sign in to invite anyone.", code="not_authenticated", status=401)
    proposal = _kind(kind)
    if event_id is not None:
        existing = _retry(event_id=event_id, kind=kind, request=request, created_by=created_by)
        if existing is not None:
            return existing, False
    if not invitees:
        raise MatchError("Nobody to invite: create it directly.", code="no_invitees")
    if any(u.pk == created_by.pk for u in invitees):
        raise MatchError("You cannot invite yourself.", code="bad_invitee")
    # Refused now, before anyone is asked, if it could not be created once they all accept.
    proposal.check(request, created_by)
    try:
        with transaction.atomic():
            # The inviter's row is the lock: two invitations sent at once count one after the other.
            get_user_model().objects.select_for_update().get(pk=created_by.pk)
            if event_id is not None:
                # A retry that waited on the lock finds what the first one made.
                existing = _retry(event_id=event_id, kind=kind, request=request, created_by=created_by)
                if existing is not None:
                    return existing, False
            _check_open_invitations(created_by)
            invitation = Invitation.objects.create(kind=kind, request=request, created_by=created_by, event_id=event_id)
            Invitee.objects.bulk_create([Invitee(invitation=invitation, user=u) for u in invitees])
    except IntegrityError:
        # The same create, sent twice at once: the first one's row won the unique event_id.
        existing = _retry(event_id=event_id, kind=kind, request=request, created_by=created_by) if event_id else None
        if existing is None:
            raise
        return existing, False
    return invitation, True


def _check_open_invitations(user) -> None:
    cap = settings.MAX_OPEN_INVITATIONS_PER_USER
    waiting = Invitation.objects.filter(
        created_by=user, status=Invitation.Status.PENDING, created_at__gt=expiry_cutoff()
    ).count()
    if waiting >= cap:
        noun = "invitation" if cap == 1 else "invitations"
        raise MatchError(
            f"You have {cap} {noun} waiting for answers, as many as one account may: "
            "cancel one, or wait for answers, before you invite anyone else.",
            code="too_many_invitations",
            status=409,
        )


def _retry(*, event_id, kind, request, created_by) -> Invitation | None:
    existing = Invitation.objects.filter(event_id=event_id).first()
    if existing is None:
        if eventstore.event_find(event_id=event_id) is not None:
            raise _reused()
        return None
    if existing.created_by_id != created_by.pk or existing.kind != kind or existing.request != request:
        raise _reused()
    return existing


def check_event_id_unused(*, event_id) -> None:
    """For a create that needs no invitation: its event_id must not be one an invitation holds
    (the same id for two different commands is 409 ``event_id_reused``)."""
    if event_id is not None and Invitation.objects.filter(event_id=event_id).exists():
        raise _reused()


def _kind(name: str) -> kinds.InvitationKind:
    kind = kinds.get(name)
    if kind is None:
        raise MatchError(f"Nothing called '{name}' can be proposed.", code="unknown_invitation_kind")
    return kind


def _reused() -> MatchError:
    return MatchError(
        "This event_id was already used for a different command. Use a new id for a new command.",
        code=EventIdReused.code,
        status=409,
    )


def invitation_accept(*, invitation_id, user: AbstractBaseUser) -> Invitation:
    """The invitee accepts. The last acceptance creates the match (or draft) in the same
    transaction; accepting again is answered with the invitation as it stands."""
    with transaction.atomic():
        invitation, invitee = _locked_for_invitee(invitation_id, user)
        if invitee.response == Invitee.Response.ACCEPTED:
            return invitation
        _check_open(invitation)
        now = timezone.now()
        invitee.response, invitee.responded_at = Invitee.Response.ACCEPTED, now
        invitee.save(update_fields=["response", "responded_at"])
        if not invitation.invitees.exclude(response=Invitee.Response.ACCEPTED).exists():
            origin = {
                "invitation": str(invitation.id),
                "accepted_by": sorted(i.user.get_username() for i in invitation.invitees.select_related("user")),
            }
            match = _kind(invitation.kind).create(invitation.request, invitation.created_by, origin)
            invitation.match = match
            invitation.status = Invitation.Status.ACCEPTED
            invitation.closed_at = now
            invitation.save(update_fields=["match", "status", "closed_at"])
        invitation_changed(invitation)
        return invitation


def invitation_decline(*, invitation_id, user: AbstractBaseUser) -> Invitation:
    """The invitee declines: the invitation closes and seats nobody (an earlier acceptance can
    be taken back this way while others have not answered)."""
    with transaction.atomic():
        invitation, invitee = _locked_for_invitee(invitation_id, user)
        if invitee.response == Invitee.Response.DECLINED:
            return invitation
        _check_open(invitation)
        now = timezone.now()
        invitee.response, invitee.responded_at = Invitee.Response.DECLINED, now
        invitee.save(update_fields=["response", "responded_at"])
        invitation.status, invitation.closed_at = Invitation.Status.DECLINED, now
        invitation.save(update_fields=["status", "closed_at"])
        invitation_changed(invitation)
        return invitation


def invitation_cancel(*, invitation_id, user: AbstractBaseUser) -> Invitation:
    """The inviter withdraws an invitation nobody has turned into a match yet."""
    with transaction.atomic():
        invitation = _locked(invitation_id, user)
        if invitation.created_by_id != user.pk:
            raise MatchError("Only the player who sent this invitation can cancel it.", code="not_inviter", status=403)
        if invitation.status == Invitation.Status.CANCELLED:
            return invitation
        _check_open(invitation)
        invitation.status, invitation.closed_at = Invitation.Status.CANCELLED, timezone.now()
        invitation.save(update_fields=["status", "closed_at"])
        invitation_changed(invitation)
        return invitation


#: The answers to an invitation, by the verb of its URL (the API's and the page's).
ANSWERS = {"accept": invitation_accept, "decline": invitation_decline, "cancel": invitation_cancel}


def _locked(invitation_id, user) -> Invitation:
    """The invitation, row-locked, if ``user`` is its inviter or an invitee; to anyone else it
    does not exist (404), so ids cannot be probed for who invited whom."""
    if not user or not user.is_authenticated:
        raise MatchError("Sign in to answer an invitation.", code="not_authenticated", status=401)
    try:
        # Only the invitation's row: the inviter's user row, joined for display, stays unlocked.
        invitation = (
            Invitation.objects.select_for_update(of=("self",)).select_related("created_by").get(pk=invitation_id)
        )
    except (Invitation.DoesNotExist, ValueError, TypeError, ValidationError):
        raise _not_found() from None
    if invitation.created_by_id != user.pk and not invitation.invitees.filter(user=user).exists():
        raise _not_found()
    return invitation


def _locked_for_invitee(invitation_id, user) -> tuple[Invitation, Invitee]:
    invitation = _locked(invitation_id, user)
    invitee = invitation.invitees.filter(user=user).first()
    if invitee is None:
        raise MatchError(
            "Only the invited players answer an invitation; you sent this one.", code="not_invitee", status=403
        )
    return invitation, invitee


def _check_open(invitation: Invitation) -> None:
    if invitation.shown_status() == EXPIRED:
        raise MatchError(
            "This invitation expired before everyone answered; send a new one.",
            code="invitation_expired",
            status=409,
            status_now=EXPIRED,
        )
    if invitation.status != Invitation.Status.PENDING:
        raise MatchError(
            f"This invitation is closed ({invitation.get_status_display().lower()}).",
            code="invitation_closed",
            status=409,
            status_now=invitation.status,
        )


def _not_found() -> MatchError:
    return MatchError("No such invitation.", code="invitation_not_found", status=404)


# -- seats as stored in a request ------------------------------------------------------------


def seats_to_request(seats: list[SeatSpec]) -> list[dict]:
    """Seats as JSON: user ids (names beside them, for display) or a bot, and team partners."""
    return [
        {
            "user_id": s.user.pk if s.user else None,
            "username": s.user.get_username() if s.user else None,
            "bot": s.bot or None,
            "partners": [{"user_id": p.pk, "username": p.get_username()} for p in s.partners],
        }
        for s in seats
    ]


def seats_from_request(stored: list[dict]) -> list[SeatSpec]:
    ids = {s["user_id"] for s in stored if s["user_id"]} | {p["user_id"] for s in stored for p in s["partners"]}
    users = get_user_model().objects.in_bulk(sorted(ids))
    missing = ids - set(users)
    if missing:
        raise MatchError("A player of this invitation no longer has an account.", code="player_gone", status=409)
    return [
        SeatSpec(user=users[s["user_id"]], partners=tuple(users[p["user_id"]] for p in s["partners"]))
        if s["user_id"]
        else SeatSpec(bot=s["bot"])
        for s in stored
    ]


# -- "match" -----------------------------------------------------------------------------------


def match_request(
    *,
    game: str,
    seats: list[SeatSpec],
    mode: str,
    config: dict | None,
    time_control: dict | None,
    setup=None,
    setup_seat: int = 0,
) -> dict:
    """The create command as JSON; ``setup``, a SavedSetup of the inviter's, is played for
    ``setup_seat`` once the match starts (as the new-match form does for a match against a bot)."""
    request = {
        "game": game,
        "mode": mode,
        "config": config or {},
        "time_control": time_control or {},
        "seats": seats_to_request(seats),
    }
    if setup is not None:
        request["setup"] = {"id": setup.pk, "seat": setup_seat}
    return request


def match_open(
    *,
    game: str,
    seats: list[SeatSpec],
    created_by: AbstractBaseUser,
    mode: str,
    config: dict | None = None,
    time_control: dict | None = None,
    setup=None,
    event_id: uuid.UUID | None = None,
) -> tuple[Match | Invitation, bool]:
    """Start a match at once if it seats nobody but its creator and bots (or the creator organises);
    otherwise invite the other players (as ``league.drafts.invitations.draft_open`` does for drafts).
    ``setup``, a SavedSetup of the creator's, is played for seat 0 once the match starts. Returns (the
    match or the invitation, whether this call made it: a retry with the same ``event_id`` gets the first)."""
    _refuse_a_bare_draft(game)
    invitees = seats_needing_consent(seats=seats, created_by=created_by)
    if invitees:
        return invitation_create(
            kind="match",
            created_by=created_by,
            invitees=invitees,
            event_id=event_id,
            request=match_request(
                game=game, seats=seats, mode=mode, config=config, time_control=time_control, setup=setup
            ),
        )
    check_event_id_unused(event_id=event_id)
    with transaction.atomic():
        try:
            bot_match_cap_check(created_by=created_by, seats=seats, event_id=event_id)
        except MatchError:
            # A create that could never start is told why (400), not to finish a match first: the
            # next try would fail again. Checked only at the cap, so no create sets up twice.
            match_create_check(game=game, seats=seats, mode=mode, config=config, time_control=time_control)
            raise
        match, created = match_create_or_get(
            game=game,
            seats=seats,
            created_by=created_by,
            mode=mode,
            config=config,
            time_control=time_control,
            event_id=event_id,
        )
    if created and setup is not None:
        _setup_play(match, created_by, setup, seat=0)
    return match, created


def _refuse_a_bare_draft(game: str) -> None:
    """A draft engine's stream is made only by its draft room (league.drafts, through
    ``match_create``): a bare one has no pick clock to draft for a coach who leaves and no
    hand-off of its teams to their match, so it could only stall or end with nothing made."""
    try:
        engine = registry.get(game)
    except registry.UnknownEngine:
        return  # refused as unknown_game by the create's own checks
    if engine.draft:
        raise MatchError(
            f"A draft ({engine.title}) is not started as a match: it is made in a draft room, which keeps the "
            "pick clock and hands the teams on to their match. Open one at /drafts/ (POST /api/drafts/), or "
            "from a league or tournament.",
            code="draft_needs_a_room",
        )


def _setup_play(match: Match, created_by, setup, *, seat: int) -> None:
    from matches.games.services import setup_play

    # The saved Group (and Stock, when asked already) are the creator's first answers.
    setup_play(match=match, user=created_by, seat=seat, setup=setup)


def _match_check(request: dict, created_by) -> None:
    match_create_check(
        game=request["game"],
        seats=seats_from_request(request["seats"]),
        mode=request["mode"],
        config=request["config"],
        time_control=request["time_control"],
    )


def _match_create(request: dict, created_by, origin: dict) -> Match:
    match = match_create(
        game=request["game"],
        seats=seats_from_request(request["seats"]),
        created_by=created_by,
        mode=request["mode"],
        config=request["config"],
        time_control=request["time_control"],
        origin=origin,
    )
    if request.get("setup"):
        from matches.models import SavedSetup

        saved = SavedSetup.objects.filter(pk=request["setup"]["id"], user=created_by).first()
        if saved is not None:  # deleted since the invitation: the inviter chooses in the match
            _setup_play(match, created_by, saved, seat=request["setup"]["seat"])
    return match


MATCH = kinds.register(
    kinds.InvitationKind(
        name="match",
        check=_match_check,
        create=_match_create,
        url=lambda match: reverse("match-live", kwargs={"match_id": match.id}),
    )
)
