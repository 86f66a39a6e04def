"""What an invitation can propose. Each kind knows how to check a request before anyone is
invited, how to create the thing once everyone accepted, and where its page is.

matches.invitations.services registers "match"; league registers "draft" (matches never imports
league). This module imports no services, so selectors may read a kind's page from it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from matches.models import Match


@dataclass(frozen=True)
class InvitationKind:
    name: str
    #: check(request, created_by): raise MatchError if what is asked could not be created.
    check: Callable[[dict, Any], None]
    #: create(request, created_by, origin) -> Match: make it (in the caller's transaction); ``origin``
    #: names the invitation, so the stream's first event says whose yes started it.
    create: Callable[[dict, Any, dict], Match]
    #: url(match) -> the page everyone is taken to.
    url: Callable[[Match], str]


_KINDS: dict[str, InvitationKind] = {}


def register(kind: InvitationKind) -> InvitationKind:
    _KINDS[kind.name] = kind
    return kind


def get(name: str) -> InvitationKind | None:
    return _KINDS.get(name)
