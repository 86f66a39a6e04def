from config.celery import app
from league.ratings.projection import ratings_apply, ratings_refresh

from .services import result_record


@app.task(name="league.record_result", acks_late=True)
def record_result(match_id: str) -> bool:
    """Idempotent: the result event's id is derived from the match id."""
    return result_record(match_id=match_id)


@app.task(name="league.refresh_ratings", acks_late=True)
def refresh_ratings(game: str) -> bool:
    """Idempotent: rebuilds only when a verified result is missing from the ratings. A full scan of
    the game's results: kept for messages already queued; every verdict now sends ``rate_result``."""
    return ratings_refresh(game=game)


@app.task(name="league.rate_result", acks_late=True)
def rate_result(match_id: str) -> bool:
    """Idempotent: folds one match's verdict into its game's ratings, or does nothing if it is in."""
    return ratings_apply(match_id=match_id)
