from config.celery import app

from league.ratings.projection import ratings_refresh

from .services import result_record


@app.task(name="league.record_result", acks_late=True)
def record_result(match_id: str) -> bool:
    """Idempotent: the result event's id is derived from the match id."""
    return result_record(match_id=match_id)


@app.task(name="league.refresh_ratings", acks_late=True)
def refresh_ratings(game: str) -> bool:
    """Idempotent: rebuilds only when a verified result is missing from the ratings."""
    return ratings_refresh(game=game)
