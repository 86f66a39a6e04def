"""Organisers' webhooks: signed POSTs of a tournament's pairings, results and finish.

Each delivery is JSON signed like Stripe's: the header ``Wizard-Duels-Signature: t=<unix time>,
v1=<hex HMAC-SHA256(secret, "<t>.<body>")>``. A receiver recomputes the HMAC over the timestamp, a
dot and the raw body, compares in constant time, and refuses old timestamps (replays).

Deliveries are tried by a Celery task; a failure (no answer, or a status outside 2xx) is written
to the delivery log and tried again after 10 s, 20 s, 40 s ... up to ``WEBHOOKS_MAX_ATTEMPTS``
attempts, then marked failed. The beat task ``tournaments.webhooks_retry_due`` picks up any retry
whose time has come that a worker lost (and drives retries in eager mode, where no task waits).

Delivery is at least once: a worker that dies after the receiver answered and before the attempt
is recorded leaves the delivery pending, and it is POSTed again. Every attempt of a delivery
carries the same ``Idempotency-Key`` header (the delivery's key: the endpoint and the happening),
so a receiver that remembers the keys it has processed drops the repeat. The body's ``id`` (signed)
names the happening, the same for every endpoint.

A URL must be http(s) and resolve to public addresses only (checked when registered and again
before every attempt, and redirects are not followed), unless ``WEBHOOKS_ALLOW_PRIVATE``. The
attempt connects to the very address it checked: a name that answered with a public address to
the check and a private one to the connection (DNS rebinding) reaches nothing. No HTTP proxy is
used (a proxy would make the connection's address the proxy's, not the receiver's).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.celery import app
from matches.outbox import handler, outbox_add

from ..errors import refuse
from ..models import WebhookDelivery, WebhookEndpoint

SIGNATURE_HEADER = "Wizard-Duels-Signature"
IDEMPOTENCY_HEADER = "Idempotency-Key"
EVENTS = ("pairing", "result", "finished")
RETRY_START, RETRY_CAP = 10, 3600


def sign(secret: str, body: bytes, timestamp: int) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def verify(secret: str, body: bytes, header: str, *, tolerance: int = 300, now: float | None = None) -> bool:
    """What a receiver does (and what the tests do): check the signature and the timestamp's age."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
    except (ValueError, KeyError):
        return False
    if abs((now or time.time()) - timestamp) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, body, timestamp), f"t={timestamp},v1={parts.get('v1', '')}")


#: IPv6 prefixes that carry an IPv4 address a gateway may forward to, which Python counts as
#: global: NAT64's local-use prefix (RFC 8215, where the address may sit at several places) and the
#: deprecated IPv4-compatible ::/96. NAT64's well-known prefix (RFC 6052) carries it in its last 32 bits.
_V4_CARRIERS = (ipaddress.ip_network("64:ff9b:1::/48"), ipaddress.ip_network("::/96"))
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in net for net in _V4_CARRIERS):
            return False
        # An address that reaches an IPv4 one through a translator or a tunnel (mapped, 6to4's
        # 2002::/16, NAT64's) is as public as that address, not more. (Teredo's 2001::/32 is
        # not global to begin with.)
        v4 = ip.ipv4_mapped or ip.sixtofour or (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF) if ip in _NAT64 else None)
        if v4 is not None:
            return _public(str(v4))
    return ip.is_global and not ip.is_multicast


def _public_addresses(host: str, port: int) -> list[tuple]:
    """Every address the name resolves to now, if all of them are public; else a refusal."""
    try:
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError, UnicodeError):
        raise refuse(f"The host {host} cannot be found.", "bad_webhook_url", 400) from None
    if not found or not all(_public(info[4][0]) for info in found):
        raise refuse(
            f"The host {host} is a loopback, private or reserved address; webhooks go to public hosts.",
            "bad_webhook_url",
            400,
        )
    return found


def check_url(url: str) -> str:
    """The URL if it may be called, else a refusal (``bad_webhook_url``) saying why."""
    url = (url or "").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise refuse("A webhook URL starts with http:// or https:// and names a host.", "bad_webhook_url", 400)
    if parts.username or parts.password:
        raise refuse("A webhook URL carries no user name or password.", "bad_webhook_url", 400)
    if len(url) > 500:
        raise refuse("A webhook URL is at most 500 characters.", "bad_webhook_url", 400)
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        return url
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise refuse("A webhook URL's port is a number from 1 to 65535.", "bad_webhook_url", 400) from None
    _public_addresses(parts.hostname, port)
    return url


# --------------------------------------------------------------------------------------
# Queueing (after a command's commit, from followups.fan_out)


def _body(tournament_id: str, event: str, event_id: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": event_id,
        "type": event,
        "tournament": tournament_id,
        "url": f"{settings.SITE_URL}/tournaments/{tournament_id}/",
        "data": data,
    }


def _events(payload) -> list[tuple[str, str, dict[str, Any]]]:
    tid, seq = payload["tournament"], payload["seq"]
    out = []
    # One "pairing" event per command: the new pairings and the new byes of the round together, as
    # a results board would print them.
    paired = [p for n in payload["notices"] if n["kind"] == "paired" for p in n["pairings"]]
    byes = [p for n in payload["notices"] if n["kind"] == "bye" for p in n["pairings"]]
    if paired or byes:
        rounds = sorted({p["round"] for p in paired + byes})
        out.append(("pairing", f"{tid}:{seq}:pairing", {"rounds": rounds, "pairings": paired, "byes": byes}))
    for n in payload["notices"]:
        if n["kind"] == "result":
            data = {k: n[k] for k in ("pairing", "round", "board", "table", "match", "players", "names", "result")}
            data["text"] = n["text"]
            out.append(("result", f"{tid}:{seq}:result:{n['pairing']}", data))
        elif n["kind"] == "finished":
            out.append(("finished", f"{tid}:{seq}:finished", {"standings": n["standings"]}))
    return out


def webhooks_queue(payload) -> None:
    endpoints = list(WebhookEndpoint.objects.filter(tournament_id=payload["tournament"]))
    if not endpoints:
        return
    for event, event_id, data in _events(payload):
        for endpoint in endpoints:
            delivery, created = WebhookDelivery.objects.get_or_create(
                key=f"{endpoint.pk}:{event_id}",
                defaults={
                    "endpoint": endpoint,
                    "event": event,
                    "body": _body(payload["tournament"], event, event_id, data),
                    "next_attempt_at": timezone.now(),
                },
            )
            if created:
                # The task is sent after this commits, and again by the sweeper if the broker was down.
                outbox_add(topic="tournament.webhook", payload={"delivery": delivery.pk})


@handler(
    "tournament.webhook",
    if_given_up="tournaments.webhooks_retry_due (every 30 s) tries every pending webhook delivery whose time has "
    "come, with the delivery's own attempts",
)
def _dispatch(payload: dict[str, Any]) -> None:
    webhook_deliver.delay(payload["delivery"])


# --------------------------------------------------------------------------------------
# Delivery


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A redirect could point anywhere, a private address included: it counts as a failed attempt.
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def _connect_checked(address, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, source_address=None):
    # Resolve once, check what was resolved, connect to exactly that: no second lookup between the
    # check and the connection for a rebinding name server to answer differently.
    host, port = address
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        return socket.create_connection(address, timeout, source_address)
    error: OSError | None = None
    for family, kind, proto, _name, where in _public_addresses(host, port):
        sock = socket.socket(family, kind, proto)
        try:
            if timeout is not socket._GLOBAL_DEFAULT_TIMEOUT:
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(where)
            return sock
        except OSError as exc:
            sock.close()
            error = exc
    raise error or OSError(f"No address of {host} answered.")


class _CheckedHTTP(http.client.HTTPConnection):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _connect_checked


class _CheckedHTTPS(http.client.HTTPSConnection):
    # The TLS handshake still names and verifies the host: only the TCP connection is pinned.
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _connect_checked


class _CheckedHTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_CheckedHTTP, req)


class _CheckedHTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req):
        return self.do_open(_CheckedHTTPS, req, context=self._context)


_opener = urllib.request.build_opener(
    urllib.request.ProxyHandler({}), _CheckedHTTPHandler, _CheckedHTTPSHandler, _NoRedirect
)


def _post(url: str, secret: str, body: bytes, delivery: WebhookDelivery) -> int:
    check_url(url)  # again: the name may resolve elsewhere now than when it was registered
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "WizardDuels-Webhooks/1",
            SIGNATURE_HEADER: sign(secret, body, int(time.time())),
            "Wizard-Duels-Event": delivery.event,
            "Wizard-Duels-Delivery": str(delivery.pk),
            # The same on every attempt of this delivery, and the same however often its happening
            # was queued: a receiver drops a repeat (a worker that died after the POST and before
            # recording it sends it again) by remembering the keys it has processed.
            IDEMPOTENCY_HEADER: delivery.key,
        },
    )
    try:
        with _opener.open(request, timeout=settings.WEBHOOKS_TIMEOUT) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def delivery_attempt(*, delivery_id: int, now=None) -> str:
    """Try one delivery once, if its time has come; returns its status afterwards (delivered,
    pending, failed), or "done" when there was nothing to try."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(skip_locked=True)
            .select_related("endpoint")
            .filter(pk=delivery_id, status=WebhookDelivery.PENDING)
            # Not before its backoff has passed (a second of slack for a timer that fires early).
            .filter(next_attempt_at__lte=now + timedelta(seconds=1))
            .first()
        )
        if delivery is None:
            return "done"  # delivered or given up already, or being tried by another worker now
        body = json.dumps(delivery.body, sort_keys=True, separators=(",", ":")).encode()
        delivery.attempts += 1
        try:
            code = _post(delivery.endpoint.url, delivery.endpoint.secret, body, delivery)
            error = "" if 200 <= code < 300 else f"The receiver answered HTTP {code}."
        except Exception as exc:  # refused URL, no answer, timeout: all recorded, none raised
            code = None
            error = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        delivery.last_status_code = code
        delivery.last_error = str(error)[:500]
        if not error:
            delivery.status, delivery.delivered_at, delivery.next_attempt_at = (
                WebhookDelivery.DELIVERED,
                timezone.now(),
                None,
            )
        elif delivery.attempts >= settings.WEBHOOKS_MAX_ATTEMPTS:
            delivery.status, delivery.next_attempt_at = WebhookDelivery.FAILED, None
        else:
            delay = min(RETRY_CAP, RETRY_START * 2 ** (delivery.attempts - 1))
            delivery.next_attempt_at = now + timedelta(seconds=delay)
        delivery.save()
        return delivery.status


def retry_delay(delivery: WebhookDelivery) -> float:
    return max(0.0, (delivery.next_attempt_at - timezone.now()).total_seconds()) if delivery.next_attempt_at else 0.0


@app.task(name="tournaments.webhook_deliver", bind=True, acks_late=True)
def webhook_deliver(self, delivery_id: int) -> str:
    status = delivery_attempt(delivery_id=delivery_id)
    if status == WebhookDelivery.PENDING and not self.request.is_eager:
        # The next attempt after its backoff; if this is lost, webhooks_retry_due finds it.
        delivery = WebhookDelivery.objects.filter(pk=delivery_id).first()
        if delivery is not None:
            webhook_deliver.apply_async((delivery_id,), countdown=retry_delay(delivery))
    return status


@app.task(name="tournaments.webhooks_retry_due", acks_late=True)
def webhooks_retry_due(now=None) -> int:
    """Try every pending delivery whose time has come (the beat's backstop); returns how many."""
    now = now or timezone.now()
    due = list(
        WebhookDelivery.objects.filter(status=WebhookDelivery.PENDING, next_attempt_at__lte=now)
        .order_by("id")
        .values_list("pk", flat=True)[:200]
    )
    for pk in due:
        delivery_attempt(delivery_id=pk, now=now)
    return len(due)
