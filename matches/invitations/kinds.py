"""What an invitation can propose. Each kind knows how to check a request before anyone is
invited, how to create the thing once everyone accepted, and where its page is.

Matches registers "match" here; league registers "draft" (matches never imports league)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from django.contrib.auth import get_user_model
from django.urls import reverse

from matches.models import Match
from matches.services import MatchError, SeatSpec, match_create, match_create_check


@dataclass(frozen=True)
class InvitationKind:
    name: str
    #: check(request, created_by): raise MatchError if what is asked could not be created.
    check: Callable[[dict, Any], None]
    #: create(request, created_by) -> Match: make it (in the caller's transaction).
    create: Callable[[dict, Any], Match]
    #: url(match) -> the page everyone is taken to.
    url: Callable[[Match], str]


_KINDS: dict[str, InvitationKind] = {}


def register(kind: InvitationKind) -> InvitationKind:
    _KINDS[kind.name] = kind
    return kind


def get(name: str) -> InvitationKind:
    try:
        return _KINDS[name]
    except KeyError:
        raise MatchError(f"Nothing called '{name}' can be proposed.", code="unknown_invitation_kind") from None


# -- seats as stored in a request ------------------------------------------------------------


def seats_to_request(seats: list[SeatSpec]) -> list[dict]:
    """Seats as JSON: user ids (names beside them, for display) or a bot, and team partners."""
    return [
        {"user_id": s.user.pk if s.user else None, "username": s.user.get_username() if s.user else None,
         "bot": s.bot or None, "partners": [{"user_id": p.pk, "username": p.get_username()} for p in s.partners]}
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
        if s["user_id"] else SeatSpec(bot=s["bot"])
        for s in stored
    ]


# -- "match" -----------------------------------------------------------------------------------


def match_request(*, game: str, seats: list[SeatSpec], mode: str, config: dict | None,
                  time_control: dict | None) -> dict:
    return {"game": game, "mode": mode, "config": config or {}, "time_control": time_control or {},
            "seats": seats_to_request(seats)}


def _match_check(request: dict, created_by) -> None:
    match_create_check(game=request["game"], seats=seats_from_request(request["seats"]), mode=request["mode"],
                       config=request["config"], time_control=request["time_control"])


def _match_create(request: dict, created_by) -> Match:
    return match_create(game=request["game"], seats=seats_from_request(request["seats"]), created_by=created_by,
                        mode=request["mode"], config=request["config"], time_control=request["time_control"])


MATCH = register(InvitationKind(
    name="match", check=_match_check, create=_match_create,
    url=lambda match: reverse("match-live", kwargs={"match_id": match.id}),
))
