"""Reads: the projection (cached or rebuilt), summaries for the API and pages, exports."""

from __future__ import annotations

import copy
import csv
import io
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from engines import registry
from league.spreadsheets import text_cell
from matches import eventstore
from matches.models import Stream

from . import projection
from .access import is_organiser, pid_of
from .errors import refuse
from .formats import registry as formats
from .models import Tournament
from .projection import bracket_of, bracket_state, event_dict
from .sheets import table_numbers
from .standings import as_decimal, as_text, next_match, points, progress, standings
from .states import ENTERED, PairingStatus, PlayerStatus
from .timer import timer_view


def tournament_get(*, tournament_id) -> Tournament | None:
    try:
        return Tournament.objects.select_related("created_by").get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError, ValidationError):
        return None


def state_at_head(tournament: Tournament, head_seq: int | None = None) -> dict:
    """The projection at the stream's head: the cached copy, with any events it has not
    folded yet folded on a copy. Writes nothing (commands save the cache as they append)."""
    state = tournament.state or projection.initial()
    if head_seq is None or head_seq != tournament.state_seq:
        newer = eventstore.stream_events(stream_id=tournament.stream_id, after=tournament.state_seq)
        if newer:
            return projection.fold([event_dict(e) for e in newer], state)
    return copy.deepcopy(state)


def tournament_state(*, tournament: Tournament) -> dict:
    head = Stream.objects.filter(pk=tournament.stream_id).values_list("head_seq", flat=True).first()
    return state_at_head(tournament, head)


def _texted(value: Any) -> Any:
    if isinstance(value, Fraction):
        return as_text(value)
    if isinstance(value, dict):
        return {k: _texted(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_texted(v) for v in value]
    return value


def pairing_view(state, record, tables: dict[str, int] | None = None) -> dict:
    """A pairing as pages show it; ``table``: its table number at the venue (``sheets.py``),
    None for a bye or a bracket match not ready to be played."""
    names = {pid: state["players"][pid]["name"] for pid in record["players"] if pid}
    if tables is None:
        tables = table_numbers(state, record["round"])
    out = {
        "id": record["id"],
        "round": record["round"],
        "board": record["board"],
        "table": tables.get(record["id"]),
        "players": record["players"],
        "names": [names.get(p) for p in record["players"]],
        "status": record["status"],
        "result": record["result"],
        "source": record["source"],
        "reports": record["reports"],
        "match_id": record["match_id"],
        "group": record["group"],
        "bracket_match": record["bracket_match"],
        "history": record["history"],
        # Whether its result is a finish (places) rather than a winner: a pod, not a bracket match.
        "reports_finish": formats.of(state).reports_finish(record),
    }
    if record["status"] == PairingStatus.FINAL:
        out["points"] = {p: as_text(v) for p, v in points(state, record).items()}
    return out


def _outcome_for(pid, record) -> str:
    result = record["result"] or {}
    if result.get("bye"):
        return "bye"
    if result.get("double_forfeit"):
        return "double forfeit"
    if result.get("draw"):
        return "draw" + _games_text(pid, record)
    if "finish" in result:
        place = next(i for i, tied in enumerate(result["finish"], start=1) if pid in tied)
        return f"place {place}"
    won = result.get("winner") == pid
    outcome = ("won" if won else "lost") + (" by forfeit" if result.get("forfeit") else "")
    return outcome + _games_text(pid, record)


def _games_text(pid, record) -> str:
    """The game score from this player's side (" 2-1"), when the result has one."""
    games = (record["result"] or {}).get("games")
    if not games:
        return ""
    mine = record["players"].index(pid)
    return f" {games[mine]}-{games[1 - mine]}"


def player_view(state, pid: str) -> dict:
    """One player's page: their next match, every result so far and their standing."""
    player = state["players"][pid]
    nxt = next_match(state, pid)
    results = []
    for rnd in state["rounds"]:
        for key in rnd["pairings"]:
            record = state["pairings"][key]
            if pid not in record["players"] or record["status"] != PairingStatus.FINAL:
                continue
            results.append(
                {
                    "pairing": record["id"],
                    "round": record["round"],
                    "board": record["board"],
                    "bracket_match": record["bracket_match"],
                    "opponents": [state["players"][p]["name"] for p in record["players"] if p != pid],
                    "outcome": _outcome_for(pid, record),
                    "points": as_text(points(state, record).get(pid)),
                    "match_id": record["match_id"],
                }
            )
    standing = None
    for table in standings(state)["tables"]:
        row = next((r for r in table["rows"] if r["player"] == pid), None)
        if row is not None:
            standing = {
                "table": table["title"],
                "rank": row["rank"],
                "score": row["score"],
                "played": row["played"],
                "tiebreaks": row["tiebreaks"],
                "of": len(table["rows"]),
            }
            break
    return {
        "id": pid,
        "name": player["name"],
        "status": player["status"],
        "checked_in": player["checked_in"],
        "next": pairing_view(state, nxt) if nxt else None,
        "results": results,
        "standing": standing,
    }


def tournament_summary(*, tournament: Tournament, user, state: dict | None = None, player: str | None = None) -> dict:
    state = state if state is not None else tournament_state(tournament=tournament)
    me = pid_of(user) if user is not None and user.is_authenticated else None
    info = progress(state)
    fmt = formats.of(state)
    try:
        game_title = registry.get(state["game"]).title
    except registry.UnknownEngine:
        game_title = state["game"]
    organiser = is_organiser(state, user)
    players = [
        {
            "id": pid,
            **{k: p[k] for k in ("name", "status", "checked_in", "rating", "club", "joined_round", "dropped_after")},
            "checked_in_at_desk": bool(p.get("checked_in_by")),
            "seed": (state["seeds"].index(pid) + 1) if state["seeds"] and pid in state["seeds"] else None,
            # Whether the player gets this tournament's emails at all, for those who act on it: the
            # organiser (whose entry it was) and the player. Others' bodies stay as they were.
            **({"asked_to_play": projection.asked_to_play(p)} if organiser or pid == me else {}),
        }
        for pid, p in state["players"].items()
    ]
    players.sort(key=lambda p: (p["seed"] is None, p["seed"] or 0, p["name"]))
    rounds = []
    for r in state["rounds"]:
        tables = table_numbers(state, r["number"])  # where each pairing sits at the venue (sheets.py)
        rounds.append(
            {
                "number": r["number"],
                "kind": r["kind"],
                "method": r.get("method"),
                "pairings": [pairing_view(state, state["pairings"][pid], tables) for pid in r["pairings"]],
            }
        )
    bracket = None
    if state["bracket"] is not None:
        shape = bracket_of(state)
        resolved = bracket_state(state)
        bracket = shape.as_dict()
        bracket["seeds"] = state["bracket"]["seeds"]
        for m in bracket["matches"]:
            s = resolved[m["id"]]
            record = state["pairings"].get(m["id"])
            m.update(
                players=list(s.players),
                status=s.status,
                winner=s.winner,
                names=[state["players"][p]["name"] if p else None for p in s.players],
                pairing_status=record["status"] if record else None,
                voided=any(h.get("event") == "voided" for h in record["history"]) if record else False,
            )
    mine = None
    if me and me in state["players"]:
        nxt = next_match(state, me)
        mine = {
            "player": me,
            "status": state["players"][me]["status"],
            "checked_in": state["players"][me]["checked_in"],
            # False: the organiser entered you and you have not confirmed it, so no emails.
            "asked_to_play": projection.asked_to_play(state["players"][me]),
            "next": pairing_view(state, nxt) if nxt else None,
        }
    return _texted(
        {
            "id": str(tournament.id),
            "name": state["name"],
            "game": state["game"],
            "game_title": game_title,
            "format": state["format"],
            "options": state["options"],
            "organiser": state["organiser"],
            "organiser_name": tournament.created_by.get_username(),
            "is_organiser": organiser,
            "head_seq": state["seq"],
            "progress": info,
            "players": players,
            "waitlist": state["waitlist"],
            "groups": state["groups"],
            "rounds": rounds,
            "bracket": bracket,
            "standings": standings(state),
            "me": mine,
            "seeding": state["seeding"],
            "elimination": fmt.elimination,
            # What the format is and does, for the page to draw it without naming formats.
            "format_info": {
                "name": fmt.name,
                "label": fmt.label,
                "draws": fmt.draws,
                "multiplayer": fmt.pods,
                "late_entry": fmt.late_entry,
                "ranks_by_tiebreaks": fmt.ranks_by_tiebreaks,
                "options": list(fmt.option_keys),
                "elimination": fmt.elimination,
                "trf_export": fmt.trf_export,
                "cross_table": fmt.cross_table,
                # Whether its rounds can feed a bracket of the best, and whether they do here.
                "offers_cut": fmt.offers_cut,
                "has_cut": fmt.has_cut(state),
                # How the page names the bracket: the event's own, or the playoff a stage fed.
                "bracket_title": "Bracket" if fmt.elimination else "Playoff",
            },
            "draft": _draft_view(state),
            # The stage a cut fed (who qualified and how they were seeded), once it is paired.
            "stage": state.get("stage"),
            # Seconds left now, by the server's clock: pages count down from it with their own timer.
            "timer": timer_view(state, timezone.now()),
            "player": player_view(state, player) if player and player in state["players"] else None,
            # The organiser's edits of a round, each with its reason, and byes asked for ahead.
            "edits": edits_view(state),
            "requested_byes": state.get("requested_byes", {}),
        }
    )


def edits_view(state) -> list[dict]:
    """The organiser's edits of rounds' pairings, as lines everyone reads (services/edits.py)."""
    return [
        {**line, "names": [state["players"][p]["name"] for p in line.get("players", [])]}
        for line in state.get("edits", [])
    ]


def _draft_view(state) -> dict | None:
    draft = state.get("draft")
    if not draft:
        return None
    from matches.models import Match

    status = Match.objects.filter(pk=draft["draft_id"]).values_list("status", flat=True).first()
    return {
        "draft_id": draft["draft_id"],
        "url": f"/drafts/{draft['draft_id']}/",
        "finished": status == Match.Status.FINISHED,
        "coaches": [state["players"][p]["name"] for p in draft["seats"]],
    }


def player_id_of(state, username: str) -> str | None:
    return next((pid for pid, p in state["players"].items() if p["name"] == username), None)


def tournament_list(*, limit: int = 100) -> list[dict]:
    return [
        {
            "id": str(t.id),
            "name": t.name,
            "game": t.game,
            "format": t.format,
            "status": t.status,
            "organiser": t.created_by.get_username(),
            "created_at": t.created_at.isoformat(),
            "players": sum(
                1
                for p in (t.state.get("players") or {}).values()
                if p["status"] in (PlayerStatus.REGISTERED, PlayerStatus.ACTIVE, PlayerStatus.DROPPED)
            ),
        }
        for t in Tournament.objects.select_related("created_by")[:limit]
    ]


# --------------------------------------------------------------------------------------
# Exports


def standings_csv(*, tournament: Tournament) -> str:
    state = tournament_state(tournament=tournament)
    table = standings(state)
    out = io.StringIO()
    writer = csv.writer(out)
    columns = table["columns"]
    writer.writerow(["table", "rank", "player", "status", "score", "played", *columns])
    for t in table["tables"]:
        for row in t["rows"]:
            # Scores as decimals ("1.5"): a spreadsheet opens "3/2" or "1/2" as a date.
            writer.writerow(
                [
                    t["title"],
                    row["rank"],
                    text_cell(row["name"]),
                    row["status"],
                    as_decimal(row["score"]),
                    row["played"],
                    *[as_decimal(row["tiebreaks"].get(c)) for c in columns],
                ]
            )
    return out.getvalue()


def _trf_points(value: Fraction, what: str = "A player's points") -> str:
    """Points as TRF-16 writes them: one decimal in four columns (81-84 on a 001 line). A
    total that needs more (``1/4`` of a point, or 100 and over with a win worth 3) is refused,
    not rounded or spilled into the rank's columns: every reader takes the file's points as
    the exact sum of its results, and a wider field shifts every column after it."""
    text = f"{float(value):4.1f}"
    if value * 10 != int(value * 10) or len(text) > 4:
        raise refuse(
            f"{what} ({value}) cannot be written in TRF-16, whose points have one decimal in four "
            "characters; the standings and their CSV export give every score exactly.",
            "trf_unrepresentable",
        )
    return text


#: Result codes of FIDE's TRF-16 that this export writes (and nothing else):
#: 1 = 0 a game won, drawn, lost; + - a forfeit won, lost; U the pairing-allocated bye;
#: Z a round the player was not in (dropped, joined later) or a zero-point bye they asked
#: for; F and H a bye they asked for worth a win, or half a win (``_requested_bye_code``).
TRF_CODES = ("1", "=", "0", "+", "-", "U", "Z", "F", "H")


def trf_report(*, tournament: Tournament) -> str:
    """A FIDE TRF-16 report of a Swiss: header lines, then one 001 line per player with
    start number, name, rating, points, rank and, per round played to the end, the
    opponent's start number, the seat (w first, b second, - none) and the result code.

    Start numbers follow the order the pairing ranks an empty score sheet by (rating,
    then entry: ``swiss.start_order``), so another pairing program reading the file sees the
    same field. ``XXR`` is the number of rounds planned (the JaVaFo / bbpPairings
    extension). A round still being played is left out: TRF has no code for a game
    without a result. The bye's worth goes into ``XXS PAB=`` when it is not a point."""
    from .standings import complete_rounds, planned_rounds
    from .swiss import as_fraction, start_order

    state = tournament_state(tournament=tournament)
    if not formats.of(state).trf_export:
        raise refuse("The TRF report is for Swiss tournaments.", "not_swiss")
    # Points and ranks as of the last round played to the end, so that each line's points
    # are the sum of the results it lists (a bye given with the next round's pairing
    # belongs to a round the file does not show yet).
    played = [r for r in state["rounds"] if r["kind"] == "round"][: complete_rounds(state)]
    # The Swiss's own table: a cut's playoff (its bracket) is no part of the report.
    table = standings({**state, "rounds": played, "bracket": None})["tables"]
    rows = table[0]["rows"] if table else []
    entered = {pid: n for n, pid in enumerate(state["entry_order"])}
    entrants = [
        (pid, p.get("rating"), entered.get(pid, len(entered)))
        for pid, p in state["players"].items()
        if p["status"] in ENTERED
    ]
    start = {pid: n for n, pid in enumerate(start_order(entrants), start=1)}
    by_player = {r["player"]: r for r in rows}
    bye = _trf_points(as_fraction(state["options"].get("bye_score", "1")), "The pairing bye's worth").strip()
    lines = [
        f"012 {_one_line(state['name'])[:80]}",
        f"062 {len(start):4d}",
        "092 Swiss (minimum-cost matching)",
        f"XXR {planned_rounds(state) or len(played)}",
    ]
    if bye != "1.0":
        lines.append(f"XXS PAB={bye}")
    for pid, number in sorted(start.items(), key=lambda kv: kv[1]):
        player = state["players"][pid]
        row = by_player.get(pid)
        rating = max(0, min(9999, int(player.get("rating") or 0)))
        line = (
            f"001 {number:4d}      {_one_line(player['name'])[:33]:<33} {rating:4d}"
            + " " * 28
            + f"{_trf_points(row['score'] if row else Fraction(0))} {row['rank'] if row else 0:4d}"
        )
        for rnd in played:
            cell = "0000 - Z"
            for key in rnd["pairings"]:
                record = state["pairings"][key]
                if pid not in record["players"]:
                    continue
                result = record["result"] or {}
                if len(record["players"]) == 1:
                    cell = "0000 - U"
                    if result.get("requested"):
                        cell = "0000 - " + _requested_bye_code(state)
                    break
                first = record["players"][0] == pid
                other = record["players"][1] if first else record["players"][0]
                colour = "w" if first else "b"
                if result.get("double_forfeit"):
                    code, colour = "-", "-"
                elif result.get("forfeit"):
                    code, colour = ("+" if result["winner"] == pid else "-"), "-"
                elif result.get("draw"):
                    code = "="
                else:
                    code = "1" if result.get("winner") == pid else "0"
                cell = f"{start.get(other, 0):4d} {colour} {code}"
                break
            line += "  " + cell
        lines.append(line)
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    # A tournament's name is free text: a line break in it would start a line a pairing program
    # reads as a header or a player of its own.
    return " ".join(text.splitlines())


def _requested_bye_code(state) -> str:
    """TRF-16's code for a bye the player asked for, by its share of a win (1 point, or 3
    with 3/1/0): F a full-point bye (a win's worth), H a half-point bye (half a win), Z a
    zero-point bye. TRF has no other: a worth in between is written as the nearest, the
    lower on a tie (RULES.md "Requested byes"); the line's points keep the exact total."""
    from .standings import scoring
    from .swiss import as_fraction

    share = as_fraction(state["options"].get("requested_bye_points", "0")) / scoring(state)["win"]
    return min((("Z", Fraction(0)), ("H", Fraction(1, 2)), ("F", Fraction(1))), key=lambda c: abs(share - c[1]))[0]
