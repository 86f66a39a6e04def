"""Email notifications: a paired round tells each player their opponent, table, round and page;
a reported result asks the opponent to confirm it. Sent through the outbox after the commit,
never twice, never for a refused command, and a mail server outage fails no command."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from league.tournaments import services
from league.tournaments.models import EmailOptOut, EmailSent
from league.tournaments.reach.followups import send_email
from matches.commands import AT_HEAD
from matches.models import OutboxMessage
from matches.outbox import outbox_deliver, outbox_sweep

from .helpers import open_pairings, open_tournament, people, pid, refused

pytestmark = pytest.mark.django_db


class MailServerDown(Exception):
    pass


class DownBackend:
    """An email backend whose server cannot be reached."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise MailServerDown("Connection refused")


@pytest.fixture
def players():
    users = people("ann", "ben", "cat", "dan")
    for u in users:
        u.email = f"{u.username}@example.org"
        u.save()
    return users


@pytest.fixture
def organiser():
    return people("org")[0]


def swiss(organiser, players):
    return open_tournament(organiser, "swiss", players, rounds=3)


def paired_round(t, organiser, capture):
    with capture(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
        if not open_pairings(t):
            services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)


def by_recipient():
    return {m.to[0]: m for m in mail.outbox}


def test_each_paired_player_is_emailed_their_opponent_table_round_and_page(
    organiser, players, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://duels.example"
    t = swiss(organiser, players)
    paired_round(t, organiser, django_capture_on_commit_callbacks)
    pairings = open_pairings(t)
    assert len(pairings) == 2
    sent = by_recipient()
    assert sorted(sent) == sorted(u.email for u in players)  # one each, nobody else (not the organiser)
    names = {pid(u): u.username for u in players}
    for table, record in enumerate(sorted(pairings, key=lambda r: r["board"]), start=1):
        a, b = (names[p] for p in record["players"])
        for me, opponent in ((a, b), (b, a)):
            message = sent[f"{me}@example.org"]
            assert f"round 1, you play {opponent} at table {table}" in message.subject
            assert f"Opponent: {opponent}" in message.body
            assert f"Table: {table}" in message.body
            assert f"https://duels.example/tournaments/{t.id}/players/{me}/" in message.body


def test_players_without_an_email_or_who_opted_out_get_none(organiser, players, django_capture_on_commit_callbacks):
    ann, ben, *_ = players
    ann.email = ""
    ann.save()
    EmailOptOut.objects.create(user=ben)
    t = swiss(organiser, players)
    paired_round(t, organiser, django_capture_on_commit_callbacks)
    assert sorted(by_recipient()) == ["cat@example.org", "dan@example.org"]


def test_a_reported_result_asks_only_the_opponent_to_confirm(organiser, players, django_capture_on_commit_callbacks):
    t = swiss(organiser, players)
    paired_round(t, organiser, django_capture_on_commit_callbacks)
    record = open_pairings(t)[0]
    users = {pid(u): u for u in players}
    reporter, opponent = (users[p] for p in record["players"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_report(
            tournament=t, pairing=record["id"], user=reporter, result={"winner": pid(reporter)}, expected_seq=AT_HEAD
        )
    assert [m.to for m in mail.outbox] == [[opponent.email]]
    message = mail.outbox[0]
    assert "confirm the result of round 1" in message.subject
    assert f"{reporter.username} reported the result" in message.body
    assert f"{reporter.username} won" in message.body
    assert f"/tournaments/{t.id}/players/{opponent.username}/" in message.body

    # The confirmation settles it: nobody is asked anything more.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_confirm(tournament=t, pairing=record["id"], user=opponent, expected_seq=AT_HEAD)
    assert mail.outbox == []


def test_a_refused_command_sends_nothing_and_queues_nothing(organiser, players, django_capture_on_commit_callbacks):
    t = swiss(organiser, players)
    paired_round(t, organiser, django_capture_on_commit_callbacks)
    record = open_pairings(t)[0]
    outsider = next(u for u in players if pid(u) not in record["players"])
    mail.outbox.clear()
    queued = OutboxMessage.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        refused(
            "not_your_pairing",
            services.tournament_report,
            tournament=t,
            pairing=record["id"],
            user=outsider,
            result={"winner": pid(outsider)},
        )
    assert mail.outbox == []
    assert OutboxMessage.objects.count() == queued


def test_nothing_is_sent_inside_the_commands_transaction(organiser, players, django_capture_on_commit_callbacks):
    t = swiss(organiser, players)
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
        if not open_pairings(t):
            services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)
    # Recorded in the transaction, not yet sent.
    assert OutboxMessage.objects.filter(topic="tournament.reach", delivered_at__isnull=True).count() == 1
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        for callback in after_commit:
            callback()
    assert len(mail.outbox) == 4


def test_a_mail_server_outage_fails_no_command_and_the_sweeper_sends_later(
    organiser, players, django_capture_on_commit_callbacks, settings
):
    t = swiss(organiser, players)
    settings.EMAIL_BACKEND = f"{__name__}.DownBackend"
    paired_round(t, organiser, django_capture_on_commit_callbacks)  # raises nothing
    assert len(open_pairings(t)) == 2
    assert mail.outbox == []

    def waiting():
        return OutboxMessage.objects.filter(topic="tournament.email", delivered_at__isnull=True)

    assert waiting().count() == 4
    assert all(m.attempts == 1 and "Connection refused" in m.last_error for m in waiting())

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    outbox_sweep(now=timezone.now())  # the backoff has not passed yet
    assert waiting().count() == 4 and mail.outbox == []
    outbox_sweep(now=timezone.now() + timedelta(minutes=1))
    assert waiting().count() == 0
    assert sorted(by_recipient()) == sorted(u.email for u in players)
    assert len(mail.outbox) == 4


def test_an_email_delivered_twice_is_sent_once(organiser, players, django_capture_on_commit_callbacks):
    t = swiss(organiser, players)
    paired_round(t, organiser, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 4
    message = OutboxMessage.objects.filter(topic="tournament.email").first()
    assert EmailSent.objects.filter(key=message.payload["key"]).exists()

    # The same message delivered again (a process died after sending, before marking it
    # delivered; here, a second copy of it), and the handler called directly: no second email.
    again = OutboxMessage.objects.create(topic="tournament.email", payload=message.payload, available_at=timezone.now())
    assert outbox_deliver(message_id=again.pk) is True
    send_email(message.payload)
    assert len(mail.outbox) == 4


def test_a_bracket_match_whose_players_become_known_emails_them(django_capture_on_commit_callbacks):
    organiser, *players = people("boss", "wes", "xia", "yan", "zed")
    for u in players:
        u.email = f"{u.username}@example.org"
        u.save()
    t = open_tournament(organiser, "single_elimination", players)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    assert len(mail.outbox) == 4  # both semi-finals
    users = {pid(u): u for u in players}
    winners = []
    for record in open_pairings(t):
        a, b = (users[p] for p in record["players"])
        winners.append(a)
        services.tournament_report(
            tournament=t, pairing=record["id"], user=a, result={"winner": pid(a)}, expected_seq=AT_HEAD
        )
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            services.tournament_confirm(tournament=t, pairing=record["id"], user=b, expected_seq=AT_HEAD)
    # The second confirmation made the final: its two players hear of it, nobody else.
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in winners)
    first, second = winners
    assert f"you play {second.username}" in by_recipient()[first.email].subject


def test_a_player_turns_tournament_emails_off_and_on(players, client_for, client):
    ann = players[0]
    api = client_for(ann)
    assert api.get("/api/tournaments/emails/").json() == {"opted_out": False, "email": ann.email}
    assert api.put("/api/tournaments/emails/", {"opted_out": True}, format="json").json()["opted_out"] is True
    assert EmailOptOut.objects.filter(user=ann).exists()
    bad = api.put("/api/tournaments/emails/", {"opted_out": "perhaps"}, format="json")
    assert bad.status_code == 400 and "code" in bad.json()
    assert EmailOptOut.objects.filter(user=ann).exists()
    assert client_for().get("/api/tournaments/emails/").status_code in (401, 403)

    # The account page's switch.
    client.force_login(ann)
    page = client.get("/accounts/")
    assert "You get no tournament emails." in page.content.decode()
    client.post("/tournaments/emails/", {"opted_out": "0"})
    assert not EmailOptOut.objects.filter(user=ann).exists()
    assert "when you are paired in a round" in client.get("/accounts/").content.decode()
