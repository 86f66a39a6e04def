"""A webhook POSTed, or an email sent, twice because the worker died between sending and recording it.

Delivery is at least once, so the repeat cannot be prevented from here: what the receiver needs is a
key that is the same on both copies and different for every other delivery, to drop the repeat (an
Idempotency-Key header on webhooks, a fixed Message-ID on emails)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from league.tournaments import services
from league.tournaments.models import EmailSent, WebhookDelivery
from league.tournaments.reach import webhooks
from matches.commands import AT_HEAD
from matches.models import OutboxMessage
from matches.outbox import outbox_sweep
from tests.league.tournaments.helpers import open_pairings, open_tournament, people, pid
from tests.league.tournaments.test_webhooks import Receiver, hooked

pytestmark = pytest.mark.django_db


class WorkerKilled(BaseException):
    """Stands for SIGKILL: not an Exception, so no handler of the delivery code catches it, and the
    attempt's transaction is rolled back as a dead worker's connection would be."""


@pytest.fixture
def receiver(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the receiver listens on 127.0.0.1
    r = Receiver()
    yield r
    r.server.shutdown()
    r.server.server_close()


def headers_of(request) -> dict[str, str]:
    return {k.lower(): v for k, v in request["headers"].items()}


def test_a_delivery_sent_again_after_its_worker_died_carries_the_same_idempotency_key(
    client_for, receiver, monkeypatch, django_capture_on_commit_callbacks
):
    organiser, ann, ben = people("org", "ann", "ben")
    t = open_tournament(organiser, "single_elimination", [ann, ben])
    hooked(client_for, organiser, t, receiver.url)
    post = webhooks._post

    def answered_then_the_worker_died(*args, **kwargs):
        post(*args, **kwargs)
        raise WorkerKilled

    monkeypatch.setattr(webhooks, "_post", answered_then_the_worker_died)
    with pytest.raises(WorkerKilled), django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    monkeypatch.setattr(webhooks, "_post", post)
    assert len(receiver.requests) == 1  # the receiver got it; the platform has no record of that
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == (WebhookDelivery.PENDING, 0)

    # The beat's retry finds it pending and sends it again.
    assert webhooks.webhooks_retry_due(now=timezone.now()) == 1
    first, again = receiver.requests
    assert headers_of(first)["idempotency-key"] == headers_of(again)["idempotency-key"] == delivery.key
    assert headers_of(first)["wizard-duels-delivery"] == headers_of(again)["wizard-duels-delivery"]
    assert first["body"] == again["body"]  # the same signed body, with the same id
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (WebhookDelivery.DELIVERED, 1)

    # Every other delivery has a key of its own: the receiver drops repeats and nothing else.
    [record] = open_pairings(t)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_report(
            tournament=t, pairing=record["id"], user=ann, result={"winner": pid(ann)}, expected_seq=AT_HEAD
        )
        services.tournament_confirm(tournament=t, pairing=record["id"], user=ben, expected_seq=AT_HEAD)
    processed: dict[str, str] = {}
    for request in receiver.requests:
        processed.setdefault(headers_of(request)["idempotency-key"], json.loads(request["body"])["type"])
    assert sorted(processed.values()) == ["finished", "pairing", "result"]
    assert len(receiver.requests) == 4


def test_an_email_sent_again_after_its_worker_died_carries_the_same_message_id(
    monkeypatch, django_capture_on_commit_callbacks
):
    organiser, *players = people("org", "ann", "ben", "cat", "dan")
    for user in players:
        user.email = f"{user.username}@example.org"
        user.save()
    t = open_tournament(organiser, "swiss", players, rounds=3)
    record = EmailSent.objects.create

    def sent_then_the_worker_died(**kwargs):
        raise WorkerKilled

    monkeypatch.setattr(EmailSent.objects, "create", sent_then_the_worker_died)
    with pytest.raises(WorkerKilled), django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
        if not open_pairings(t):
            services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)
    monkeypatch.setattr(EmailSent.objects, "create", record)
    [first] = mail.outbox  # sent; the platform has no record of that
    assert OutboxMessage.objects.filter(topic="tournament.email", delivered_at__isnull=True).count() == 4

    # The sweeper sends every email still pending: the first one again, and the three others.
    assert outbox_sweep(now=timezone.now() + timedelta(hours=1)) >= 4
    assert len(mail.outbox) == 5
    again = [m for m in mail.outbox[1:] if m.to == first.to]
    assert len(again) == 1
    assert first.message()["Message-ID"] == again[0].message()["Message-ID"]
    assert first.body == again[0].body
    # Each of the four players' emails has its own id: a mail system drops the repeat and nothing else.
    assert len({m.message()["Message-ID"] for m in mail.outbox}) == 4
