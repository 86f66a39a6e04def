from config.celery import app

from .services import tournament_record_match


@app.task(bind=True, name="tournaments.record_match", acks_late=True, max_retries=30)
def record_tournament_match(self, match_id: str) -> str:
    """A tournament pairing's platform match finished: record its result once verified.

    Verification runs in its own task and may lag; while the verdict is pending this task
    retries with a growing delay. Idempotent (event ids derive from the match id)."""
    outcome = tournament_record_match(match_id=match_id)
    if outcome == "pending":
        raise self.retry(countdown=min(60, 2 ** min(self.request.retries, 6)))
    return outcome
