"""League's own refusals (drafts, seasons, tournaments, clubs): not a match's, though answered alike.

``LeagueError("sentence", code="stable_code", status=409)`` becomes ``{"code", "detail"}`` JSON
under /api/ through the same handler as ``MatchError`` (both are ``matches.errors.Refusal``).
A league service may still let a ``MatchError`` through: that one is about the match it asked for.
"""

from __future__ import annotations

from matches.errors import Refusal


class LeagueError(Refusal):
    """A refused league command: HTTP status, stable code and a sentence for people."""
