"""The attack of issue 9, played for real: hash every candidate secret against the published hash.

While a match is live, the event feed serves each event's hash. If that hash covered only the
event's content, anyone could hash each possible face-down card (70 of them), each possible
line-up order (120) or spell list (1,024) and see which one matches. Salts (docs/AUDIT.md 4)
stop that: a redacted event is served without its salt, and without the stream secret nobody
can compute one. Each test also runs the same attack with the salt, as the owner of the secret
sees the event, to show the attack itself works and would find the secret were it unsalted.
"""

from __future__ import annotations

import itertools
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from audit.chain import check_chain, event_hash, hash_payload
from engines import registry
from engines.dueling_wizards import deck
from engines.iwdl_draft.engine import spell_order
from matches import services
from matches.models import Event, Match

from .helpers import fresh, new_duel, post_action


def candidate_hits(served: dict, stream: str, candidates, salt: str | None = None) -> list:
    """The candidate data whose hash equals the served hash (with ``salt``, if the attacker has one)."""
    hits = []
    for data in candidates:
        payload = hash_payload(
            stream=stream,
            seq=served["seq"],
            event_id=served["event_id"],
            type=served["type"],
            data=data,
            actor=served["actor"],
            recorded_at=served["recorded_at"],
            salt=salt,
        )
        if event_hash(served["prev_hash"], payload) == served["hash"]:
            hits.append(data)
    return hits


def defence_candidates(seat: int):
    return [{"seat": seat, "action": {"type": "defend", "card": card}} for card in deck.ALL_CARDS]


def served_event(client, match: Match, seq: int) -> dict:
    events = client.get(f"/api/matches/{match.id}/events/", {"after": seq - 1, "limit": 1}).json()["events"]
    assert events[0]["seq"] == seq
    return events[0]


def defend(client, match: Match, seat: int) -> tuple[int, str]:
    card = client.get(f"/api/matches/{match.id}/legal/", {"seat": seat}).json()["actions"][0]["card"]
    response = post_action(client, match, seat, {"type": "defend", "card": card})
    assert response.status_code == 201, response.json()
    return fresh(match).state_seq, card


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3])
def test_a_face_down_defence_cannot_be_recovered_from_its_hash(players, make_user, client_for):
    users = [make_user(name) for name in ("ann", "ben", "cat")[:players]]
    match = new_duel(*users)
    defender = 1  # seat 0 attacks first
    seq, card = defend(client_for(users[defender]), match, defender)

    opponents = [client_for(u) for i, u in enumerate(users) if i != defender] + [client_for()]
    for client in opponents:
        served = served_event(client, match, seq)
        assert served["data"]["action"] == {"type": "defend"} and served["salt"] is None
        assert candidate_hits(served, match.stream_id, defence_candidates(defender)) == []
        # Nothing in what this viewer was served names the card either.
        assert card not in str(client.get(f"/api/matches/{match.id}/events/").json()["events"][-1])

    owner_view = served_event(client_for(users[defender]), match, seq)
    assert owner_view["salt"] is not None
    hits = candidate_hits(owner_view, match.stream_id, defence_candidates(defender), salt=owner_view["salt"])
    assert hits == [{"seat": defender, "action": {"type": "defend", "card": card}}]


@pytest.mark.django_db
def test_a_hidden_line_up_and_spell_list_cannot_be_recovered_from_their_hashes(make_user, client_for):
    ann, ben = make_user("ann"), make_user("ben")
    match = services.match_create(
        game="iwdl-draft",
        seats=[services.SeatSpec(user=ann), services.SeatSpec(user=ben)],
        created_by=ann,
        config={"format": "basic"},
    )
    match = fresh(match)
    team = list(match.state["teams"][0])
    lineup = [team[i] for i in (3, 1, 4, 0, 2)]
    affordable = [s for s in spell_order()][:2]
    for action in ({"type": "lineup", "wizards": lineup}, {"type": "spells", "spells": affordable}):
        response = post_action(client_for(ann), match, 0, action)
        assert response.status_code == 201, response.json()
    head = fresh(match).state_seq
    lineup_seq, spells_seq = head - 1, head

    lineups = [{"seat": 0, "action": {"type": "lineup", "wizards": list(p)}} for p in itertools.permutations(team)]
    spell_lists = [
        {"seat": 0, "action": {"type": "spells", "spells": [s for s, keep in zip(spell_order(), bits) if keep]}}
        for bits in itertools.product((0, 1), repeat=len(spell_order()))
    ]
    assert len(lineups) == 120 and len(spell_lists) == 1024
    for client in (client_for(ben), client_for()):
        served_lineup, served_spells = served_event(client, match, lineup_seq), served_event(client, match, spells_seq)
        assert served_lineup["data"]["action"] == {"type": "lineup"} and served_lineup["salt"] is None
        assert served_spells["data"]["action"] == {"type": "spells"} and served_spells["salt"] is None
        assert candidate_hits(served_lineup, match.stream_id, lineups) == []
        assert candidate_hits(served_spells, match.stream_id, spell_lists) == []

    mine = served_event(client_for(ann), match, lineup_seq)
    assert candidate_hits(mine, match.stream_id, lineups, salt=mine["salt"]) == [
        {"seat": 0, "action": {"type": "lineup", "wizards": lineup}}
    ]


@pytest.mark.django_db
def test_a_private_draw_cannot_be_recovered_from_its_hash(make_user, client_for):
    """Every hidden chance outcome small enough to enumerate is attacked over its whole range."""
    ann, ben = make_user("ann"), make_user("ben")
    match = new_duel(ann, ben)
    events = Event.objects.filter(stream_id=match.stream_id, type="chance").order_by("seq")
    attacked = 0
    for stored in events:
        spec = stored.data["spec"]
        served = served_event(client_for(ben), match, stored.seq)
        if not served["data"]["hidden"]:
            continue
        assert served["data"]["outcome"] is None and served["salt"] is None
        if spec["kind"] != "draw" or spec["pool"] ** spec["count"] > 400_000:
            continue
        outcomes = itertools.permutations(range(spec["pool"]), spec["count"])
        candidates = ({"spec": spec, "outcome": list(o)} for o in outcomes)
        assert candidate_hits(served, match.stream_id, candidates) == []
        attacked += 1
    if registry.get("dueling-wizards").version != "1":
        assert attacked, "the current Dueling Wizards deals by private draws: one must have been attacked"


@pytest.mark.django_db
def test_after_the_end_every_hash_and_salt_recomputes_from_the_revealed_secret(make_user, client_for):
    from .helpers import play_out

    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    match = play_out({0: client_for(ann), 1: client_for(ben), 2: client_for(cat)}, new_duel(ann, ben, cat))
    assert match.status == Match.Status.FINISHED
    summary = client_for().get(f"/api/matches/{match.id}/").json()
    events = client_for().get(f"/api/matches/{match.id}/events/", {"limit": 200}).json()["events"]
    while events[-1]["seq"] < summary["head_seq"]:
        events += (
            client_for()
            .get(f"/api/matches/{match.id}/events/", {"after": events[-1]["seq"], "limit": 200})
            .json()["events"]
        )
    assert all(e["salt"] for e in events[1:]) and events[0]["salt"] is None
    assert check_chain(events, bytes.fromhex(summary["seed"])).ok
    assert check_chain(events, bytes.fromhex(summary["seed"])).head_hash == summary["head_hash"]


# -- the same attack through the websocket -------------------------------------------------------


@database_sync_to_async
def _duel():
    from django.contrib.auth import get_user_model

    users = get_user_model()
    ann = users.objects.create_user("ann", password="pw-ann")
    ben = users.objects.create_user("ben", password="pw-ben")
    return ann, ben, new_duel(ann, ben)


@database_sync_to_async
def _cookie(username: str) -> bytes:
    client = Client()
    assert client.login(username=username, password=f"pw-{username}")
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


@database_sync_to_async
def _ben_defends(match: Match, ben) -> str:
    match.refresh_from_db()
    card = registry.get(match.game, match.engine_version).legal_actions(match.state, 1)[0]["card"]
    services.match_act(
        match_id=match.id,
        user=ben,
        seat=1,
        action={"type": "defend", "card": card},
        expected_seq=match.state_seq,
        event_id=uuid.uuid4(),
    )
    return card


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_the_websocket_frame_gives_the_defence_away_neither_to_the_opponent_nor_to_a_spectator(
    close_thread_connections,
):
    ann, ben, match = await _duel()
    sockets = {}
    for name in ("ann", None):
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
        if name:
            headers.append((b"cookie", await _cookie(name)))
        socket = WebsocketCommunicator(application(), f"/ws/matches/{match.id}/?after=0", headers=headers)
        assert (await socket.connect())[0]
        await socket.receive_json_from(timeout=10)
        sockets[name] = socket
    card = await _ben_defends(match, ben)
    for socket in sockets.values():
        frame = await socket.receive_json_from(timeout=10)
        [served] = [e for e in frame["events"] if e["type"] == "action"]
        assert served["data"]["action"] == {"type": "defend"} and served["salt"] is None
        assert card not in str(frame)
        assert candidate_hits(served, match.stream_id, defence_candidates(1)) == []
        await socket.disconnect()


def application():
    from config.asgi import application as app

    return app
