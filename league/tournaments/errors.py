"""The one way tournament code refuses: a ``MatchError`` (HTTP status, stable code, a sentence)
raised before anything is written. Format objects and services share it."""

from __future__ import annotations

from matches.services import MatchError


def refuse(message: str, code: str, status: int = 409, **extra) -> MatchError:
    return MatchError(message, code=code, status=status, **extra)
