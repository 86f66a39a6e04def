"""What every refused request is, in any app: an HTTP status, a stable code and a sentence for people.

Each app raises its own kind: ``matches.services.MatchError`` for matches and the command runner,
``league.errors.LeagueError`` for league's concepts. The API answers any of them as
``{"code", "detail"}`` JSON (``matches/api/errors.py``, configured as DRF's exception handler);
a page shows the sentence. Matches defines the base so that it never has to import league.
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    def __init__(self, message: str, *, code: str, status: int = 400, **extra: Any):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.extra = extra
