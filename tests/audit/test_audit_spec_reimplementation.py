"""docs/AUDIT.md, implemented a second time from the page alone and checked on recorded matches.

An auditor who reads only docs/AUDIT.md and the public API must be able to recompute every hash
and salt and re-derive every chance outcome. So this module imports nothing of the platform's
hashing or chance code (no audit.chain, no engines.chance): hashlib, hmac and json only. It
downloads finished matches of every registered engine through the API, as an auditor would.
"""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from engines import registry
from matches.autoplay import autoplay_match
from matches.models import Match

pytestmark = pytest.mark.django_db

TWO_TO_64 = 1 << 64


# -- the specification, section by section ------------------------------------------------------


def canonical(value) -> bytes:  # AUDIT.md 2
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def recompute_hash(event: dict) -> str:  # AUDIT.md 3
    payload = {k: event[k] for k in ("stream", "seq", "event_id", "type", "data", "actor", "recorded_at")}
    if event["salt"] is not None:
        payload["salt"] = event["salt"]
    return hashlib.sha256(event["prev_hash"].encode("ascii") + canonical(payload)).hexdigest()


def salt(secret: bytes, stream: str, seq: int) -> str:  # AUDIT.md 4
    return hmac.new(secret, ("salt:" + stream + ":" + str(seq)).encode("ascii"), hashlib.sha256).hexdigest()


class Integers:  # AUDIT.md 5.1
    def __init__(self, secret: bytes, stream: str, seq: int):
        self.secret, self.prefix, self.k = secret, f"{stream}:{seq}:", 0

    def u64(self) -> int:
        digest = hmac.new(self.secret, (self.prefix + str(self.k)).encode("ascii"), hashlib.sha256).digest()
        self.k += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        while True:
            v = self.u64()
            if v < TWO_TO_64 - (TWO_TO_64 % n):
                return v % n


def rederive(spec: dict, secret: bytes, stream: str, seq: int):  # AUDIT.md 5.2
    source = Integers(secret, stream, seq)
    if spec["kind"] == "dice":
        return [lo + source.below(hi - lo + 1) for lo, hi in spec["dice"]]
    if spec["kind"] == "shuffle":
        order = list(range(spec["size"]))
        for i in range(spec["size"] - 1, 0, -1):
            j = source.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order
    if spec["kind"] == "draw":
        remaining, out = list(range(spec["pool"])), []
        for _ in range(spec["count"]):
            out.append(remaining.pop(source.below(len(remaining))))
        return out
    raise AssertionError(f"AUDIT.md has no construction for {spec['kind']!r}")


def check_resignations(events: list[dict]) -> None:  # AUDIT.md 6.2 and 6.3
    """Each ``match.resigned`` event: from a person of its seat, while the game went on and the seat
    was still in it. Where at least two other seats were still in the game and the engine's
    ``leave`` plays on (6.3), it says ``plays_on``, the seat leaves and the replay goes on; any
    other is followed only by the close, whose result is the engine's loss on time for that seat
    said as a resignation. The engine is the game's rules: the state is replayed from the events
    (AUDIT.md 6, step 3)."""
    created = events[0]["data"]
    engine = registry.get(created["game"], created["engine_version"])
    seats = len(created["seats"])
    state = engine.setup(created["config"], seats)
    for at, e in enumerate(events[1:-1], start=1):
        if e["type"] == "action":
            state = engine.apply(state, {"kind": "action", "seat": e["data"]["seat"], "action": e["data"]["action"]})
        elif e["type"] == "chance":
            state = engine.apply(state, {"kind": "chance", "outcome": e["data"]["outcome"]})
        elif e["type"] == "match.resigned":
            assert not engine.draft or seats == 2, "a draft of more than two coaches is not resigned"
            seat = e["data"]["seat"]
            holder = created["seats"][seat]
            assert holder["user_id"] is not None, "a bot never resigns"
            people = [holder["user_id"], *holder.get("partner_ids", [])]
            assert e["actor"] in [f"user:{p}" for p in people], "not the seat's person"
            assert engine.to_move(state), "resigned after the game was over"
            assert engine.in_game(state, seat), "resigned by a seat already out of the game"
            others = sum(1 for s in range(seats) if s != seat and engine.in_game(state, s))
            after = engine.leave(state, seat) if others >= 2 else None
            if e["data"].get("plays_on") is True:
                assert after is not None, "the rules end the game here: it cannot play on"
                state = after
                continue
            assert after is None, "the rules play on here: the resignation cannot end the game"
            assert at == len(events) - 2, "only the close may follow"
            on_time = engine.result_on_time(state, seat, seats)
            expected = {k: v for k, v in on_time.items() if k != "timed_out"} | {"reason": "resigned", "resigned": seat}
            assert events[-1]["data"]["result"] == expected
            return
    assert events[-1]["data"]["result"] == engine.result(state), "the close's result is not the game's"


def audit(events: list[dict], revealed_seed: str) -> dict:
    """Everything AUDIT.md 3-5 asks of a finished server-dealt stream; returns what was checked."""
    secret = bytes.fromhex(revealed_seed)
    created, finished = events[0], events[-1]
    assert created["type"] == "match.created" and finished["type"] == "match.finished"
    assert hashlib.sha256(secret).hexdigest() == created["data"]["seed_commitment"]
    assert finished["data"]["seed"] == revealed_seed
    salted = created["data"].get("hash_scheme") == 2
    prev, counts = "0" * 64, {"events": 0, "salts": 0, "outcomes": 0}
    for expected_seq, event in enumerate(events, start=1):
        assert event["seq"] == expected_seq and event["prev_hash"] == prev
        if salted and event["seq"] > 1:
            assert event["salt"] == salt(secret, event["stream"], event["seq"])
            counts["salts"] += 1
        else:
            assert event["salt"] is None
        assert recompute_hash(event) == event["hash"]
        if event["type"] == "chance":
            spec = event["data"]["spec"]
            assert rederive(spec, secret, event["stream"], event["seq"]) == event["data"]["outcome"]
            counts["outcomes"] += 1
        prev = event["hash"]
        counts["events"] += 1
    if any(e["type"] == "match.resigned" for e in events):
        check_resignations(events)
    return counts


# -- recorded matches through the API ---------------------------------------------------------------


def download(client, match: Match) -> tuple[list[dict], dict]:
    summary = client.get(f"/api/matches/{match.id}/").json()
    events, after = [], 0
    while True:
        page = client.get(f"/api/matches/{match.id}/events/", {"after": after, "limit": 100}).json()
        events += page["events"]
        if not page.get("next_after"):
            break
        after = page["next_after"]
    assert {e["stream"] for e in events} == {f"match:{match.id}"}
    return events, summary


def seat_counts(engine) -> list[int]:
    counts = []
    for n in range(engine.min_seats, engine.max_seats + 1):
        try:
            engine.validate_config({}, n)
        except Exception:
            continue
        counts.append(n)
    return counts


CURRENT = [e for e in registry.latest()]


@pytest.mark.parametrize("engine", CURRENT, ids=[e.name for e in CURRENT])
def test_an_independent_implementation_of_audit_md_reproduces_every_hash_salt_and_outcome(
    engine, client_for, django_capture_on_commit_callbacks
):
    kinds, totals = set(), {"events": 0, "salts": 0, "outcomes": 0}
    for seats in seat_counts(engine)[:3]:
        with django_capture_on_commit_callbacks(execute=True):  # the verification queued on commit
            match = autoplay_match(game=engine.name, seats=seats, bot=engine.best_bot)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.verdict == Match.Verdict.VERIFIED
        events, summary = download(client_for(), match)
        assert summary["seed"] and summary["head_hash"] == events[-1]["hash"]
        counts = audit(events, summary["seed"])
        for key in totals:
            totals[key] += counts[key]
        kinds |= {e["data"]["spec"]["kind"] for e in events if e["type"] == "chance"}
    assert totals["outcomes"] > 0 and totals["salts"] == totals["events"] - len(seat_counts(engine)[:3])
    assert kinds, f"{engine.name} recorded no chance at all"


def test_the_independent_audit_catches_a_changed_outcome_a_changed_salt_and_a_changed_byte(client_for):
    match = autoplay_match(game="dueling-wizards", seats=2, bot="random")
    events, summary = download(client_for(), match)
    audit(events, summary["seed"])
    chance = next(i for i, e in enumerate(events) if e["type"] == "chance")

    forged = json.loads(json.dumps(events))
    outcome = forged[chance]["data"]["outcome"]
    outcome[0], outcome[-1] = outcome[-1], outcome[0]
    with pytest.raises(AssertionError):
        audit(forged, summary["seed"])

    forged = json.loads(json.dumps(events))
    forged[2]["salt"] = "0" * 64
    with pytest.raises(AssertionError):
        audit(forged, summary["seed"])

    forged = json.loads(json.dumps(events))
    forged[1]["actor"] = forged[1]["actor"] + " "
    with pytest.raises(AssertionError):
        audit(forged, summary["seed"])


def rechain(events: list[dict], secret: bytes) -> list[dict]:
    """What a forger holding the revealed secret can do after changing an event: every salt and
    hash recomputed (AUDIT.md 3 and 4), so only the rules of 6.2 can tell."""
    prev = "0" * 64
    for event in events:
        if event["seq"] > 1:
            event["salt"] = salt(secret, event["stream"], event["seq"])
        event["prev_hash"] = prev
        event["hash"] = prev = recompute_hash(event)
    return events


@pytest.mark.parametrize(
    "game,seats,config",
    [("dueling-wizards", 2, {}), ("wizard-dodgeball", 4, {}), ("iwdl-draft", 2, {"format": "schoolyard"})],
)
def test_the_independent_audit_checks_a_resignation_and_catches_one_made_by_someone_else(
    game, seats, config, client_for, make_user
):
    from matches.services import SeatSpec, match_create, match_resign

    users = [make_user(f"player{i}") for i in range(seats)]
    match = match_create(game=game, seats=[SeatSpec(user=u) for u in users], created_by=users[0], config=config)
    match_resign(match_id=match.id, user=users[1], expected_seq=Match.objects.get(pk=match.pk).state_seq)
    events, summary = download(client_for(), match)
    assert events[-2]["type"] == "match.resigned"
    audit(events, summary["seed"])

    secret = bytes.fromhex(summary["seed"])
    for forger in (users[0], make_user("stranger")):
        forged = json.loads(json.dumps(events))
        forged[-2]["actor"] = f"user:{forger.pk}"
        with pytest.raises(AssertionError, match="not the seat's person"):
            audit(rechain(forged, secret), summary["seed"])
    forged = json.loads(json.dumps(events))
    forged[-1]["data"]["result"]["winners"] = [1]
    with pytest.raises(AssertionError):
        audit(rechain(forged, secret), summary["seed"])


def test_the_independent_audit_follows_a_seat_that_left_a_game_the_others_played_on(client_for, make_user):
    # AUDIT.md 6.3: bob leaves a duel of three and the others play on; then carol resigns, which
    # ends it. Recorded the other way round (bob's resignation as the end), the rules are broken.
    from matches.services import SeatSpec, match_create, match_resign

    users = [make_user(name) for name in ("ann", "bob", "cat")]
    match = match_create(game="dueling-wizards", seats=[SeatSpec(user=u) for u in users], created_by=users[0])
    for user in users[1:]:
        match_resign(match_id=match.id, user=user, expected_seq=Match.objects.get(pk=match.pk).state_seq)
    events, summary = download(client_for(), match)
    resigned = [i for i, e in enumerate(events) if e["type"] == "match.resigned"]
    assert [events[i]["data"].get("plays_on") for i in resigned] == [True, None]
    audit(events, summary["seed"])

    secret = bytes.fromhex(summary["seed"])
    forged = json.loads(json.dumps(events))
    del forged[resigned[0]]["data"]["plays_on"]
    with pytest.raises(AssertionError, match="the rules play on here"):
        audit(rechain(forged, secret), summary["seed"])
    forged = json.loads(json.dumps(events))
    forged[resigned[1]]["data"]["plays_on"] = True
    with pytest.raises(AssertionError, match="the rules end the game here"):
        audit(rechain(forged, secret), summary["seed"])
