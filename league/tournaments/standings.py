"""What follows from a tournament's folded state: points, standings, places, progress.

Pure functions of the projection (``projection.fold``); exact arithmetic with Fractions,
rendered as strings ("1", "1/2", "3/2") only at the edge (``as_text``).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from . import brackets, tiebreaks
from .formats import registry as formats
from .projection import bracket_of, bracket_state, requested_byes
from .states import ENTERED, OPEN, SETTLED, PairingStatus, PlayerStatus, RoundKind, TournamentStatus
from .swiss import SwissPlayer, as_fraction

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def as_text(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


def as_decimal(value: Any) -> str:
    if isinstance(value, Fraction):
        text = f"{float(value):.2f}".rstrip("0").rstrip(".")
        return text or "0"
    return "" if value is None else str(value)


def bye_score(state) -> Fraction:
    return scoring(state)["bye"]


#: What a match is worth unless the organiser says otherwise (a bye: ``bye_score``, 1).
DEFAULT_MATCH_POINTS = {"win": WIN, "draw": DRAW, "loss": LOSS}


def scoring(state) -> dict[str, Fraction]:
    """The match points in force: win, draw, loss and bye (options ``match_points``; an
    event created before they existed scores 1 / 1/2 / 0 and ``bye_score``)."""
    given = state["options"].get("match_points")
    if given:
        return {key: as_fraction(given[key]) for key in ("win", "draw", "loss", "bye")}
    return {**DEFAULT_MATCH_POINTS, "bye": as_fraction(state["options"].get("bye_score", "1"))}


def best_of(state) -> int:
    return int(state["options"].get("best_of") or 1)


def games_to_win(state) -> int:
    """Games that win a match outright: 2 in a best of three."""
    return best_of(state) // 2 + 1


def game_score(state, record) -> tuple[list[int], int] | None:
    """Games won by each player of a final two-player pairing (in its player order) and games
    drawn. A bye or a forfeit win is the games needed to win to none (2-0 in a best of three,
    as Magic tournaments count it); a result without a game score is one game (1-0, or one
    drawn game), as a platform match is; a double forfeit is no game. A bye the player asked
    for is no game at all (0-0): the round is unplayed, not won. None for a pod."""
    result = record["result"] or {}
    players = record["players"]
    if "finish" in result:
        return None
    if result.get("requested"):
        return [0], 0
    if result.get("bye"):
        return [games_to_win(state)], 0
    if result.get("double_forfeit"):
        return [0, 0], 0
    if "games" in result:
        won = list(result["games"])
        return won, 0
    if result.get("draw"):
        return [0, 0], 1
    winner = result.get("winner")
    if result.get("forfeit"):
        return [games_to_win(state) if p == winner else 0 for p in players], 0
    return [1 if p == winner else 0 for p in players], 0


def match_points(state, record) -> dict[str, Fraction]:
    """Match points each player of a final pairing takes from it (placement points in a pod)."""
    result = record["result"] or {}
    players = record["players"]
    if "finish" in result:
        table = [as_fraction(p) for p in state["options"].get("placement_points", [3, 2, 1, 0])]
        return brackets.placement_points(result["finish"], table)
    if result.get("requested"):
        # A bye the player asked for: worth the tournament's requested-bye points (default 0).
        return {players[0]: as_fraction(state["options"].get("requested_bye_points", "0"))}
    table = scoring(state)
    if result.get("bye"):
        return {players[0]: table["bye"]}
    if result.get("draw"):
        return {p: table["draw"] for p in players}
    if result.get("double_forfeit"):
        return {p: table["loss"] for p in players}
    winner = result.get("winner")
    return {p: (table["win"] if p == winner else table["loss"]) for p in players}


def points(state, record) -> dict[str, Fraction]:
    """Points each player of a final pairing takes from it: its match points, or with
    ``points_from: "games"`` (battle points) the games each won in it. A requested bye then
    takes its share of a win in games: ``requested_bye_points`` / a win's match points x the
    games that win a match (RULES.md "Requested byes")."""
    if state["options"].get("points_from") == "games":
        if (record["result"] or {}).get("requested"):
            worth = match_points(state, record)[record["players"][0]]
            return {record["players"][0]: worth / scoring(state)["win"] * games_to_win(state)}
        score = game_score(state, record)
        if score is not None:
            won, _ = score
            return {p: Fraction(won[i]) for i, p in enumerate(record["players"])}
    return match_points(state, record)


def final_pairings(state, group: int | None = None, bracket: bool = False):
    for rnd in state["rounds"]:
        if (rnd["kind"] == RoundKind.BRACKET) != bracket:
            continue
        for pid in rnd["pairings"]:
            record = state["pairings"][pid]
            if record["status"] == PairingStatus.FINAL and (group is None or record["group"] == group):
                yield record


def games(state, group: int | None = None) -> list[tiebreaks.Game]:
    out = []
    for record in final_pairings(state, group):
        result = record["result"]
        if "finish" in result:
            continue
        pts = points(state, record)
        mps = match_points(state, record)
        won, drawn = game_score(state, record)
        if result.get("bye"):
            first = record["players"][0]
            out.append(
                tiebreaks.Game(
                    record["round"], first, None, pts[first], first_games=won[0], first_match_points=mps[first]
                )
            )
            continue
        a, b = record["players"]
        forfeit = bool(result.get("forfeit") or result.get("double_forfeit"))
        out.append(
            tiebreaks.Game(
                record["round"],
                a,
                b,
                pts[a],
                pts[b],
                forfeit=forfeit,
                first_games=won[0],
                second_games=won[1],
                drawn_games=drawn,
                first_match_points=mps[a],
                second_match_points=mps[b],
            )
        )
    return out


def round_standings(state, group: int | None = None) -> list[dict[str, Any]]:
    """Swiss, round robin and group tables: score, then the configured tie-breaks."""
    fmt = formats.of(state)
    names = fmt.tiebreak_names(state)
    members = (
        state["groups"][group]
        if group is not None
        else [pid for pid, p in state["players"].items() if p["status"] in ENTERED]
    )
    # Rounds a player missed (dropped, joined late) count as unplayed for the tie-breaks,
    # but only rounds that are over: a round just paired, or still being played, is no game
    # yet for anyone whose result is not in, so pairing a round moves no tie-break.
    round_count = complete_rounds(state)
    use_rounds = round_count if fmt.scores_unplayed_rounds and round_count else None
    # Players level on everything keep the order they entered (their start number), never
    # their ids as text ("100" before "99"): a group's cut takes the first listed.
    entry = {pid: i for i, pid in enumerate(state["entry_order"])}
    members = sorted(members, key=lambda pid: (entry.get(pid, len(entry)), pid))
    rows = tiebreaks.standings(
        games(state, group), names, players=members, rounds=use_rounds, win_points=scoring(state)["win"]
    )
    played = defaultdict(int)
    for g in games(state, group):
        played[g.first] += 1
        if g.second is not None:
            played[g.second] += 1
    return _shown(state, rows, played)


def _shown(state, rows: list[tiebreaks.StandingRow], played: dict[str, int]) -> list[dict[str, Any]]:
    """A table's rows as the pages and the API show them."""
    words = tiebreaks.in_words(rows, {pid: p["name"] for pid, p in state["players"].items()})
    return [
        {
            "rank": r.rank,
            "player": r.player,
            "name": state["players"][r.player]["name"],
            "status": state["players"][r.player]["status"],
            "score": r.score,
            "played": played[r.player],
            "tiebreaks": dict(r.values),
            "separated_by": r.separated_from_next,
            # The tie-break in force against a neighbour on the same score, in words.
            "decided_by": said,
        }
        for r, said in zip(rows, words, strict=True)
        if r.player in state["players"]
    ]


def complete_rounds(state) -> int:
    """How many of the rounds played round by round are over (every pairing decided)."""
    count = 0
    for rnd in state["rounds"]:
        if rnd["kind"] != RoundKind.ROUND:
            continue
        if any(state["pairings"][p]["status"] not in SETTLED for p in rnd["pairings"]):
            break
        count += 1
    return count


def pod_standings(state) -> list[dict[str, Any]]:
    """Free-for-all pods: placement points, then first places, then average place (lower is
    better; a place shared by tied players counts as the middle of the places they cover, as
    their points do). Players equal on all three share a rank and keep their entry order."""
    score: dict[str, Fraction] = defaultdict(Fraction)
    firsts: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    place_sum: dict[str, Fraction] = defaultdict(Fraction)
    finished: dict[str, int] = defaultdict(int)
    for pid, p in state["players"].items():
        if p["status"] in ENTERED:
            score[pid] += 0
    for record in final_pairings(state):
        pts = points(state, record)
        for pid, value in pts.items():
            score[pid] += value
            played[pid] += 1
        finish = (record["result"] or {}).get("finish")
        if not finish:
            continue  # a requested bye: points, but no place
        if len(finish[0]) == 1:
            firsts[finish[0][0]] += 1
        place = 1
        for tied in finish:
            middle = place + Fraction(len(tied) - 1, 2)
            for pid in tied:
                place_sum[pid] += middle
                finished[pid] += 1
            place += len(tied)
    average = {pid: place_sum[pid] / finished[pid] if finished[pid] else None for pid in score}
    entry = {pid: i for i, pid in enumerate(state["entry_order"])}

    def key(pid):
        # A player with no finished pod yet sorts below every average on equal points and firsts.
        return (-score[pid], -firsts[pid], average[pid] is None, average[pid] or 0)

    order = sorted(score, key=lambda pid: (key(pid), entry.get(pid, len(entry)), pid))
    separated = []
    for a, b in zip(order, order[1:]):
        if score[a] != score[b]:
            separated.append("score")
        elif firsts[a] != firsts[b]:
            separated.append("firsts")
        elif average[a] != average[b]:
            separated.append("average_place")
        else:
            separated.append(None)
    table: list[tiebreaks.StandingRow] = []
    for i, pid in enumerate(order):
        tied_above = i > 0 and separated[i - 1] is None
        table.append(
            tiebreaks.StandingRow(
                rank=table[-1].rank if tied_above else i + 1,
                player=pid,
                score=score[pid],
                values={"firsts": firsts[pid], "average_place": average[pid]},
                separated_from_next=separated[i] if i < len(separated) else None,
            )
        )
    return _shown(state, table, played)


def elimination_places(state) -> list[dict[str, Any]]:
    """Places in a bracket, mid-event as at the end. The champion first; then everyone still in
    (a match left to play): they will go out later than anyone out already, so they stand above
    them, fewer losses first (a double elimination's winners' bracket above its losers'), then the
    further their next match; then everyone out, by the last match they played, its winner above
    its loser. Players with the same place so far share it (a bye counts as the round it skipped:
    the seed waits in the next round's match, beside that round's winners)."""
    bracket = bracket_of(state)
    resolved = bracket_state(state)
    last: dict[str, tuple[int, int]] = {}
    next_match: dict[str, int] = {}
    wins: dict[str, int] = defaultdict(int)
    losses: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    # The matches are listed round by round in the order they are played (a double elimination's
    # losers' rounds after the winners' and the grand final after both): a round's stage is where
    # its matches end in that list, the same for every match of the round.
    stage_of = {(m.bracket, m.round): index for index, m in enumerate(bracket.matches)}
    for m in bracket.matches:
        stage = stage_of[(m.bracket, m.round)]
        s = resolved[m.id]
        if s.status == "done":
            wins[s.winner] += 1
            losses[s.loser] += 1
            for pid, won in ((s.winner, 1), (s.loser, 0)):
                played[pid] += 1
                last[pid] = max(last.get(pid, (-1, 0)), (stage, won))
        elif s.status in ("ready", "waiting", "void"):
            for pid in s.players:
                if pid is not None:
                    next_match[pid] = max(next_match.get(pid, -1), stage)
    champ = brackets.champion(bracket, resolved)

    def place(pid):
        if pid == champ:
            return (3,)
        if pid in next_match:
            return (2, -losses[pid], next_match[pid])
        return (1, *last.get(pid, (-1, 0)))

    seeds = state["bracket"]["seeds"]
    order = sorted(seeds, key=lambda p: (tuple(-x for x in place(p)), seeds.index(p)))
    rows, previous = [], None
    for i, pid in enumerate(order):
        key = place(pid)
        rank = rows[-1]["rank"] if previous == key else i + 1
        previous = key
        rows.append(
            {
                "rank": rank,
                "player": pid,
                "name": state["players"][pid]["name"],
                "status": state["players"][pid]["status"],
                "score": Fraction(wins[pid]),
                "played": played[pid],
                "tiebreaks": {"seed": seeds.index(pid) + 1},
                "separated_by": None,
                "decided_by": None,
            }
        )
    return rows


def standings(state) -> dict[str, Any]:
    """Every table the tournament has, keyed by what it is (the format says which)."""
    if not state["started"]:
        return {"columns": [], "tables": []}
    return formats.of(state).standings(state)


def reopened_in_words(state, pairings: list[str]) -> str:
    """ "Round 1's result between p01 and p02 was retracted and waits for your ruling: ..."."""
    said = []
    for key in pairings:
        record = state["pairings"][key]
        names = [state["players"][p]["name"] for p in record["players"] if p in state["players"]]
        said.append(f"round {record['round']}'s result between {listed(names)}")
    one = len(said) == 1
    text = listed(said)
    verb, them = ("was retracted and waits", "it") if one else ("were retracted and wait", "them")
    return f"{text[0].upper()}{text[1:]} {verb} for your ruling: rule on {them} before pairing the next round."


def listed(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def progress(state) -> dict[str, Any]:
    """Where the tournament stands: registration, running (round n, complete or not), finished.

    ``open_pairings`` are the newest round's pairings still waiting for a result;
    ``reopened_pairings`` those of earlier rounds, put back before the organiser when a result
    was retracted after its round was over (a platform match later found disputed:
    ``services.corrections``). While any is open the event is not finished and no round is
    paired on standings missing it (RULES.md "A retracted result reopens the event")."""
    fmt = formats.of(state)
    rounds = state["rounds"]
    current = rounds[-1] if rounds else None
    open_pairings = [
        pid for pid in (current["pairings"] if current else []) if state["pairings"][pid]["status"] in OPEN
    ]
    reopened = [pid for rnd in rounds[:-1] for pid in rnd["pairings"] if state["pairings"][pid]["status"] in OPEN]
    complete = current is not None and not open_pairings
    planned = fmt.planned_rounds(state)
    finished = state["started"] and not reopened and fmt.finished(state, round_complete=complete, planned=planned)
    if state["bracket"] is not None:
        complete = finished
    status = (
        TournamentStatus.REGISTRATION
        if not state["started"]
        else (TournamentStatus.FINISHED if finished else TournamentStatus.RUNNING)
    )
    return {
        "status": status,
        "round": current["number"] if current else 0,
        "round_complete": complete,
        "open_pairings": open_pairings,
        "reopened_pairings": reopened,
        # What holds the event up, in the organiser's words: the page shows it where the button to
        # pair the next round would be, and pairing is refused with it.
        "reopened_words": reopened_in_words(state, reopened) if reopened else "",
        "planned_rounds": planned,
        "finished": finished,
        "can_pair_next": state["started"]
        and not finished
        and (current is None or complete)
        and not reopened
        and fmt.more_rounds(state, planned),
    }


def planned_rounds(state) -> int | None:
    return formats.of(state).planned_rounds(state)


def swiss_field(state) -> list[SwissPlayer]:
    """The players present for the next Swiss round, each with their own history."""
    score: dict[str, Fraction] = defaultdict(Fraction)
    opponents: dict[str, list] = defaultdict(list)
    seats: dict[str, list] = defaultdict(list)
    byes: dict[str, int] = defaultdict(int)
    for rnd in state["rounds"]:
        for pid in rnd["pairings"]:
            record = state["pairings"][pid]
            players = record["players"]
            if record["status"] == PairingStatus.FINAL:
                for p, value in points(state, record).items():
                    score[p] += value
            if len(players) == 1:
                # A requested bye is not the pairing's bye: it never stops the Swiss giving one.
                if not (record["result"] or {}).get("requested"):
                    byes[players[0]] += 1
                continue
            a, b = players
            opponents[a].append(b)
            opponents[b].append(a)
            result = record["result"] or {}
            if not (result.get("forfeit") or result.get("double_forfeit")):
                seats[a].append(True)
                seats[b].append(False)
    forbidden = defaultdict(set)
    for a, b in state["options"].get("forbidden_pairs", []):
        forbidden[a].add(b)
        forbidden[b].add(a)
    field = []
    sitting_out = set(requested_byes(state, len(state["rounds"]) + 1))
    for seed, pid in enumerate(state["entry_order"]):
        p = state["players"][pid]
        if p["status"] != PlayerStatus.ACTIVE or pid in sitting_out:
            continue
        field.append(
            SwissPlayer(
                id=pid,
                score=score[pid],
                rating=p.get("rating") or 0,
                opponents=tuple(opponents[pid]),
                first_seats=tuple(seats[pid]),
                byes=byes[pid],
                club=p.get("club") or None,
                forbidden=frozenset(forbidden[pid]),
                seed=seed,
            )
        )
    return field


def next_match(state, pid: str) -> dict[str, Any] | None:
    """A player's open pairing, if any (the newest one that still needs a result)."""
    for rnd in reversed(state["rounds"]):
        for key in rnd["pairings"]:
            record = state["pairings"][key]
            if pid in record["players"] and record["status"] in OPEN:
                return record
    return None
