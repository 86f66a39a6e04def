"""Writes of the analysis app: cached analyses (computed lazily, on first request) and sandboxes.

Nothing here appends to the event store: an analysis is a cache of what the events give, and a
sandbox is a private scratch copy of a finished match's state that its owner plays on.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from engines import registry
from engines.base import CHANCE, EngineError, IllegalAction, check_action_numbers
from engines.chance import check_outcome, draw
from engines.registry import UnknownEngine

from .. import eventstore
from ..models import Match
from ..replay import engine_event, replay_stream
from ..selectors import engine_for
from ..services import MatchError
from .compute import ANALYSIS_VERSION, analyse, odds_fingerprint
from .models import MatchAnalysis, Sandbox

#: A sandbox lives this long after it was branched, then it is gone.
SANDBOX_HOURS = 24
#: Sandboxes one person may keep at once (the oldest must expire, or be deleted, first).
SANDBOXES_PER_OWNER = 20
#: Steps a sandbox may take in all (a bot game that never ends stops here).
SANDBOX_STEPS = 2000


def _finished(match: Match) -> None:
    if match.status != Match.Status.FINISHED:
        # While live the events are partly hidden: the odds of a draw would tell what was drawn.
        raise MatchError("A match is analysed once it is over.", code="match_not_finished", status=409)


def _stream_rows(match: Match, upto: int | None = None) -> list[tuple[int, str, dict]]:
    return [(e.seq, e.type, e.data) for e in eventstore.stream_events(stream_id=match.stream_id, upto=upto)]


def analysis_is_current(analysis: MatchAnalysis, match: Match) -> bool:
    return (
        analysis.analysis_version == ANALYSIS_VERSION
        and analysis.engine_version == match.engine_version
        and analysis.odds_fingerprint == odds_fingerprint(engine_for(match))
    )


def analysis_ensure(*, match: Match) -> MatchAnalysis:
    """The match's analysis: the cached one while current, else computed now and stored.
    Public: every event of a finished match is public, so anyone may cause this."""
    _finished(match)
    cached = MatchAnalysis.objects.filter(match=match).first()
    if cached is not None and analysis_is_current(cached, match):
        return cached
    engine = engine_for(match)
    seats = match.seats.count()
    try:
        data = analyse(engine, match.config, seats, _stream_rows(match))
    except EngineError as exc:
        # A stream the engine refuses to replay is a disputed one; the verifier says where.
        raise MatchError(
            f"The match could not be replayed for analysis: {exc.message}", code="analysis_failed", status=409
        ) from None
    values = {
        "engine_version": match.engine_version,
        "odds_fingerprint": data["odds_fingerprint"],
        "analysis_version": ANALYSIS_VERSION,
        "data": data,
        "luck": [t["luck"]["value"] for t in data["luck"]["totals"]],
    }
    try:
        with transaction.atomic():
            analysis, _ = MatchAnalysis.objects.update_or_create(match=match, defaults=values)
    except IntegrityError:  # another request stored it first: theirs is the same
        analysis = MatchAnalysis.objects.get(match=match)
    return analysis


def analyses_stale(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Those of ``matches`` whose analysis is missing or not current (analysis_is_current, said in
    one query): a new odds fingerprint makes an analysis stale as much as a new analysis version."""
    current = Q(pk__in=[])
    for game, version in set(matches.order_by().values_list("game", "engine_version")):
        try:
            fingerprint = odds_fingerprint(registry.get(game, version))
        except UnknownEngine:
            continue
        current |= Q(
            game=game,
            engine_version=version,
            analysis__engine_version=version,
            analysis__odds_fingerprint=fingerprint,
            analysis__analysis_version=ANALYSIS_VERSION,
        )
    return matches.exclude(current)


def analyses_fill(*, matches: QuerySet[Match], limit: int) -> int:
    """Compute the missing or stale analyses among ``matches`` (at most ``limit`` now); how many were
    computed. A player's or a club's luck adds up what is cached, filled a bounded batch at a time."""
    done = 0
    for match in analyses_stale(matches)[:limit]:
        try:
            analysis_ensure(match=match)
        except MatchError:
            continue  # a stream that does not replay has no luck to count
        done += 1
    return done


# -- sandboxes -------------------------------------------------------------------


def _owned(*, sandbox_id, owner) -> Sandbox:
    sandbox = Sandbox.objects.select_for_update().filter(pk=sandbox_id).first()
    # Someone else's sandbox answers exactly like one that does not exist: ids are not to be probed.
    if sandbox is None or sandbox.owner_id != owner.pk or sandbox.expires_at <= timezone.now():
        raise MatchError("No such sandbox (or it has expired).", code="sandbox_not_found", status=404)
    return sandbox


def _engine(sandbox: Sandbox):
    return registry.get(sandbox.game, sandbox.engine_version)


def _odds_json(engine, state, outcome) -> dict[str, Any] | None:
    try:
        return engine.chance_odds(state, outcome).as_json()
    except EngineError:
        return None


def sandbox_create(*, match: Match, owner, at: int, bot_seats: list[int], hand_chance: bool) -> Sandbox:
    """Branch a private sandbox from the replay of a finished match, after its event ``at``."""
    if owner is None or not owner.is_authenticated:
        raise MatchError("Sign in to branch a what-if: it is kept for you alone.", code="not_authenticated", status=403)
    _finished(match)
    if not 0 <= at <= match.state_seq:
        raise MatchError(f"Branch after an event from 0 to {match.state_seq}.", code="bad_branch_point")
    seats = match.seats.count()
    if any(type(s) is not int or not 0 <= s < seats for s in bot_seats) or len(set(bot_seats)) != len(bot_seats):
        raise MatchError(f"Bot seats are distinct seat numbers from 0 to {seats - 1}.", code="bad_bot_seats")
    now = timezone.now()
    Sandbox.objects.filter(expires_at__lte=now).delete()
    if Sandbox.objects.filter(owner=owner).count() >= SANDBOXES_PER_OWNER:
        raise MatchError(
            f"You keep {SANDBOXES_PER_OWNER} sandboxes already; delete one or let it expire.",
            code="too_many_sandboxes",
            status=409,
        )
    engine = engine_for(match)
    # The events up to the branch point, and the one after it (the event a re-roll sets beside).
    stream = _stream_rows(match, upto=at + 1)
    following = stream[-1] if stream and stream[-1][0] == at + 1 else None
    events = [e for e in (engine_event(t, d) for seq, t, d in stream if seq <= at) if e is not None]
    try:
        state = replay_stream(engine, match.config, seats, events)
    except EngineError as exc:
        raise MatchError(
            f"The match could not be replayed: {exc.message}", code="analysis_failed", status=409
        ) from None
    sandbox = Sandbox(
        owner=owner,
        match=match,
        branched_at=at,
        game=match.game,
        engine_version=match.engine_version,
        config=match.config,
        seats=seats,
        bot_seats=sorted(bot_seats),
        state=state,
        steps=[{"n": 0, "kind": "branch", "hand_chance": bool(hand_chance)}],
        expires_at=now + timedelta(hours=SANDBOX_HOURS),
    )
    # Branched just before a chance event: it waits for a re-roll (or a chosen outcome) whatever
    # hand_chance says, since re-rolling that event is the point of branching there.
    if engine.to_move(state) == [CHANCE]:
        if following is not None and following[1] == "chance":
            outcome = following[2].get("outcome")
            sandbox.steps[0]["original"] = {
                "seq": following[0],
                "outcome": outcome,
                "odds": _odds_json(engine, state, outcome),
            }
    else:
        try:
            _advance(sandbox, engine, auto_chance=not hand_chance)
        except IllegalAction as exc:
            raise MatchError(exc.message, code=exc.code, status=409) from None
    sandbox.save()
    return sandbox


def _settings(sandbox: Sandbox) -> bool:
    """Whether the owner deals chance by hand (recorded in the branch step)."""
    first = sandbox.steps[0] if sandbox.steps else {}
    return bool(first.get("hand_chance"))


def _step(sandbox: Sandbox, engine, event: dict[str, Any], odds: dict | None = None) -> None:
    if len(sandbox.steps) >= SANDBOX_STEPS:
        raise MatchError(
            f"A sandbox takes at most {SANDBOX_STEPS} steps; branch a new one.", code="sandbox_full", status=409
        )
    before = sandbox.state
    after = engine.apply(before, event)
    step = {"n": len(sandbox.steps), "kind": event["kind"], "text": engine.describe(before, event, after)}
    if event["kind"] == "action":
        step.update(seat=event["seat"], action=event["action"])
    else:
        step.update(outcome=event["outcome"], odds=odds)
    sandbox.steps = [*sandbox.steps, step]
    sandbox.state = after


def _roll(sandbox: Sandbox, engine, outcome: Any = None) -> None:
    """Deal the pending chance event: ``outcome`` if the owner picked one (checked against the
    spec), else a fresh draw of secrets.SystemRandom (never the match's seed)."""
    spec = engine.chance(sandbox.state)
    if outcome is None:
        outcome = draw(spec, secrets.SystemRandom().randrange)
    else:
        check_outcome(spec, outcome)
    _step(sandbox, engine, {"kind": "chance", "outcome": outcome}, _odds_json(engine, sandbox.state, outcome))


def _bot_move(sandbox: Sandbox, engine, seat: int, rng) -> None:
    action = engine.bot_action(engine.bots[0], sandbox.state, seat, rng)
    _step(sandbox, engine, {"kind": "action", "seat": seat, "action": action})


def _advance(sandbox: Sandbox, engine, *, auto_chance: bool) -> None:
    """Let the bots play their seats and (unless dealt by hand) the server roll, until a seat
    played by hand must act, or the game is over."""
    rng = secrets.SystemRandom()
    while True:
        to_move = engine.to_move(sandbox.state)
        if not to_move or len(sandbox.steps) >= SANDBOX_STEPS:
            return
        if to_move == [CHANCE]:
            if not auto_chance:
                return
            _roll(sandbox, engine)
            continue
        seat = next((s for s in to_move if s in sandbox.bot_seats), None)
        if seat is None or any(s not in sandbox.bot_seats for s in to_move):
            return
        _bot_move(sandbox, engine, seat, rng)


def sandbox_act(*, sandbox_id, owner, seat: int, action: dict[str, Any]) -> Sandbox:
    """Play a move by hand for any seat the bot does not play."""
    with transaction.atomic():
        sandbox = _owned(sandbox_id=sandbox_id, owner=owner)
        engine = _engine(sandbox)
        if seat in sandbox.bot_seats:
            raise MatchError(f"The bot plays seat {seat} in this sandbox.", code="bot_seat", status=409)
        try:
            check_action_numbers(action)
            engine.check_sent_action(action)
            engine.validate(sandbox.state, seat, action)
            _step(sandbox, engine, {"kind": "action", "seat": seat, "action": action})
            _advance(sandbox, engine, auto_chance=not _settings(sandbox))
        except IllegalAction as exc:
            raise MatchError(exc.message, code=exc.code, status=422) from None
        sandbox.save(update_fields=["state", "steps"])
        return sandbox


def sandbox_chance(*, sandbox_id, owner, outcome: Any = None) -> Sandbox:
    """Roll the pending chance event afresh (``outcome`` None: the server draws with
    secrets.SystemRandom) or take the outcome the owner picked, checked against the spec."""
    with transaction.atomic():
        sandbox = _owned(sandbox_id=sandbox_id, owner=owner)
        engine = _engine(sandbox)
        if engine.to_move(sandbox.state) != [CHANCE]:
            raise MatchError("No random outcome is due in this sandbox now.", code="no_chance_due", status=409)
        try:
            _roll(sandbox, engine, outcome)
            _advance(sandbox, engine, auto_chance=not _settings(sandbox))
        except IllegalAction as exc:
            raise MatchError(exc.message, code=exc.code, status=422) from None
        sandbox.save(update_fields=["state", "steps"])
        return sandbox


def sandbox_play_on(*, sandbox_id, owner) -> Sandbox:
    """One move of the game's bot for the seat to move (a hand seat too: "what would the bot do")."""
    with transaction.atomic():
        sandbox = _owned(sandbox_id=sandbox_id, owner=owner)
        engine = _engine(sandbox)
        to_move = engine.to_move(sandbox.state)
        if not to_move:
            raise MatchError("The game in this sandbox is over.", code="sandbox_over", status=409)
        try:
            if to_move == [CHANCE]:
                _roll(sandbox, engine)
            else:
                _bot_move(sandbox, engine, to_move[0], secrets.SystemRandom())
            _advance(sandbox, engine, auto_chance=not _settings(sandbox))
        except IllegalAction as exc:
            raise MatchError(exc.message, code=exc.code, status=409) from None
        sandbox.save(update_fields=["state", "steps"])
        return sandbox


def sandbox_delete(*, sandbox_id, owner) -> None:
    with transaction.atomic():
        _owned(sandbox_id=sandbox_id, owner=owner).delete()
