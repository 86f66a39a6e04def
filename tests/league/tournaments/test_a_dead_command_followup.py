"""A tournament command's follow-up (its ``tournament.reach`` outbox message: the emails to its
players and the deliveries to the organiser's webhooks) that goes dead is made up for by nothing:
its death is logged as an error that says what the players and the organiser miss and where they
can still read it, and ``manage.py outbox retry`` sends each email once when the bug is fixed."""

from __future__ import annotations

import logging

import pytest
from django.core import mail

from league.tournaments.reach import followups
from matches.models import OutboxMessage
from matches.outbox import outbox_retry, outbox_sweep

from .test_notifications import organiser, paired_round, players, swiss  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def handler_bug(monkeypatch):
    """The command's follow-up fails as a bug in its handler would (it needs no broker nor mail
    server: it only writes rows)."""

    def bug(payload):
        raise KeyError("a bug in the webhooks' part")

    monkeypatch.setattr(followups, "webhooks_queue", bug)
    return monkeypatch


def test_a_dead_command_followup_is_an_error_that_says_what_its_players_and_organiser_miss(
    organiser,  # noqa: F811
    players,  # noqa: F811
    handler_bug,
    settings,
    caplog,
    django_capture_on_commit_callbacks,
):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    t = swiss(organiser, players)
    with caplog.at_level(logging.WARNING, logger="matches.outbox"):
        paired_round(t, organiser, django_capture_on_commit_callbacks)
    dead = OutboxMessage.objects.get(topic="tournament.reach")
    assert dead.dead_at is not None and "a bug in the webhooks' part" in dead.last_error
    assert mail.outbox == [] and not OutboxMessage.objects.filter(topic="tournament.email").exists()

    [said] = [r for r in caplog.records if "dead" in r.getMessage()]
    text = said.getMessage()
    assert said.levelno == logging.ERROR  # nothing makes up for it: an operator must act
    assert f"tournament.reach #{dead.pk}" in text and "nothing makes up for it" in text
    assert "miss that command's emails" in text and "tournament page" in text
    assert "webhooks miss" in text and "/api/tournaments/<id>/" in text
    assert f"manage.py outbox retry {dead.pk}" in text


def test_retried_once_its_bug_is_fixed_the_dead_followup_emails_each_player_once(
    organiser,  # noqa: F811
    players,  # noqa: F811
    handler_bug,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    t = swiss(organiser, players)
    paired_round(t, organiser, django_capture_on_commit_callbacks)
    dead = OutboxMessage.objects.get(topic="tournament.reach")
    handler_bug.undo()  # the fix is deployed

    outbox_retry(message_id=dead.pk)
    with django_capture_on_commit_callbacks(execute=True):
        outbox_sweep()
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in players)
    with django_capture_on_commit_callbacks(execute=True):
        outbox_sweep()
    assert len(mail.outbox) == len(players)
