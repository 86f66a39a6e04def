"""A team match's create sent again under its ``event_id`` is the same create when its partners are
the same accounts: the created event records their ids, so a partner an admin renamed in between
is still the partner it named (the retry gets the first match, not 409 ``event_id_reused``). A match
created before the event recorded ids is compared by the partners' usernames, as it always was."""

from __future__ import annotations

import uuid

import pytest

from matches import services
from matches.models import Event, Match
from matches.services import MatchError, NewEvent, SeatSpec, match_create_or_get, match_create_retry

pytestmark = pytest.mark.django_db


def team(alice, *partners):
    return [SeatSpec(user=alice, partners=partners), SeatSpec(bot="random")]


def create(alice, eid, *partners):
    return match_create_or_get(game="dueling-wizards", seats=team(alice, *partners), created_by=alice, event_id=eid)


def renamed(user, name):
    user.username = name
    user.save()
    user.refresh_from_db()
    return user


def test_a_create_retried_after_its_partner_was_renamed_gets_the_first_match(alice, bob):
    eid = uuid.uuid4()
    first, made = create(alice, eid, bob)
    assert made
    again, made = create(alice, eid, renamed(bob, "bob-renamed"))
    assert (again.pk, made) == (first.pk, False)
    assert Match.objects.count() == 1


def test_the_retry_lookup_used_when_setup_is_now_refused_finds_the_match_after_a_rename_too(alice, bob):
    # match_create_retry answers a retry whose setup the server would now refuse: the same comparison.
    eid = uuid.uuid4()
    first, _ = create(alice, eid, bob)
    found = match_create_retry(
        event_id=eid,
        game="dueling-wizards",
        seats=team(alice, renamed(bob, "bob-renamed")),
        created_by=alice,
        mode=Match.Mode.SERVER,
    )
    assert found.pk == first.pk


def test_a_create_naming_another_partner_under_a_used_id_is_still_refused(alice, bob, carol):
    eid = uuid.uuid4()
    create(alice, eid, bob)
    # Even with the first partner's old name: the account is another one.
    renamed(bob, "bob-renamed")
    with pytest.raises(MatchError) as refused:
        create(alice, eid, renamed(carol, "bob"))
    assert refused.value.code == "event_id_reused"
    assert Match.objects.count() == 1


def test_a_match_created_before_partner_ids_is_still_found_by_its_partners_names(alice, bob, carol, monkeypatch):
    def as_written_before(*, type, data=None, **fields):
        if type == "match.created":
            data = {**data, "seats": [{k: v for k, v in s.items() if k != "partner_ids"} for s in data["seats"]]}
        return NewEvent(type=type, data=data, **fields)

    eid = uuid.uuid4()
    monkeypatch.setattr(services, "NewEvent", as_written_before)
    first, _ = create(alice, eid, bob)
    monkeypatch.undo()
    assert "partner_ids" not in Event.objects.get(stream_id=first.stream_id, seq=1).data["seats"][0]
    again, made = create(alice, eid, bob)
    assert (again.pk, made) == (first.pk, False)
    with pytest.raises(MatchError) as refused:
        create(alice, eid, carol)
    assert refused.value.code == "event_id_reused"
