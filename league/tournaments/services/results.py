"""Results: players report, confirm or dispute; the organiser rules and records no-shows;
platform matches are created for pairings and report their own verified results."""

from __future__ import annotations

import copy

from django.contrib.auth import get_user_model

from matches.commands import AT_HEAD, platform_event_id
from matches.models import Match
from matches.services import SeatSpec, match_create

from .. import projection
from ..access import is_organiser, pid_of
from ..errors import refuse
from ..formats import registry as formats
from ..projection import asked_to_play
from ..standings import best_of, games_to_win, progress
from ..states import OPEN, PairingStatus
from .commands import NAMESPACE, Outcome, _need_organiser, _need_user, _open, _pairing, _pid_in, _run

# --------------------------------------------------------------------------------------
# Results


def clean_result(state, record, result) -> dict:
    """A result in player ids, checked against the pairing. Names or ids are accepted."""
    if not isinstance(result, dict):
        raise refuse("A result is an object: {winner}, {draw: true} or {finish: [[...], ...]}.", "bad_result", 400)
    players = record["players"]
    pod = formats.of(state).reports_finish(record)
    if pod or "finish" in result:
        finish = result.get("finish")
        if not pod or not isinstance(finish, list) or not finish:
            raise refuse("A pod reports its finish: places best first, tied players together.", "bad_result", 400)
        places = []
        for place in finish:
            place = place if isinstance(place, list) else [place]
            pids = [_pid_in(state, ref) for ref in place]
            if not pids or None in pids:
                raise refuse("Every place names players of this pod.", "bad_result", 400)
            places.append(pids)
        flat = [p for place in places for p in place]
        if sorted(flat) != sorted(players):
            raise refuse("The finish must place every player of the pod exactly once.", "bad_result", 400)
        return {"finish": places}
    if result.get("draw"):
        if record["bracket_match"]:
            raise refuse("A bracket match needs a winner.", "draw_not_allowed", 400)
        return {"draw": True, **clean_games(state, players, result, None)}
    winner = _pid_in(state, result.get("winner", ""))
    if winner is None or winner not in players:
        raise refuse("The winner must be one of the pairing's players.", "bad_result", 400)
    return {"winner": winner, **clean_games(state, players, result, winner)}


def clean_games(state, players: list, result: dict, winner: str | None) -> dict:
    """The game score of a two-player result: ``{"games": [2, 1]}`` in the pairing's player
    order, or nothing in a best of one (the winner says it all, so a result reads the same
    with or without the score). From a best of three up the score is required: the winner
    has more games than the other player and at most the games that win the match, a draw
    is level short of them (1-1 when time ran out), and no more games than ``best_of``."""
    size = best_of(state)
    games = result.get("games")
    if games is None:
        if size > 1:
            raise refuse(f"A best-of-{size} match reports its game score, e.g. games: [2, 1].", "bad_result", 400)
        return {}
    need = games_to_win(state)
    if (
        not isinstance(games, list)
        or len(games) != 2
        or any(isinstance(g, bool) or not isinstance(g, int) or not 0 <= g <= need for g in games)
    ):
        raise refuse(
            f"The game score is two whole numbers from 0 to {need}, one per player in pairing order.",
            "bad_result",
            400,
        )
    if sum(games) > size:
        raise refuse(f"A best-of-{size} match has at most {size} games.", "bad_result", 400)
    if winner is None:
        if games[0] != games[1] or games[0] >= need:
            raise refuse(f"A draw is level on games, short of {need}: e.g. 1-1.", "bad_result", 400)
    else:
        mine = games[players.index(winner)]
        theirs = games[1 - players.index(winner)]
        if mine <= theirs:
            raise refuse("The winner has won more games than the other player.", "bad_result", 400)
        if theirs >= need:
            raise refuse(f"The loser cannot have won {need} games.", "bad_result", 400)
    return {"games": list(games)} if size > 1 else {}


def _need_player(state, record, user) -> str:
    _need_user(user)
    pid = pid_of(user)
    if pid not in record["players"]:
        raise refuse("Only the pairing's players report its result.", "not_your_pairing", 403)
    return pid


def _asking_to_play(state, pid: str, facts: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """A player's own result command, and the confirmation of their entry it makes: reporting,
    confirming or disputing one's own result is asking to play, so an entry the organiser made is
    confirmed by the fact ``confirm-entry`` appends (the one the fold and the emails read), in the
    same command. After the result, not before: a retried ``event_id`` is checked against the
    command's first fact, which must be the result for another result to be a reused id. Not when
    that result ends the tournament: as ``confirm-entry`` is refused then, a finished tournament's
    stream takes no new fact from a player, and there is nothing left to be emailed about."""
    if asked_to_play(state["players"][pid]):
        return facts
    if _ends_no_event(state, facts[0][1]["pairing"]):
        return [*facts, ("player.entry_confirmed", {"player": pid})]
    after = copy.deepcopy(state)
    for kind, data in facts:
        projection.apply(after, {"seq": after["seq"] + 1, "type": kind, "data": data, "actor": f"user:{pid}"})
    if progress(after)["finished"]:
        return facts
    return [*facts, ("player.entry_confirmed", {"player": pid})]


def _ends_no_event(state, pairing: str) -> bool:
    """Whether a result for ``pairing`` certainly leaves the tournament running: outside a bracket
    an event ends only with its newest round complete, so not while another of that round's
    pairings still waits. A cheap test, so that ``_asking_to_play`` copies and folds the whole
    state (a large event's is large, and the tournament's lock is held) only for a round's last
    result or a bracket's."""
    if state["bracket"] is not None or not state["rounds"]:
        return False
    current = state["rounds"][-1]["pairings"]
    return any(other != pairing and state["pairings"][other]["status"] in OPEN for other in current)


def tournament_report(*, tournament, pairing: str, user, result: dict, expected_seq, event_id=None) -> Outcome:
    """A player reports. When the opponent already reported the same result it is
    confirmed; a different one puts the pairing in dispute for the organiser to rule."""

    def decide(state):
        record = _pairing(state, pairing)
        pid = _need_player(state, record, user)
        _open(record)
        if record["status"] == PairingStatus.DISPUTED:
            raise refuse("This result is disputed; the organiser rules on it.", "disputed")
        cleaned = clean_result(state, record, result)
        others = {p: r for p, r in record["reports"].items() if p != pid}
        if not others:
            fact = ("result.reported", {"pairing": pairing, "by": pid, "result": cleaned})
        elif any(r == cleaned for r in others.values()):
            fact = ("result.confirmed", {"pairing": pairing, "by": pid, "result": cleaned})
        else:
            reason = "The players reported different results."
            fact = ("result.disputed", {"pairing": pairing, "by": pid, "result": cleaned, "reason": reason})
        return _asking_to_play(state, pid, [fact])

    return _run(tournament=tournament, user=user, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_confirm(*, tournament, pairing: str, user, expected_seq, event_id=None) -> Outcome:
    def decide(state):
        record = _pairing(state, pairing)
        pid = _need_player(state, record, user)
        _open(record)
        others = [r for p, r in record["reports"].items() if p != pid]
        if record["status"] != PairingStatus.REPORTED or not others:
            code = "nothing_to_confirm" if not record["reports"] else "cannot_confirm_own_report"
            raise refuse("Only another player's report can be confirmed.", code)
        return _asking_to_play(state, pid, [("result.confirmed", {"pairing": pairing, "by": pid, "result": others[0]})])

    return _run(tournament=tournament, user=user, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_dispute(*, tournament, pairing: str, user, reason: str = "", expected_seq, event_id=None) -> Outcome:
    def decide(state):
        record = _pairing(state, pairing)
        pid = _need_player(state, record, user)
        _open(record)
        if record["status"] == PairingStatus.DISPUTED:
            raise refuse("This result is already disputed.", "disputed")
        fact = ("result.disputed", {"pairing": pairing, "by": pid, "result": None, "reason": reason[:500]})
        return _asking_to_play(state, pid, [fact])

    return _run(tournament=tournament, user=user, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_rule(
    *, tournament, pairing: str, by, result: dict, reason: str = "", expected_seq, event_id=None
) -> Outcome:
    """The organiser decides an open result (reported, disputed or never reported)."""

    def decide(state):
        _need_organiser(state, by)
        record = _pairing(state, pairing)
        _open(record)
        cleaned = clean_result(state, record, result)
        return [("result.ruled", {"pairing": pairing, "result": cleaned, "reason": reason[:500]})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_no_show(*, tournament, pairing: str, by, absent: list, expected_seq, event_id=None) -> Outcome:
    """The organiser records who did not turn up: a forfeit win for the other player, or
    a double forfeit (both lose) when nobody came."""

    def decide(state):
        _need_organiser(state, by)
        record = _pairing(state, pairing)
        _open(record)
        pids = [_pid_in(state, a) for a in (absent or [])]
        if not pids or any(p is None or p not in record["players"] for p in pids) or len(set(pids)) != len(pids):
            raise refuse("Name the absent players of this pairing.", "bad_absent", 400)
        players = record["players"]
        if formats.of(state).reports_finish(record):
            present = [p for p in players if p not in pids]
            if not present:
                return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"finish": [players]}})]
            if len(present) == 1:
                return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"finish": [present, pids]}})]
            raise refuse(
                "In a pod, report the finish of those who played with the absent players tied last.",
                "report_pod_finish",
            )
        if len(pids) == 2:
            if record["bracket_match"]:
                raise refuse(
                    "Someone must advance in a bracket: record one player as absent.", "double_forfeit_in_bracket"
                )
            return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"double_forfeit": True}})]
        winner = next(p for p in players if p not in pids)
        return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"winner": winner, "forfeit": True}})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


# --------------------------------------------------------------------------------------
# Platform matches


def tournament_match_create(
    *, tournament, pairing: str, by, mode: str = Match.Mode.SERVER, expected_seq, event_id=None
) -> Outcome:
    """Create a platform match for a pairing (any engine that seats its players). It
    reports its own result once verification says it is verified."""

    def decide(state):
        record = _pairing(state, pairing)
        _need_user(by)
        if pid_of(by) not in record["players"] and not is_organiser(state, by):
            raise refuse("Only the pairing's players or the organiser start its match.", "not_your_pairing", 403)
        _open(record)
        if record["status"] != PairingStatus.PENDING or record["reports"]:
            raise refuse("A result is already being reported for this pairing.", "result_reported")
        if record["match_id"]:
            raise refuse("This pairing already has a match.", "match_exists", match_id=record["match_id"])
        User = get_user_model()
        seats = [SeatSpec(user=User.objects.get(pk=int(p))) for p in record["players"]]
        config = state["options"].get("match_config")
        if state.get("draft"):
            config = _drafted_config(state, record)
        match = match_create(
            game=state["game"],
            seats=seats,
            created_by=by,
            mode=mode,
            config=config,
            origin={"tournament": state["id"], "round": record["round"], "pairing": pairing},
            time_control=state["options"].get("time_control") or {},
        )
        return [("match.created", {"pairing": pairing, "match_id": str(match.id)})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def result_from_match(record, match: Match, pod: bool = False) -> dict:
    placements = match.result["placements"]
    players = record["players"]
    if len(players) > 2 or pod:
        places = sorted(set(placements))
        return {"finish": [[players[s] for s in range(len(players)) if placements[s] == p] for p in places]}
    if placements[0] == placements[1]:
        return {"draw": True}
    return {"winner": players[0] if placements[0] < placements[1] else players[1]}


class _MatchMoved(Exception):
    """The match changed between the first read and the tournament's lock (rolls the command back)."""


def _as_read(match: Match) -> tuple:
    # What a recorded result is decided from: the verdict, the dispute mark, the result, its head.
    return (match.status, match.verdict, match.disputed_at, match.result, match.head_hash)


def tournament_record_match(*, match_id) -> str:
    """Record a finished platform match's result if (and only if) it is verified.

    Returns "recorded", "pending" (no verdict yet: the match_verified signal brings it back),
    "disputed", "drawn" (a level game in a bracket: left to the organiser), or "ignored"
    (not a tournament match, or the pairing moved on).
    Idempotent: event ids are derived from the match id.
    """
    # A verification may dispute the match between the read that names the tournament (and the
    # fact's id) and the tournament's lock; its retraction, finding nothing recorded yet, would
    # then leave the result standing until a sweep. So the match is read again under the lock,
    # and if it moved, the command is rolled back and decided again from a fresh read. A dispute
    # is final, so the next read is the last: the bound only stops a match that keeps changing.
    for _ in range(5):
        try:
            return _record_match(match_id)
        except _MatchMoved:
            continue
    raise RuntimeError(f"Match {match_id} kept changing while its tournament result was recorded.")


def _record_match(match_id) -> str:
    match = Match.objects.filter(pk=match_id).first()
    if match is None or "tournament" not in (match.origin or {}):
        return "ignored"
    if match.status != Match.Status.FINISHED or match.verdict == Match.Verdict.PENDING:
        return "pending"
    origin = match.origin
    # A match once found disputed records no result, whatever a later verification finds (a
    # dispute is final, as for the season and the ratings): its pairing stays before the organiser.
    verified = match.verdict == Match.Verdict.VERIFIED and match.disputed_at is None
    kind = "verified" if verified else "disputed"
    reason = match.verdict_reason or "An earlier verification found the match disputed."
    outcome = {"value": "ignored"}

    def decide(state):
        if _as_read(Match.objects.get(pk=match.pk)) != _as_read(match):
            raise _MatchMoved
        record = state["pairings"].get(origin["pairing"])
        if (
            record is None
            or record["match_id"] != str(match.id)
            or record["status"] in (PairingStatus.FINAL, PairingStatus.WAITING, PairingStatus.NOT_NEEDED)
        ):
            return []
        outcome["value"] = "recorded" if verified else "disputed"
        if verified:
            result = result_from_match(record, match, pod=formats.of(state).reports_finish(record))
            if result.get("draw") and record["bracket_match"]:
                # A level game (e.g. equal health when the deck runs out) cannot move a bracket on.
                outcome["value"] = "drawn"
                return [
                    (
                        "result.match_disputed",
                        {
                            "pairing": origin["pairing"],
                            "match_id": str(match.id),
                            "reason": "The match was drawn and a bracket match needs a winner: the organiser rules "
                            "or has it replayed.",
                        },
                    )
                ]
            # The head hash ties the result to the exact record that was verified (the
            # tournament verifier and the transparency log check it later).
            return [
                (
                    "result.verified",
                    {
                        "pairing": origin["pairing"],
                        "match_id": str(match.id),
                        "result": result,
                        "head_hash": match.head_hash,
                    },
                )
            ]
        return [
            (
                "result.match_disputed",
                {"pairing": origin["pairing"], "match_id": str(match.id), "reason": reason},
            )
        ]

    done = _run(
        tournament=origin["tournament"],
        user=None,
        decide=decide,
        actor="system",
        # The platform's own fact, at whatever head it finds: its id derives from the match.
        expected_seq=AT_HEAD,
        event_id=platform_event_id(NAMESPACE, f"{match.id}:{kind}"),
    )
    if not done.created:
        return "disputed" if not verified else ("drawn" if outcome["value"] == "drawn" else "recorded")
    return outcome["value"]


def _drafted_config(state, record) -> dict:
    """The Wizard Dodgeball config for a pairing of a drafted tournament: the two
    players' drafted teams, each played by the coach who drafted it."""
    from engines.iwdl_draft.engine import match_config

    draft_match = Match.objects.filter(pk=state["draft"]["draft_id"]).first()
    if draft_match is None or draft_match.status != Match.Status.FINISHED:
        raise refuse(
            "The tournament draft has not finished: every coach must be ready first.",
            "draft_not_finished",
            draft_id=state["draft"]["draft_id"],
        )
    seat_of = {pid: i for i, pid in enumerate(state["draft"]["seats"])}
    a, b = record["players"]
    return match_config(draft_match.state, seats=(seat_of[a], seat_of[b]))
