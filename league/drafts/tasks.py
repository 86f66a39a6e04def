from config.celery import app

from .services import HAND_OFF_BATCH, draft_hand_off, drafts_hand_off_lost


@app.task(name="league.hand_off_draft", acks_late=True)
def hand_off_draft(draft_match_id: str) -> str | None:
    """Idempotent: a retry after a crash finds the match already created."""
    match = draft_hand_off(draft_match_id=draft_match_id)
    return str(match.id) if match else None


@app.task(name="league.hand_off_lost_drafts", acks_late=True)
def hand_off_lost_drafts(now=None, batch: int = HAND_OFF_BATCH) -> int:
    """The beat's backstop for a finished draft's hand-off that was lost (``drafts_hand_off_lost``).
    Idempotent: a draft whose match is made is not found again."""
    return drafts_hand_off_lost(now=now, batch=batch)
