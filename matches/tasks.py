from celery import shared_task

from .verification import match_verify


@shared_task(acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def verify_match(match_id: str) -> str:
    """Replay and verify a finished match; safe to run any number of times."""
    return match_verify(match_id=match_id).label
