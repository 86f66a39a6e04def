"""Bot-against-bot play through the same services people use."""

from __future__ import annotations

from .models import Match
from .services import SeatSpec, match_bots_move, match_create


def autoplay_match(*, game: str, seats: int, bot: str = "random", config: dict | None = None) -> Match:
    """Create a server-dealt match with a bot in every seat and play it to its end. The services
    play the bots ``BOT_MOVES_PER_COMMAND`` moves a command, close the match and queue its
    verification (run at once when Celery is eager); the commands past the first are queued too,
    and are played here as well, so the match is over when this returns whether or not they have
    run yet (those that run later find the head moved and write nothing). The returned match is
    re-read so it carries the verdict if there is one."""
    match = match_create(
        game=game, seats=[SeatSpec(bot=bot) for _ in range(seats)], created_by=None, config=config or {}
    )
    match.refresh_from_db()
    while match.status == Match.Status.LIVE and match_bots_move(match_id=match.id, head_seq=match.state_seq):
        match.refresh_from_db()
    return match
