from config.celery import app

from .services import tournament_record_match


@app.task(name="tournaments.record_match", acks_late=True)
def record_tournament_match(match_id: str) -> str:
    """A tournament pairing's platform match has its verdict: record it (once).

    Sent by ``matches.signals.match_verified`` after the verdict commits, so nothing
    waits on verification here. Idempotent (event ids derive from the match id)."""
    return tournament_record_match(match_id=match_id)
