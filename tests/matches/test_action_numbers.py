"""Numbers in an action are whole numbers: a fraction (even 0.0) is refused and writes nothing.

Python's ``0 == 0.0`` let an action such as a Spellcaster keep with ``"index": 0.0`` pass an
engine's membership check; applying it then indexed a list with a float and the request failed
with a server error. No game's action holds a fraction (every engine's legal actions are
strings, whole numbers and booleans), so the platform refuses one before the engine sees it.
"""

from __future__ import annotations

import pytest

from engines import registry
from matches.models import Match
from matches.services import SeatSpec, match_create

from .helpers import event_count, first_legal, fresh, post_action

# Dueling Wizards' actions name cards only: it has no number to write as a fraction.
GAMES = [
    e.name
    for e in registry.playable()
    if not e.draft and e.min_seats <= 2 <= e.max_seats and e.name != "dueling-wizards"
]


def _with_a_fraction(value):
    """The value with its first whole number (not a boolean) written as a float, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dict):
        for key, inner in value.items():
            changed = _with_a_fraction(inner)
            if changed is not None:
                return {**value, key: changed}
    if isinstance(value, list):
        for i, inner in enumerate(value):
            changed = _with_a_fraction(inner)
            if changed is not None:
                return [*value[:i], changed, *value[i + 1 :]]
    return None


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_an_action_with_a_whole_number_written_as_a_fraction_is_refused_and_writes_nothing(
    game, alice, bob, client_for
):
    match = match_create(game=game, seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    clients = {0: client_for(alice), 1: client_for(bob)}
    for _ in range(300):
        match = fresh(match)
        assert match.status != Match.Status.FINISHED, f"{game}: no action with a number before the end"
        seat = clients[0].get(f"/api/matches/{match.id}/").json()["to_move"][0]
        actions = first_legal(clients[seat], match, seat)
        numbered = next((a for a in actions if _with_a_fraction(a) is not None), None)
        if numbered is None:
            assert post_action(clients[seat], match, seat, actions[0]).status_code == 201
            continue
        before = event_count(match)
        refused = post_action(clients[seat], match, seat, _with_a_fraction(numbered))
        assert refused.status_code == 422, refused.json()
        assert refused.json()["code"] == "bad_action"
        assert "whole number" in refused.json()["detail"]
        assert event_count(match) == before
        # The same action with its whole number is taken.
        assert post_action(clients[seat], match, seat, numbered).status_code == 201
        return
    raise AssertionError(f"{game}: no action with a number in 300 moves")


@pytest.mark.django_db
def test_a_what_if_sandbox_refuses_a_fraction_too_and_stays_as_it_was(alice, client_for):
    from matches.analysis.models import Sandbox
    from matches.autoplay import autoplay_match
    from matches.models import Event

    finished = autoplay_match(game="spellcaster", seats=2)
    first = Event.objects.filter(stream_id=finished.stream_id, type="action").order_by("seq").first()
    seat = first.data["seat"]
    client = client_for(alice)
    box = client.post(f"/api/matches/{finished.id}/whatif/", {"at": first.seq - 1}, format="json").json()
    numbered = next(a for a in box["legal"][str(seat)] if _with_a_fraction(a) is not None)

    refused = client.post(
        f"/api/sandboxes/{box['id']}/actions/", {"seat": seat, "action": _with_a_fraction(numbered)}, format="json"
    )
    assert refused.status_code == 422 and refused.json()["code"] == "bad_action"
    assert Sandbox.objects.get(pk=box["id"]).steps == box["steps"]
    played = client.post(f"/api/sandboxes/{box['id']}/actions/", {"seat": seat, "action": numbered}, format="json")
    assert played.status_code == 200, played.json()
