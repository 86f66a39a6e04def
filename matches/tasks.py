# Bound to the project's app rather than shared_task: a shared_task proxy resolves the
# thread's "current" app, which in a worker thread or test can be Celery's empty default.
from config.celery import app

from .verification import match_verify


@app.task(name="matches.verify_match", acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True,
          max_retries=5)
def verify_match(match_id: str) -> str:
    """Replay and verify a finished match; safe to run any number of times."""
    return match_verify(match_id=match_id).label
