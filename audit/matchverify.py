"""Re-verify a match (or draft) stream from its events alone (docs/AUDIT.md, "Verifying a match").

Checks, in stream order, so the first problem found is the earliest bad seq: the hash chain
(and, in salted streams, every salt against the revealed secret); the creation event; the
revealed secret against its commitment; every action is legal when replayed under the
recorded engine version; every chance draw is the one the rules call for, its outcome is
possible, was entered (at a real table) by a seat allowed to see it, and (server-dealt)
equals the one the revealed secret derives; a timeout came when the seat's time was up, and a
resignation from a person playing the seat while the game went on, each followed only by the
close, unless the seat left a game the others play on (``plays_on``: the engine's ``leave``,
with at least two others still in the game, and only then); the recorded result equals the
replayed one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines import registry
from engines.base import CHANCE, IllegalAction, chance_enterable, replay
from engines.chance import check_outcome, derive, seed_commitment

from .chain import SALTED_SCHEME, check_chain, hash_scheme
from .clocks import Clocks, control_problem, micros

SERVER, TABLETOP = "server", "tabletop"

#: Games whose events the verifier applies in place (issue 17, P1/P7). Every event's log line needs
#: the state before it beside the one after (``describe``). These games' ``apply`` copies the whole
#: state and then applies the event to the copy in place, and the copy costs more than the rest of
#: the event: so the verifier keeps two owned states instead, applies each event in place to the
#: first, describes it from the second (still one event behind), then applies it to the second too.
#: The other games keep ``apply``: Dueling Wizards and the draft copy only what an event changes,
#: and Wizard Dodgeball's copy is shallow, so an event applied twice would cost them more than the
#: copy (benchmarks/bench_verify_callgrind.py). Both ways give the same verdict, lines and state
#: (tests/audit/test_matchverify_in_place.py).
APPLIED_IN_PLACE = frozenset({"wizarding-duels", "spellcaster", "annihilageddon"})


@dataclass
class Verdict:
    verified: bool
    seq: int | None = None
    reason: str = ""
    head_hash: str = ""
    events: int = 0
    #: The replayed result (None unless the stream replayed to its end).
    result: Any = None
    created: dict[str, Any] = field(default_factory=dict)
    #: The replayed final state, and the log line the engine gives each action and chance event.
    state: Any = None
    lines: dict[int, str] = field(default_factory=dict)


def _running(engine, state, clocks: Clocks) -> list[int]:
    to_move = engine.to_move(state)
    return clocks.seats_to_run(to_move, engine.chance(state) if to_move == [CHANCE] else None)


#: The stream events by which a seat leaves the game off the board: a loss on time, a resignation.
OFF_BOARD = ("match.timeout", "match.resigned")
#: The kind of the marker ``engine_event`` gives for a seat leaving a game the others play on: no
#: engine applies it (``replay_stream`` calls ``Engine.leave`` for it).
LEAVE = "leave"


def leaves(type: str, data: Any) -> bool:
    """Whether a stored event is a seat leaving a game the others play on (a resignation or a loss
    on time recorded with ``"plays_on": true``, docs/AUDIT.md 6), not the end of the match."""
    return type in OFF_BOARD and isinstance(data, dict) and data.get("plays_on") is True


def engine_event(type: str, data: dict[str, Any]) -> dict[str, Any]:
    """The engine event an ``action`` or ``chance`` stream event records (the one conversion
    every reader of match streams uses); for a seat leaving a game the others play on
    (``leaves``), the marker ``{"kind": "leave", "seat": ...}`` that ``replay_stream`` applies."""
    if type == "chance":
        return {"kind": "chance", "outcome": data["outcome"]}
    if type != "action" and leaves(type, data):
        return {"kind": LEAVE, "seat": data["seat"]}
    return {"kind": "action", "seat": data["seat"], "action": data["action"]}


def left_state(engine, state, seat: Any):
    """``engine.leave(state, seat)``; IllegalAction when the engine does not play on there."""
    after = engine.leave(state, seat)
    if after is None:
        raise IllegalAction(f"{engine.title} (version {engine.version}) does not play on without a seat.")
    return after


def replay_stream(engine, config: dict[str, Any], seats: int, events) -> Any:
    """``engines.base.replay`` of engine events among which a seat may leave (``engine_event``'s
    leave markers): each run of moves between two leaves is folded as ``replay`` folds it, and
    each leave is the engine's ``leave``. IllegalAction for a refused event or leave."""
    events = list(events)
    cuts = [i for i, e in enumerate(events) if e.get("kind") == LEAVE]
    if not cuts:
        return replay(engine, config, seats, events)
    state = replay(engine, config, seats, events[: cuts[0]])
    for k, cut in enumerate(cuts):
        # The state leave returns may share containers with the one it was given: the fold
        # changes what it owns, so it gets a copy of its own.
        state = engine.owned_copy(left_state(engine, state, events[cut]["seat"]))
        end = cuts[k + 1] if k + 1 < len(cuts) else len(events)
        state = engine.fold(state, events[cut + 1 : end])
    return state


def plays_on_problem(engine, state, seat: int, seats: int, plays_on: bool) -> str | None:
    """Why a resignation or loss on time of ``seat`` (a seat of the match) at ``state`` was
    recorded the wrong way round, or None: the others play on (``plays_on``) exactly when the seat
    is still in the game, at least two others are too, and the engine's ``leave`` plays on (the
    ruling "Leaving"). An engine version whose leave never plays on (every one recorded before the
    ruling) ends the match as it always did."""
    others = sum(1 for s in range(seats) if s != seat and engine.in_game(state, s))
    if plays_on:
        if not engine.to_move(state) or not engine.in_game(state, seat):
            return "A seat was recorded as leaving a game it was no longer in."
        if others < 2:
            return "The game was recorded as playing on with fewer than two other seats still in it."
        try:
            after = engine.leave(state, seat)
        except IllegalAction as exc:
            return f"The game was recorded as playing on, but the rules refuse the seat's leaving: {exc.message}"
        if after is None:
            return "The game was recorded as playing on, but this engine version ends the match when a seat leaves."
        return None
    if others < 2 or not engine.to_move(state) or not engine.in_game(state, seat):
        return None
    try:
        after = engine.leave(state, seat)
    except IllegalAction:
        return None
    if after is not None:
        return "The match was recorded as ended, but the rules play on without the seat: two others were still in it."
    return None


def _secret(created: dict[str, Any], finished: dict[str, Any] | None) -> tuple[bytes | None, str | None]:
    """The revealed stream secret, checked against its commitment; (None, reason) if it is bad."""
    salted = hash_scheme({"data": created}) == SALTED_SCHEME
    if finished is None or not (salted or created.get("mode") == SERVER):
        return None, None
    seed_hex = finished.get("seed") or ""
    try:
        secret = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        return None, "The revealed secret is not hexadecimal."
    if seed_commitment(secret) != created.get("seed_commitment"):
        return None, "The revealed secret does not match the commitment published at creation."
    return secret, None


def _seat_of_actor(created: dict[str, Any], actor: str) -> list[int] | None:
    """The seats a "user:<id>" actor holds, or None when partners make it unknowable here."""
    seats = created.get("seats") or []
    if any(s.get("partners") for s in seats):
        return None
    return [s["seat"] for s in seats if actor == f"user:{s.get('user_id')}"]


def resigner_problem(created: dict[str, Any], engine, state, data: Any, actor: str) -> str | None:
    """Why a ``match.resigned`` event (``data``, ``actor``) recorded when the game stood at
    ``state`` cannot be one the platform wrote, or None. Only a person seated in the match
    resigns, and only the seat they play: its ``user_id`` or one of its ``partner_ids``. A team
    seat recorded before partner ids were (names only) cannot be told here; the platform's
    verifier holds it to the seat rows."""
    seats = created.get("seats") or []
    if engine.draft and len(seats) != 2:
        return "A draft of more than two coaches cannot be resigned."
    seat = data.get("seat") if isinstance(data, dict) else None
    if type(seat) is not int or not 0 <= seat < len(seats) or not isinstance(seats[seat], dict):
        return "The resignation names no seat of the match."
    holder = seats[seat]
    if holder.get("user_id") is None:
        return "A bot's seat was recorded as resigned."
    if not engine.to_move(state):
        return "A resignation was recorded after the game was over."
    if not engine.in_game(state, seat):
        return "A resignation was recorded for a seat already out of the game."
    if holder.get("partners") and "partner_ids" not in holder:
        return None if str(actor).startswith("user:") else "The resignation was not made by the seat's player."
    people = [holder.get("user_id"), *(holder.get("partner_ids") or [])]
    if actor not in {f"user:{p}" for p in people}:
        return "The resignation was not made by the seat's player."
    return None


def _left(engine, state, seat: int, in_place: bool) -> tuple[Any, Any]:
    """(state, behind) after ``seat`` leaves: in place, two owned copies (verify_match_stream)."""
    after = left_state(engine, state, seat)
    if not in_place:
        return after, None
    return engine.owned_copy(after), engine.owned_copy(after)


def verify_match_stream(events: list[dict[str, Any]], *, in_place: bool | None = None) -> Verdict:
    """The stream's verdict. ``in_place`` picks how events are applied (None: ``APPLIED_IN_PLACE``
    decides by game; True or False forces one way, for the tests and benchmarks that compare them)."""
    n = len(events)

    def bad(seq, reason):
        return Verdict(False, seq, reason, events=n)

    if not events:
        return bad(1, "The stream is empty.")
    first = events[0]
    if first.get("type") != "match.created" or not isinstance(first.get("data"), dict):
        return bad(1, "The stream does not start with the match's creation.")
    created = first["data"]
    finished_event = events[-1] if events[-1].get("type") == "match.finished" else None
    finished = finished_event["data"] if finished_event else None
    closed_without_data = finished is not None and not isinstance(finished, dict)
    if closed_without_data:
        finished = {}
    secret, problem = _secret(created, finished)

    chain = check_chain(events, secret)
    if not chain.ok:
        return bad(chain.seq, chain.reason)
    if closed_without_data:
        return bad(finished_event["seq"], "The match's close is malformed: its data is not a JSON object.")
    if problem:
        return bad(finished_event["seq"], problem)
    try:
        engine = registry.get(created["game"], created["engine_version"])
    except (KeyError, TypeError, registry.UnknownEngine) as exc:
        return bad(1, f"The recorded engine cannot be loaded: {exc}")
    mode = created.get("mode")
    try:
        state = engine.setup(created["config"], len(created["seats"]))
    except Exception as exc:  # a config the engine refuses is a dispute, not a crash
        return bad(1, f"The recorded configuration cannot be set up: {exc}")
    if in_place is None:
        in_place = engine.name in APPLIED_IN_PLACE
    behind = None
    if in_place:
        # Two owned states, neither sharing a container with the other or with the engine's
        # static data (setup may hand those out): ``state`` is checked against each event first,
        # ``behind`` follows it once the event's line is written.
        state = engine.owned_copy(state)
        behind = engine.owned_copy(state)
    step = engine.apply_in_place if in_place else engine.apply

    control = created.get("time_control") or {}
    clocks = None
    if control:
        problem = control_problem(control)
        if problem:
            return bad(1, problem)
        try:
            started = micros(first["recorded_at"])
        except ValueError:
            return bad(1, "The event's recorded_at is not an ISO 8601 time.")
        # Recorded from when a drawer's clock ran while their draw was due (audit/clocks.py).
        entries = created.get("entry_clocks") is True
        clocks = Clocks.start(control, len(created["seats"]), started, entries=entries)
        clocks.step(started, None, _running(engine, state, clocks))
    # A bot moves the moment no person moves with it, so its clock runs out only while it waits on
    # people: its move is never late (a person who waited it out could otherwise void the match).
    bot_seats = {s.get("seat") for s in created["seats"] if isinstance(s, dict) and s.get("bot")}
    timed_out = resigned = None
    # Seats that left a game the others play on (6.3): at a real table they enter no outcome.
    gone: set[int] = set()
    lines: dict[int, str] = {}
    for event in events[1:]:
        seq, data = event["seq"], event.get("data")
        if event["type"] == "match.finished":
            if event is not finished_event:
                return bad(seq, "The match was closed before its last event.")
            break
        if timed_out is not None:
            return bad(seq, "Nothing but the match's close may follow a timeout.")
        if resigned is not None:
            return bad(seq, "Nothing but the match's close may follow a resignation.")
        if event["type"] == "match.resigned":
            problem = resigner_problem(created, engine, state, data, event.get("actor"))
            plays_on = leaves(event["type"], data)
            if problem is None:
                problem = plays_on_problem(engine, state, data["seat"], len(created["seats"]), plays_on)
            if problem is not None:
                return bad(seq, problem)
            if not plays_on:
                resigned = data["seat"]
                continue
            at = None
            if clocks is not None:
                try:
                    at = micros(event["recorded_at"])
                except ValueError:
                    return bad(seq, "The event's recorded_at is not an ISO 8601 time.")
            state, behind = _left(engine, state, data["seat"], in_place)
            gone.add(data["seat"])
            if at is not None:
                clocks.step(at, None, _running(engine, state, clocks))
            continue
        if event["type"] == "match.timeout":
            if clocks is None:
                return bad(seq, "A timeout was recorded in a match without a clock.")
            try:
                at = micros(event["recorded_at"])
            except ValueError:
                return bad(seq, "The event's recorded_at is not an ISO 8601 time.")
            seat = data.get("seat") if isinstance(data, dict) else None
            if seat not in clocks.expired_at(at):
                return bad(seq, "This timeout was recorded before the seat's time was up.")
            plays_on = leaves(event["type"], data)
            problem = plays_on_problem(engine, state, seat, len(created["seats"]), plays_on)
            if problem is not None:
                return bad(seq, problem)
            if plays_on:
                state, behind = _left(engine, state, seat, in_place)
                gone.add(seat)
            else:
                timed_out = seat
            clocks.step(at, None, _running(engine, state, clocks))
            continue
        try:
            if event["type"] == "action":
                if event["actor"] == "server":
                    return bad(seq, "An action was recorded as made by the server.")
                applied = engine_event("action", data)
                after = step(state, applied)
            elif event["type"] == "chance":
                if engine.to_move(state) != [CHANCE]:
                    return bad(seq, "A random outcome was recorded when none was due.")
                spec = engine.chance(state)
                outcome = data["outcome"]
                if data.get("spec") != spec:
                    return bad(seq, "The recorded draw is not the one the rules called for.")
                check_outcome(spec, outcome)
                if mode == SERVER:
                    if event["actor"] != "server":
                        return bad(seq, "A server-dealt outcome was recorded by someone else.")
                    if secret is not None and derive(spec, secret, event["stream"], seq) != outcome:
                        return bad(seq, "This outcome is not the one the revealed seed produces.")
                elif hash_scheme(first) == SALTED_SCHEME:
                    seats = _seat_of_actor(created, event["actor"])
                    if seats is not None and not any(chance_enterable(spec, s) for s in seats):
                        return bad(seq, "This outcome was entered by a seat that was not allowed to see it.")
                if mode == TABLETOP and gone:
                    # Whoever enters a public roll chooses it: a seat that left plays no more.
                    seats = _seat_of_actor(created, event["actor"])
                    if seats and all(s in gone for s in seats):
                        return bad(seq, "This outcome was entered by a seat that had left the game.")
                applied = engine_event("chance", data)
                after = step(state, applied)
            else:
                return bad(seq, f"Unknown event type '{event['type']}'.")
            if behind is None:
                lines[seq] = engine.describe(state, applied, after)
            else:
                lines[seq] = engine.describe(behind, applied, after)
                # The event was applied once without a refusal: the same event on the same state
                # gives the same state (engines are deterministic), so ``behind`` catches up.
                behind = engine.apply_in_place(behind, applied)
            state = after
            if clocks is not None:
                at = micros(event["recorded_at"])
                mover = data["seat"] if event["type"] == "action" else None
                if mover is not None and mover not in bot_seats and mover in clocks.expired_at(at):
                    return bad(seq, "This move was made after the seat's time had run out.")
                # Only where a drawer's clock runs while their draw is due (entry_clocks): in a match
                # recorded before, an outcome entered by a seat already out of time was no fault, and
                # it must verify as it did.
                late_entry = clocks.entries and mover is None
                if late_entry and set(_seat_of_actor(created, event["actor"]) or ()) & set(clocks.expired_at(at)):
                    return bad(seq, "This outcome was entered after the seat's time had run out.")
                clocks.step(at, mover, _running(engine, state, clocks))
        except IllegalAction as exc:
            return bad(seq, f"Replaying this event is refused by the rules: {exc.message}")
        except (LookupError, TypeError, ValueError, AttributeError) as exc:
            # Data of the wrong shape (a seat that is text, an action that is a list...) fails
            # wherever the engine first reads it: the event is malformed, whichever error that is.
            return bad(seq, f"The event is malformed ({exc}).")

    if finished_event is None:
        return bad(events[-1]["seq"] + 1, "The match has not finished.")
    if timed_out is not None:
        replayed = engine.result_on_time(state, timed_out, len(created["seats"]))
    elif resigned is not None:
        replayed = engine.result_on_resign(state, resigned, len(created["seats"]))
    elif engine.to_move(state):
        return bad(finished_event["seq"], "The match was closed while the game was still going.")
    else:
        replayed = engine.result(state)
    if finished.get("result") != replayed:
        return bad(finished_event["seq"], "The result recorded in the stream differs from the replayed result.")
    return Verdict(
        True, head_hash=chain.head_hash, events=n, result=replayed, created=created, state=state, lines=lines
    )
