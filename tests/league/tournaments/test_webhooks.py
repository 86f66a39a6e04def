"""Organisers' webhooks: a URL per tournament (http(s), public hosts only unless allowed), its
secret shown once and never put in the public stream, signed POSTs of pairings, final results and
the finish, retries with backoff, and a delivery log only the organiser sees."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone

from league.tournaments import services
from league.tournaments.models import WebhookDelivery, WebhookEndpoint
from league.tournaments.reach.webhooks import SIGNATURE_HEADER, sign, verify, webhooks_retry_due
from matches.commands import AT_HEAD
from matches.models import Event

from .helpers import open_pairings, open_tournament, people, pid, refused

pytestmark = pytest.mark.django_db


class Receiver:
    """A local HTTP server that records what it is sent and answers with the statuses queued."""

    def __init__(self):
        self.requests: list[dict] = []
        self.answers: list[int] = []
        receiver = self

        class Handle(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                code = receiver.answers.pop(0) if receiver.answers else 200
                self.send_response(code)
                if code in (301, 302):
                    self.send_header("Location", "/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def events(self):
        return [json.loads(r["body"])["type"] for r in self.requests]


@pytest.fixture
def receiver(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the receiver listens on 127.0.0.1
    r = Receiver()
    yield r
    r.server.shutdown()
    r.server.server_close()


@pytest.fixture
def organiser():
    return people("org")[0]


def hooked(client_for, organiser, t, url):
    made = client_for(organiser).post(f"/api/tournaments/{t.id}/webhooks/", {"url": url}, format="json")
    assert made.status_code == 201, made.json()
    return made.json()


def test_the_organiser_registers_a_url_and_sees_its_secret_once(client_for, organiser, receiver):
    t = open_tournament(organiser, "swiss", people("ann", "ben"))
    made = hooked(client_for, organiser, t, receiver.url)
    secret = made["secret"]
    assert secret.startswith("whsec_") and len(secret) > 30
    listed = client_for(organiser).get(f"/api/tournaments/{t.id}/webhooks/")
    assert listed.status_code == 200
    [hook] = listed.json()["webhooks"]
    assert hook["url"] == receiver.url and hook["secret_hint"] == "…" + secret[-4:]
    assert secret not in listed.content.decode()
    # Never in the tournament's public stream, nor in its page's data.
    assert not any(secret in json.dumps(e.data) for e in Event.objects.filter(stream_id=t.stream_id))
    assert secret not in client_for().get(f"/api/tournaments/{t.id}/").content.decode()


def test_only_the_organiser_sees_or_changes_the_webhooks(client_for, organiser, receiver):
    ann, ben = people("ann", "ben")
    t = open_tournament(organiser, "swiss", [ann, ben])
    made = hooked(client_for, organiser, t, receiver.url)
    player = client_for(ann)
    for response in (
        player.get(f"/api/tournaments/{t.id}/webhooks/"),
        player.post(f"/api/tournaments/{t.id}/webhooks/", {"url": receiver.url}, format="json"),
        player.delete(f"/api/tournaments/{t.id}/webhooks/{made['id']}/"),
    ):
        assert response.status_code == 403
        assert response.json()["code"] == "not_organiser"
    assert client_for().get(f"/api/tournaments/{t.id}/webhooks/").status_code in (401, 403)
    assert WebhookEndpoint.objects.filter(tournament=t).count() == 1
    assert client_for(organiser).delete(f"/api/tournaments/{t.id}/webhooks/{made['id']}/").status_code == 204
    assert not WebhookEndpoint.objects.filter(tournament=t).exists()


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/hook",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "http://",
        "https://user:pw@example.org/hook",
        "example.org/hook",
    ],
)
def test_urls_that_are_not_http_are_refused(client_for, organiser, url):
    t = open_tournament(organiser, "swiss")
    response = client_for(organiser).post(f"/api/tournaments/{t.id}/webhooks/", {"url": url}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_webhook_url" and response.json()["detail"]
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/hook",
        "http://0.0.0.0/hook",
        # IPv6 addresses that a NAT64 gateway or a 6to4 relay turns into an internal IPv4 one
        # (Python counts the first two prefixes as global).
        "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
        "http://[64:ff9b::7f00:1]/hook",
        "http://[2002:a9fe:a9fe::]/hook",
        "http://[::a9fe:a9fe]/hook",
        "http://[64:ff9b:1::a9fe:a9fe]/hook",
    ],
)
def test_urls_of_loopback_and_private_addresses_are_refused_unless_allowed(client_for, organiser, settings, url):
    t = open_tournament(organiser, "swiss")
    response = client_for(organiser).post(f"/api/tournaments/{t.id}/webhooks/", {"url": url}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_webhook_url"
    assert "private" in response.json()["detail"]
    assert not WebhookEndpoint.objects.exists()
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    assert (
        client_for(organiser).post(f"/api/tournaments/{t.id}/webhooks/", {"url": url}, format="json").status_code == 201
    )


@pytest.mark.parametrize("url", ["http://[64:ff9b::808:808]/hook", "http://[2002:808:808::1]/hook"])
def test_an_ipv6_address_carrying_a_public_ipv4_one_is_accepted(client_for, organiser, url):
    t = open_tournament(organiser, "swiss")
    response = client_for(organiser).post(f"/api/tournaments/{t.id}/webhooks/", {"url": url}, format="json")
    assert response.status_code == 201


def test_a_paired_round_is_posted_signed_with_the_secret(
    client_for, organiser, receiver, django_capture_on_commit_callbacks
):
    players = people("ann", "ben", "cat", "dan")
    t = open_tournament(organiser, "swiss", players, rounds=3)
    secret = hooked(client_for, organiser, t, receiver.url)["secret"]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
        if not open_pairings(t):
            services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)
    assert receiver.events() == ["pairing"]
    [request] = receiver.requests
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert headers["content-type"] == "application/json"
    assert headers["wizard-duels-event"] == "pairing"
    assert verify(secret, request["body"], headers[SIGNATURE_HEADER.lower()])
    # A receiver checking with another secret, or a body changed on the way, refuses it.
    assert not verify("whsec_other", request["body"], headers[SIGNATURE_HEADER.lower()])
    assert not verify(secret, request["body"] + b" ", headers[SIGNATURE_HEADER.lower()])
    body = json.loads(request["body"])
    assert body["tournament"] == str(t.id)
    pairings = body["data"]["pairings"]
    assert body["data"]["rounds"] == [1]
    assert sorted(n for p in pairings for n in p["names"]) == ["ann", "ben", "cat", "dan"]
    assert [p["table"] for p in pairings] == [1, 2]
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 1, 200)


def test_a_paired_round_posts_its_bye_beside_its_pairings(
    client_for, organiser, receiver, django_capture_on_commit_callbacks
):
    players = people("ann", "ben", "cat", "dan", "eve")
    t = open_tournament(organiser, "swiss", players, rounds=3)
    hooked(client_for, organiser, t, receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    assert receiver.events() == ["pairing"]
    data = json.loads(receiver.requests[0]["body"])["data"]
    [bye] = data["byes"]
    assert len(data["pairings"]) == 2 and len(bye["players"]) == 1
    assert sorted([*bye["names"], *(n for p in data["pairings"] for n in p["names"])]) == [
        "ann",
        "ben",
        "cat",
        "dan",
        "eve",
    ]
    assert (bye["round"], bye["worth"], bye["requested"]) == (1, "1", False)


def test_a_final_result_and_the_finish_are_posted_once_each(
    client_for, organiser, receiver, django_capture_on_commit_callbacks
):
    ann, ben = people("ann", "ben")
    t = open_tournament(organiser, "single_elimination", [ann, ben])
    hooked(client_for, organiser, t, receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    [record] = open_pairings(t)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_report(
            tournament=t, pairing=record["id"], user=ann, result={"winner": pid(ann)}, expected_seq=AT_HEAD
        )
    assert receiver.events() == ["pairing"]  # a report waiting for confirmation is not a final result
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_confirm(tournament=t, pairing=record["id"], user=ben, expected_seq=AT_HEAD)
    assert receiver.events() == ["pairing", "result", "finished"]
    result, finished = (json.loads(r["body"])["data"] for r in receiver.requests[1:])
    assert result["result"] == {"winner": pid(ann)} and result["text"] == "ann won"
    assert [(r["rank"], r["name"]) for r in finished["standings"]][:2] == [(1, "ann"), (2, "ben")]


def test_a_refused_command_posts_nothing(client_for, organiser, receiver, django_capture_on_commit_callbacks):
    ann, ben, cat = people("ann", "ben", "cat")
    t = open_tournament(organiser, "single_elimination", [ann, ben])
    hooked(client_for, organiser, t, receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        refused("not_organiser", services.tournament_start, tournament=t, by=cat)
    assert receiver.requests == [] and not WebhookDelivery.objects.exists()


def test_a_failed_delivery_is_retried_with_backoff_and_logged(
    client_for, organiser, receiver, django_capture_on_commit_callbacks
):
    ann, ben = people("ann", "ben")
    t = open_tournament(organiser, "single_elimination", [ann, ben])
    hook = hooked(client_for, organiser, t, receiver.url)
    receiver.answers = [500]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)  # succeeds all the same
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("pending", 1, 500)
    assert "500" in delivery.last_error
    wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
    assert 5 < wait <= 10

    assert webhooks_retry_due() == 0  # not before its backoff
    assert len(receiver.requests) == 1
    assert webhooks_retry_due(now=timezone.now() + timedelta(seconds=11)) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 2, 200)
    first, second = receiver.requests
    assert first["body"] == second["body"]  # the same event, the same id
    log = client_for(organiser).get(f"/api/tournaments/{t.id}/webhooks/").json()["webhooks"][0]
    assert log["id"] == hook["id"]
    assert [(d["event"], d["status"], d["attempts"]) for d in log["deliveries"]] == [("pairing", "delivered", 2)]


def test_a_receiver_that_keeps_failing_is_given_up_after_the_last_attempt(
    client_for, organiser, receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOKS_MAX_ATTEMPTS = 3
    ann, ben = people("ann", "ben")
    t = open_tournament(organiser, "single_elimination", [ann, ben])
    hooked(client_for, organiser, t, receiver.url)
    receiver.answers = [503, 503, 503, 200]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    delivery = WebhookDelivery.objects.get()
    assert 5 < (delivery.next_attempt_at - timezone.now()).total_seconds() <= 10
    at = delivery.next_attempt_at
    assert webhooks_retry_due(now=at) == 1
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and delivery.next_attempt_at - at == timedelta(seconds=20)  # the wait doubles
    assert webhooks_retry_due(now=delivery.next_attempt_at) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.next_attempt_at) == ("failed", 3, None)
    assert webhooks_retry_due(now=timezone.now() + timedelta(days=1)) == 0
    assert len(receiver.requests) == 3


def test_a_redirect_is_not_followed(client_for, organiser, receiver, django_capture_on_commit_callbacks):
    ann, ben = people("ann", "ben")
    t = open_tournament(organiser, "single_elimination", [ann, ben])
    hooked(client_for, organiser, t, receiver.url)
    receiver.answers = [302]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.last_status_code) == ("pending", 302)
    assert [r["path"] for r in receiver.requests] == ["/hook"]


def test_a_name_that_rebinds_to_loopback_after_the_check_reaches_nothing(
    client_for, organiser, receiver, settings, monkeypatch, django_capture_on_commit_callbacks
):
    # A hostile name server answers the checks with a public address and the connection with
    # loopback (DNS rebinding, time to live 0): the attempt must connect to what it checked.
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    port = receiver.server.server_address[1]
    real, asked = socket.getaddrinfo, []

    def rebinding(host, *args, **kwargs):
        if host != "hooks.rebind.example":
            return real(host, *args, **kwargs)
        asked.append(host)
        ip = "93.184.216.34" if len(asked) <= 2 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (ip, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    t = open_tournament(organiser, "swiss", people("ann", "ben", "cat", "dan"), rounds=3)
    hooked(client_for, organiser, t, f"http://hooks.rebind.example:{port}/hook")  # lookup 1: public
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    assert receiver.requests == []
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "pending" and delivery.last_status_code is None
    assert "loopback, private or reserved" in delivery.last_error
    assert len(asked) == 3  # registration, the attempt's check, and the connection's own (checked) lookup


def test_a_signature_older_than_five_minutes_is_refused_by_the_receivers_check():
    body = b'{"type":"result"}'
    old = int(time.time()) - 600
    assert verify("whsec_x", body, sign("whsec_x", body, int(time.time())))
    assert not verify("whsec_x", body, sign("whsec_x", body, old))
    assert not verify("whsec_x", body, "garbage")


def test_the_tournament_page_shows_the_webhook_form_to_the_organiser_only(client, organiser):
    ann = people("ann")[0]
    t = open_tournament(organiser, "swiss", [ann])
    client.force_login(organiser)
    assert 'data-testid="webhook-form"' in client.get(f"/tournaments/{t.id}/").content.decode()
    client.force_login(ann)
    assert 'data-testid="webhook-form"' not in client.get(f"/tournaments/{t.id}/").content.decode()
    client.logout()
    assert 'data-testid="webhook-form"' not in client.get(f"/tournaments/{t.id}/").content.decode()
