"""Who is who in a tournament: a user's player id, the actor an event names, the organiser.

Read by services (before a write) and by selectors and pages (which buttons to show), so it
lives apart from both: selectors never import services."""

from __future__ import annotations


def pid_of(user) -> str:
    return str(user.pk)


def actor_of(user) -> str:
    return f"user:{user.pk}" if user is not None else "system"


def is_organiser(state_or_tournament, user) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    organiser = (
        state_or_tournament["organiser"] if isinstance(state_or_tournament, dict) else state_or_tournament.created_by_id
    )
    return organiser == user.pk
