"""What a tournament command changed, told to players by email and to organisers' webhooks.

A command notes its changes inside its own transaction (``command_followups``: one outbox row
of plain facts, names and tables included, so nothing here re-folds the stream later). After
the commit the outbox delivers that row (``fan_out``): one ``tournament.email`` message per
player to write to, one webhook delivery per endpoint. A refused command writes no row, so it
sends nothing. Each email carries an idempotency key (stream, seq, kind, player): a message
delivered twice is sent once, unless the process died between sending it and recording the key;
that second copy carries the first one's Message-ID (``message_id``), so mail systems that keep one
message per id show it once.
A mail server that is down fails only the email's outbox message, which the sweeper retries with
backoff; the command that caused it was reported as the success it is.

Only a player who asked to be in the tournament is written to (``projection.asked_to_play``): one
who registered themselves, or confirmed the entry the organiser made for them. Anyone can organise
a tournament, name it with any text and enter any account: without this rule the platform would
mail that text to strangers. Who asked is read from the state the command ran on and carried in the
row (``write_to``), like the rest of the facts. Webhooks are the organiser's own: unchanged.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage

from matches.outbox import handler, outbox_add

from .. import sheets
from ..models import EmailOptOut, EmailSent, Tournament
from ..projection import asked_to_play
from ..standings import as_decimal, as_text, match_points, progress, standings
from ..states import OPEN, PairingStatus, ResultSource
from .webhooks import webhooks_queue

log = logging.getLogger(__name__)

#: Event types that can change nothing a player or a webhook hears about: no outbox row for them.
QUIET = frozenset(
    {
        "tournament.created",
        "player.registered",
        "player.waitlisted",
        "player.promoted",
        "player.withdrew",
        "player.checked_in",
        "player.check_in_undone",
        "player.entry_confirmed",
        "player.seeded",
        "options.changed",
        "draft.opened",
    }
)


def _ready(record) -> bool:
    # A pairing people sit down to play: two or more known players, not yet decided.
    return record["status"] in OPEN and len(record["players"]) > 1 and None not in record["players"]


def _bye(record) -> bool:
    # A player sitting a round out, given the bye by the pairing, by the organiser or at their own request.
    return len(record["players"]) == 1 and bool((record["result"] or {}).get("bye"))


def snapshot(state) -> dict[str, Any]:
    """What a command may change that someone is told about, taken before it runs (cheap: no copy
    of the state)."""
    return {
        "ready": {pid: tuple(r["players"]) for pid, r in state["pairings"].items() if _ready(r)},
        "final": {pid: r["result"] for pid, r in state["pairings"].items() if r["status"] == PairingStatus.FINAL},
        "byes": {pid: tuple(r["players"]) for pid, r in state["pairings"].items() if _bye(r)},
        "finished": bool(state["started"]) and progress(state)["finished"],
    }


def _names(state, pids) -> list[str]:
    return [state["players"][p]["name"] if p in state["players"] else p for p in pids]


def _pairing_fact(state, record) -> dict[str, Any]:
    tables = sheets.table_numbers(state, record["round"])
    return {
        "pairing": record["id"],
        "round": record["round"],
        "board": record["board"],
        "table": tables.get(record["id"]),
        "match": record["bracket_match"],
        "players": list(record["players"]),
        "names": _names(state, record["players"]),
    }


def describe(state, result) -> str:
    """A result in words, with names: "alice won", "a draw", "1st alice; 2nd bob, carol"."""
    if not result:
        return "no result"
    if result.get("bye"):
        return "a bye"
    if result.get("double_forfeit"):
        return "a double forfeit"
    if result.get("draw"):
        return "a draw"
    if "finish" in result:
        return "; ".join(f"{i}. {', '.join(_names(state, place))}" for i, place in enumerate(result["finish"], 1))
    won = _names(state, [result["winner"]])[0]
    return f"{won} won by forfeit" if result.get("forfeit") else f"{won} won"


def notices(before: dict[str, Any], state, events) -> list[dict[str, Any]]:
    """The facts to tell about, in a fixed order (rounds and boards, then events by seq)."""
    out: list[dict[str, Any]] = []
    ordered = [pid for rnd in state["rounds"] for pid in rnd["pairings"]]
    paired = [
        _pairing_fact(state, state["pairings"][pid])
        for pid in ordered
        if _ready(state["pairings"][pid]) and before["ready"].get(pid) != tuple(state["pairings"][pid]["players"])
    ]
    if paired:
        out.append({"kind": "paired", "pairings": paired})
    # Whoever now sits a round out is told so, as the paired are told their table: a bye holder who
    # hears nothing waits at the venue for an opponent who does not exist. ``get`` on an older
    # snapshot (one queued before byes were told) tells nothing twice.
    byes = [
        {
            **_pairing_fact(state, record),
            "requested": bool(record["result"].get("requested")),
            "worth": as_decimal(match_points(state, record)[record["players"][0]]),
        }
        for record in (state["pairings"][pid] for pid in ordered)
        if _bye(record) and before.get("byes", {}).get(record["id"]) != tuple(record["players"])
    ]
    if byes:
        out.append({"kind": "bye", "pairings": byes})
    for event in events:
        if event.type == "result.reported":
            record = state["pairings"][event.data["pairing"]]
            out.append(
                {
                    "kind": "confirm",
                    "seq": event.seq,
                    "by": event.data["by"],
                    "by_name": _names(state, [event.data["by"]])[0],
                    "result": describe(state, event.data["result"]),
                    **_pairing_fact(state, record),
                }
            )
    for pid in ordered:
        record = state["pairings"][pid]
        if record["status"] != PairingStatus.FINAL or record["source"] == ResultSource.BYE:
            continue
        if before["final"].get(pid) != record["result"]:
            out.append(
                {
                    "kind": "result",
                    "result": record["result"],
                    "text": describe(state, record["result"]),
                    "source": record["source"],
                    **_pairing_fact(state, record),
                }
            )
    if not before["finished"] and progress(state)["finished"]:
        tables = standings(state)["tables"]
        rows = tables[0]["rows"] if tables else []
        out.append(
            {
                "kind": "finished",
                "standings": [{"rank": r["rank"], "name": r["name"], "score": as_text(r["score"])} for r in rows],
            }
        )
    return out


def command_followups(appender, *, tournament: Tournament, before: dict[str, Any] | None, state) -> None:
    """Called by the command runner after a command's facts are appended, in its transaction."""
    if before is None or not appender.events:
        return
    found = notices(before, state, appender.events)
    if found:
        appender.outbox(
            "tournament.reach",
            {
                "tournament": str(tournament.pk),
                "seq": appender.events[-1].seq,
                "notices": found,
                "write_to": write_to(state, found),
            },
        )


def write_to(state, found: list[dict[str, Any]]) -> list[str]:
    """The players the notices name who asked to be in the tournament: the only ones emailed."""
    named = {pid for n in found for p in n.get("pairings", [n]) for pid in p.get("players", ())}
    return sorted(pid for pid in named if pid in state["players"] and asked_to_play(state["players"][pid]))


def wants_snapshot(types) -> bool:
    return any(t not in QUIET for t in types)


# --------------------------------------------------------------------------------------
# After the commit


def player_url(tournament_id: str, username: str) -> str:
    return f"{settings.SITE_URL}/tournaments/{tournament_id}/players/{username}/"


def _emails(payload) -> list[dict[str, Any]]:
    """One email per player to write to: (key, user id, subject, body)."""
    tid, seq = payload["tournament"], payload["seq"]
    tournament = Tournament.objects.filter(pk=tid).first()
    if tournament is None:
        return []
    out = []
    for notice in payload["notices"]:
        if notice["kind"] == "paired":
            for p in notice["pairings"]:
                for i, pid in enumerate(p["players"]):
                    opponents = [n for j, n in enumerate(p["names"]) if j != i]
                    where = f"table {p['table']}" if p["table"] else f"board {p['board']}"
                    subject = f"{tournament.name}: round {p['round']}, you play {', '.join(opponents)} at {where}"
                    body = [
                        f"You are paired in {tournament.name}.",
                        f"Round: {p['round']}" + (f" (match {p['match']})" if p["match"] else ""),
                        f"Opponent{'s' if len(opponents) > 1 else ''}: {', '.join(opponents)}",
                        f"Table: {p['table']}" if p["table"] else f"Board: {p['board']}",
                    ]
                    out.append({"key": f"paired:{tid}:{seq}:{p['pairing']}:{pid}", "pid": pid, "s": subject, "b": body})
        elif notice["kind"] == "bye":
            for p in notice["pairings"]:
                [pid] = p["players"]
                points = "point" if p["worth"] == "1" else "points"
                why = "the bye you asked for" if p["requested"] else "a bye"
                subject = f"{tournament.name}: round {p['round']}, you have a bye"
                body = [
                    f"You sit out round {p['round']} of {tournament.name}: {why}, worth {p['worth']} {points}.",
                    "There is no opponent to wait for in this round.",
                ]
                out.append({"key": f"bye:{tid}:{seq}:{p['pairing']}:{pid}", "pid": pid, "s": subject, "b": body})
        elif notice["kind"] == "confirm":
            for pid in notice["players"]:
                if pid == notice["by"]:
                    continue
                subject = f"{tournament.name}: confirm the result of round {notice['round']}"
                body = [
                    f"{notice['by_name']} reported the result of your round {notice['round']} game in "
                    f"{tournament.name}: {notice['result']}.",
                    "Confirm it, or dispute it if it is wrong, on your page.",
                ]
                out.append({"key": f"confirm:{tid}:{notice['seq']}:{pid}", "pid": pid, "s": subject, "b": body})
    return out


# Nothing re-derives a command's emails and webhooks: a dead message of it is logged as an error,
# with what is lost. Its handler only writes rows (it needs no broker, no mail server), so it dies of
# a bug, not of an outage, and a sweep would run the same bug. Its row keeps every fact they are made
# from (a sweep would have to replay the stream to before the command), and what it queues is keyed
# (EmailSent, WebhookDelivery.key): ``manage.py outbox retry`` once the bug is fixed sends each once.
@handler(
    "tournament.reach",
    if_given_up="the players it names miss that command's emails (their pairing, bye or result to "
    "confirm: their tournament page shows it) and the organiser's webhooks miss its pairing, result "
    "and finish deliveries (the tournament's API, /api/tournaments/<id>/ and its events/, holds them); "
    "it dies of a bug in its handler, which only writes rows",
    lost=True,
)
def fan_out(payload: dict[str, Any]) -> None:
    """Runs once per command, after its commit: queue each email and each webhook delivery."""
    User = get_user_model()
    # A row queued before ``write_to`` was carried writes to nobody: the rule fails closed.
    asked = set(payload.get("write_to", ()))
    emails = [e for e in _emails(payload) if e["pid"] in asked]
    users = {str(u.pk): u for u in User.objects.filter(pk__in={int(e["pid"]) for e in emails if e["pid"].isdigit()})}
    opted_out = set(EmailOptOut.objects.filter(user__in=users.values()).values_list("user_id", flat=True))
    for e in emails:
        user = users.get(e["pid"])
        if user is None or not user.email or user.pk in opted_out:
            continue  # no address, or asked for none
        link = player_url(payload["tournament"], user.username)
        body = "\n".join(
            [f"Hello {user.username},", "", *e["b"], "", link, "", OPT_OUT_LINE.format(site=settings.SITE_URL)]
        )
        outbox_add(
            topic="tournament.email", payload={"key": e["key"], "to": user.email, "subject": e["s"], "body": body}
        )
    webhooks_queue(payload)


OPT_OUT_LINE = (
    "You get these emails because you entered this tournament; turn them off on your account page: {site}/accounts/"
)


@handler(
    "tournament.email",
    if_given_up="one player misses one email; what it said is on their tournament page",
)
def send_email(payload: dict[str, Any]) -> None:
    """One email, once: the key is recorded in the same transaction that marks the message
    delivered, so only a crash between the send and that commit can send it again."""
    if EmailSent.objects.filter(key=payload["key"]).exists():
        return
    EmailMessage(
        payload["subject"],
        payload["body"],
        settings.DEFAULT_FROM_EMAIL,
        [payload["to"]],
        headers={"Message-ID": message_id(payload["key"])},
    ).send(fail_silently=False)
    EmailSent.objects.create(key=payload["key"])


def message_id(key: str) -> str:
    """The same Message-ID for every sending of one email (Django would make a new one each time):
    a copy sent again after that crash carries the id of the first, and mail systems that keep one
    message per Message-ID (Gmail among them) show it once."""
    domain = urlsplit(settings.SITE_URL).hostname or "wizard-duels.invalid"
    return f"<{hashlib.sha256(key.encode()).hexdigest()[:32]}.reach@{domain}>"
