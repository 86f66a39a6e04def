from config.celery import app

from .services import draft_hand_off


@app.task(name="league.hand_off_draft", acks_late=True)
def hand_off_draft(draft_match_id: str) -> str | None:
    """Idempotent: a retry after a crash finds the match already created."""
    match = draft_hand_off(draft_match_id=draft_match_id)
    return str(match.id) if match else None
