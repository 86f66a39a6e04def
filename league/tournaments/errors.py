"""The one way tournament code refuses: a ``LeagueError`` (HTTP status, stable code, a sentence)
raised before anything is written. Format objects and services share it."""

from __future__ import annotations

from league.errors import LeagueError


def refuse(message: str, code: str, status: int = 409, **extra) -> LeagueError:
    return LeagueError(message, code=code, status=status, **extra)
