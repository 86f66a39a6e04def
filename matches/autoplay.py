"""Bot-against-bot play through the same services people use."""

from __future__ import annotations

from .models import Match
from .services import SeatSpec, match_create


def autoplay_match(*, game: str, seats: int, bot: str = "random", config: dict | None = None) -> Match:
    """Create a server-dealt match with a bot in every seat. The services play the bots
    until the end, close the match and queue its verification (run at once when Celery is
    eager); the returned match is re-read so it carries the verdict if there is one."""
    match = match_create(
        game=game, seats=[SeatSpec(bot=bot) for _ in range(seats)], created_by=None, config=config or {}
    )
    match.refresh_from_db()
    return match
