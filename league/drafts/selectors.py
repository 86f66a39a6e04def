from __future__ import annotations

from django.core.exceptions import ValidationError

from matches import eventstore
from matches import selectors as match_selectors

from .models import Draft
from .services import draft_deadline


def draft_get(*, draft_match_id) -> Draft | None:
    try:
        return Draft.objects.select_related("draft_match", "match").get(draft_match_id=draft_match_id)
    except (Draft.DoesNotExist, ValueError, TypeError, ValidationError):
        return None


def draft_summary(*, draft: Draft, user) -> dict:
    match = draft.draft_match
    seat = match_selectors.viewer_seat(match=match, user=user)
    deadline = draft_deadline(draft=draft)
    return {
        "id": str(match.id),
        "draft": match_selectors.match_summary(match=match, seat=seat),
        "clock_seconds": draft.clock_seconds,
        "deadline": deadline.isoformat() if deadline else None,
        # The clock the deadline is counted by (the events' stamps): a page corrects its own by it.
        "server_time": eventstore.database_now().isoformat(),
        "match": str(draft.match_id) if draft.match_id else None,
        "hand_off": draft.hand_off,
    }
