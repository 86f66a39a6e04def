"""At a real table a private draw is entered by naming the cards drawn. An entry naming the wrong
number of cards can never be taken, so it is refused the same way whatever cards it names: were the
names matched to the pool first, a one-card entry for a three-card draw would answer, for free and
as often as asked, whether a card is still to draw or in another wizard's unseen hand."""

from __future__ import annotations

import uuid

import pytest

from matches.models import Match

from .helpers import event_count, fresh, new_duel

pytestmark = pytest.mark.django_db


def enter(client, match, seat, outcome):
    match = fresh(match)
    body = {"seat": seat, "chance": outcome, "expected_seq": match.state_seq, "event_id": str(uuid.uuid4())}
    return client.post(f"/api/matches/{match.id}/actions/", body, format="json")


@pytest.fixture
def alice_has_drawn(alice, bob, client_for):
    match = new_duel(alice, bob, mode=Match.Mode.TABLETOP)
    assert enter(client_for(alice), match, 0, {"cards": ["R9", "PK", "X1"]}).status_code == 201
    return match


@pytest.mark.parametrize("size", [1, 2, 4], ids=["one", "two", "four"])
def test_an_entry_of_the_wrong_size_says_the_same_whether_its_card_is_held_or_left_to_draw(
    alice_has_drawn, bob, client_for, size
):
    match = alice_has_drawn
    before = event_count(match)
    filler = ["S3", "S4", "S5"][: size - 1]
    held = enter(client_for(bob), match, 1, {"cards": ["R9", *filler]})  # alice holds the 9 of Rock
    free = enter(client_for(bob), match, 1, {"cards": ["S2", *filler]})  # still to draw
    assert (
        (held.status_code, held.json())
        == (free.status_code, free.json())
        == (
            422,
            {"code": "bad_chance_outcome", "detail": "Name the 3 cards drawn, as a list."},
        )
    )
    assert event_count(match) == before


def test_an_entry_of_the_right_size_naming_a_held_card_is_refused_and_writes_nothing(alice_has_drawn, bob, client_for):
    match = alice_has_drawn
    before = event_count(match)
    refused = enter(client_for(bob), match, 1, {"cards": ["R9", "S3", "S4"]})
    assert refused.status_code == 422 and refused.json()["code"] == "card_not_in_pool"
    assert event_count(match) == before
    assert enter(client_for(bob), match, 1, {"cards": ["S2", "S3", "S4"]}).status_code == 201
