"""Table numbers and the organiser's printed sheets (pairings, standings, match slips).

Pure reads of the folded state. A round's tables are its pairings that are played at a table,
numbered 1, 2, 3... in board order: a bye needs no table. In a bracket, whose matches become
ready as results come in, the tables are the matches ready to be played now (pending, reported
or disputed), numbered in bracket order: the sheet printed for the next wave of matches
starts again at table 1.
"""

from __future__ import annotations

from typing import Any

from .states import OPEN, RoundKind


def table_numbers(state: dict, number: int) -> dict[str, int]:
    """Pairing id -> table number for round ``number``."""
    rnd = next((r for r in state["rounds"] if r["number"] == number), None)
    if rnd is None:
        return {}
    records = sorted((state["pairings"][pid] for pid in rnd["pairings"]), key=lambda rec: rec["board"])
    if rnd["kind"] == RoundKind.BRACKET:
        records = [rec for rec in records if rec["status"] in OPEN and None not in rec["players"]]
    else:
        records = [rec for rec in records if len(rec["players"]) > 1]
    return {rec["id"]: table for table, rec in enumerate(records, start=1)}


def round_to_print(state: dict, asked: Any = None) -> int | None:
    """The round a sheet shows: the one asked for if it exists, else the latest."""
    numbers = [r["number"] for r in state["rounds"]]
    if not numbers:
        return None
    try:
        wanted = int(asked)
    except (TypeError, ValueError):
        return numbers[-1]
    return wanted if wanted in numbers else numbers[-1]
