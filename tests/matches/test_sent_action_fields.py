"""Through the API, an action holding a field its type does not have is refused (422
unknown_field) and writes nothing: otherwise the field would be stored in the match's public,
hash-chained record for good (engines/wizard_dodgeball/RULES.md "Fields of an action")."""

from __future__ import annotations

import uuid

import pytest

from engines import registry
from matches.models import Event, Match
from matches.services import SeatSpec, match_create

pytestmark = pytest.mark.django_db


def test_an_action_with_a_field_its_type_lacks_is_422_and_writes_nothing(make_user, client_for):
    alice, bob = make_user("alice"), make_user("bob")
    match = match_create(game="wizard-dodgeball", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    match.refresh_from_db()
    seat = registry.get(match.game).to_move(match.state)[0]
    holder = client_for(alice if seat == 0 else bob)
    before = list(Event.objects.filter(stream_id=match.stream_id).values_list("seq", flat=True))
    url = f"/api/matches/{match.id}/actions/"

    def send(action):
        return holder.post(
            url,
            {"seat": seat, "action": action, "expected_seq": match.state_seq, "event_id": str(uuid.uuid4())},
            format="json",
        )

    answer = send({"type": "end_turn", "note": "kept for ever " * 50})
    assert (answer.status_code, answer.json()["code"]) == (422, "unknown_field"), answer.json()
    assert "note" in answer.json()["detail"]
    assert list(Event.objects.filter(stream_id=match.stream_id).values_list("seq", flat=True)) == before
    assert Match.objects.get(pk=match.pk).state_seq == match.state_seq
    # The same action as the rules know it is taken.
    assert send({"type": "end_turn"}).status_code in (200, 201)
