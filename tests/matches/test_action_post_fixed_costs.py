"""An action POST's own Python that did not depend on the request (issue 17, P5): its body's
fields copied for every request, a seat's partners looked up through a new manager on every
label. The answers are the ones they were; what changes is only how often the work is done."""

from __future__ import annotations

import copy
import uuid

import pytest
from django.db.models import prefetch_related_objects

from matches.api.serializers import CommandSerializer
from matches.models import Event, Seat
from matches.services import match_seats

from .helpers import fresh, new_duel

BODY = {"seat": 0, "expected_seq": 3, "event_id": str(uuid.UUID(int=7)), "action": {"kind": "pass"}}


def test_the_command_body_is_validated_without_deep_copying_its_fields(monkeypatch):
    CommandSerializer(data=BODY).is_valid(raise_exception=True)
    copied = []
    real = copy.deepcopy
    monkeypatch.setattr(copy, "deepcopy", lambda *a, **k: copied.append(a) or real(*a, **k))
    serializer = CommandSerializer(data=BODY)
    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data == {**BODY, "event_id": uuid.UUID(int=7)}
    assert copied == []


@pytest.mark.parametrize(
    "body",
    [
        {},
        {**BODY, "seat": -1},
        {**BODY, "seat": 65},
        {**BODY, "seat": "1.5"},
        {**BODY, "seat": True},
        {**BODY, "expected_seq": 2**31},
        {**BODY, "event_id": "not-a-uuid"},
        {**BODY, "chance": 3},
        {k: v for k, v in BODY.items() if k != "action"},
        {**BODY, "action": [1]},
    ],
)
def test_a_bad_command_body_is_refused_with_the_same_messages(body):
    serializer = CommandSerializer(data=body)
    assert not serializer.is_valid()
    # The fields as declared, deep-copied the way DRF always copied them, give the same refusals.
    declared = CommandSerializer(data=body)
    declared.get_fields = lambda: copy.deepcopy(declared._declared_fields)
    assert not declared.is_valid()
    assert serializer.errors == declared.errors


def test_the_fields_of_two_requests_are_not_shared():
    one, two = CommandSerializer(data=BODY), CommandSerializer(data=BODY)
    assert all(one.fields[name] is not two.fields[name] for name in one.fields)
    assert one.fields["seat"].parent is one and two.fields["seat"].parent is two


@pytest.mark.django_db
def test_a_seats_label_and_holder_read_its_kept_partners_without_a_new_manager(alice, bob, carol, monkeypatch):
    match = new_duel(alice, bob)
    match.seats.get(index=0).partners.add(carol)
    seats = match_seats(match=fresh(match))
    prefetch_related_objects([s for s in seats if s.user_id], "partners")  # as a broadcast does
    managers = []
    descriptor = type(Seat.partners)
    real = descriptor.__get__
    monkeypatch.setattr(descriptor, "__get__", lambda *a: managers.append(a) or real(*a))
    assert [s.label for s in seats] == ["alice & carol", "bob"]
    assert [s.held_by(carol) for s in seats] == [True, False]
    assert managers == []


@pytest.mark.django_db
def test_a_broadcast_asks_for_no_partners_the_command_already_knows_of(alice, bob, monkeypatch):
    from django.db.models import query

    from matches import live, services

    match = new_duel(alice, bob)
    locked = services._match_for_update(match.pk)  # the seats come with it, each without partners
    events = list(Event.objects.filter(stream_id=locked.stream_id).order_by("seq"))
    looked_up = []
    real = query.get_prefetcher
    monkeypatch.setattr(query, "get_prefetcher", lambda *a: looked_up.append(a) or real(*a))
    frames = dict(live.frames_held(match=locked, events=events, log=[]))
    assert [frame["match"]["seats"][0]["label"] for frame in frames.values()] == ["alice"] * 3
    assert looked_up == []
