"""Loading and validating the plain data files: courts, the 24-wizard roster, the spell cards.

Every file is checked when loaded; a malformed file raises DataError naming the file, the
entry and what is wrong. The ``validate_*`` functions take already-parsed data so that other
courts or rosters (and tests) can be checked without touching the files.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from .dice import COLOUR_ORDER, COLOURS

DATA_DIR = Path(__file__).parent / "data"
STATS = ("attack", "dodge", "cast", "resist")
STARS_PER_COURT = 5
TEAM_SIZE = 5


class DataError(ValueError):
    """A data file that does not describe a playable court, roster or spell set."""


def _load(name: str) -> Any:
    path = DATA_DIR / name
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{name}: cannot be read as JSON ({exc}).") from exc


def _is_int(value: Any) -> bool:
    return type(value) is int


def _row_range(value: Any, where: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value) and value[0] <= value[1]):
        raise DataError(f"{where}: a row range must be [first, last] with first <= last, not {value!r}.")
    return value[0], value[1]


def validate_court(court: dict[str, Any]) -> dict[str, Any]:
    cid = court.get("id")
    where = f"court {cid!r}"
    if not isinstance(cid, str) or not cid:
        raise DataError("court: every court needs a non-empty string 'id'.")
    width, length = court.get("width"), court.get("length")
    if not (_is_int(width) and _is_int(length) and width >= 3 and length >= 7):
        raise DataError(f"{where}: width and length must be integers (at least 3 by 7).")
    neutral = court.get("neutral_rows")
    if not (isinstance(neutral, list) and neutral and all(_is_int(r) and 1 <= r <= length for r in neutral)):
        raise DataError(f"{where}: neutral_rows must list rows inside the court.")
    zones = court.get("zones")
    if not (isinstance(zones, list) and len(zones) == 4):
        raise DataError(f"{where}: a court has exactly 4 zones (back, front, front, back).")
    expected = [(0, "back"), (0, "front"), (1, "front"), (1, "back")]
    covered: dict[int, int] = {}
    for i, zone in enumerate(zones):
        lo, hi = _row_range(zone.get("rows"), f"{where} zone {i}")
        if (zone.get("side"), zone.get("kind")) != expected[i]:
            raise DataError(f"{where}: zone {i} must be side {expected[i][0]}'s {expected[i][1]} zone.")
        for row in range(lo, hi + 1):
            covered[row] = covered.get(row, 0) + 1
    for row in range(1, length + 1):
        want = 2 if row in neutral else 1
        if covered.get(row, 0) != want:
            raise DataError(
                f"{where}: row {row} lies in {covered.get(row, 0)} zones; each row lies in exactly one zone "
                "and each Neutral Area row in both front zones."
            )
    if not (zones[0]["rows"][1] < zones[1]["rows"][0] and zones[2]["rows"][1] < zones[3]["rows"][0]):
        raise DataError(f"{where}: zones must run from one end of the court to the other in order.")
    lines = court.get("attack_lines")
    if not (isinstance(lines, list) and len(lines) == 2):
        raise DataError(f"{where}: a court has two attack lines.")
    for side, line in enumerate(lines):
        between = line.get("between_rows")
        back, front = zones[0 if side == 0 else 3], zones[1 if side == 0 else 2]
        want = [back["rows"][1], front["rows"][0]] if side == 0 else [front["rows"][1], back["rows"][0]]
        if line.get("side") != side or between != want:
            raise DataError(f"{where}: attack line {side} must lie between rows {want} (the back/front zone edge).")
    stars = court.get("stars")
    if not (isinstance(stars, list) and len(stars) == STARS_PER_COURT):
        raise DataError(f"{where}: a court has {STARS_PER_COURT} starred spaces, one per ball.")
    seen = set()
    for star in stars:
        if not (isinstance(star, list) and len(star) == 2 and all(_is_int(v) for v in star)):
            raise DataError(f"{where}: star {star!r} is not a [column, row] square.")
        col, row = star
        if not (1 <= col <= width and row in neutral):
            raise DataError(f"{where}: star {star!r} must be a square of the Neutral Area.")
        if (col, row) in seen:
            raise DataError(f"{where}: star {star!r} is listed twice.")
        seen.add((col, row))
    sides = court.get("sides")
    if not (isinstance(sides, list) and len(sides) == 2):
        raise DataError(f"{where}: a court has two sides.")
    for s, side in enumerate(sides):
        lo, hi = _row_range(side.get("rows"), f"{where} side {s}")
        own = [zones[0], zones[1]] if s == 0 else [zones[2], zones[3]]
        own_lo = min(z["rows"][0] for z in own)
        own_hi = max(z["rows"][1] for z in own)
        if (lo, hi) != (own_lo, own_hi):
            raise DataError(f"{where}: side {s} plays rows {own_lo}-{own_hi} (its two zones), not {lo}-{hi}.")
        slo, shi = _row_range(side.get("starting_rows"), f"{where} side {s} starting area")
        back = zones[0 if s == 0 else 3]["rows"]
        if not (back[0] <= slo and shi <= back[1]):
            raise DataError(f"{where}: side {s}'s starting area must lie in its back zone.")
        start = side.get("default_start")
        if not (isinstance(start, list) and len(start) == TEAM_SIZE):
            raise DataError(f"{where}: side {s} needs {TEAM_SIZE} default starting squares.")
        used = set()
        for sq in start:
            if not (isinstance(sq, list) and len(sq) == 2 and all(_is_int(v) for v in sq)):
                raise DataError(f"{where}: default start {sq!r} is not a [column, row] square.")
            if not (1 <= sq[0] <= width and slo <= sq[1] <= shi) or tuple(sq) in used:
                raise DataError(f"{where}: default start {sq!r} must be a distinct square of the starting area.")
            used.add(tuple(sq))
    return court


def validate_roster(wizards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not isinstance(wizards, list) or len(wizards) < 2 * TEAM_SIZE:
        raise DataError(f"roster: at least {2 * TEAM_SIZE} wizards are needed for a match.")
    jerseys: set[int] = set()
    names: set[str] = set()
    for entry in wizards:
        jersey = entry.get("jersey")
        where = f"roster wizard #{jersey}"
        if not (_is_int(jersey) and 0 <= jersey <= 99):
            raise DataError(f"roster: jersey {jersey!r} must be a whole number 0-99.")
        if jersey in jerseys:
            raise DataError(f"{where}: jersey number used twice.")
        jerseys.add(jersey)
        name = entry.get("name")
        if not (isinstance(name, str) and name.strip()) or name in names:
            raise DataError(f"{where}: needs a unique name.")
        names.add(name)
        if not (_is_int(entry.get("move")) and 3 <= entry["move"] <= 5):
            raise DataError(f"{where}: MOVE must be 3 to 5, not {entry.get('move')!r}.")
        if not (_is_int(entry.get("magic")) and 1 <= entry["magic"] <= 3):
            raise DataError(f"{where}: MAGIC must be 1 to 3, not {entry.get('magic')!r}.")
        for stat in STATS:
            pair = entry.get(stat)
            if not (isinstance(pair, list) and len(pair) == 2 and all(c in COLOURS for c in pair)):
                raise DataError(f"{where}: {stat.upper()} must be two die colours from {sorted(COLOURS)}.")
            if COLOUR_ORDER.index(pair[1]) < COLOUR_ORDER.index(pair[0]):
                raise DataError(f"{where}: {stat.upper()} right die ({pair[1]}) is lower than the left ({pair[0]}).")
        extra = set(entry) - {"jersey", "name", "move", "magic", *STATS}
        if extra:
            raise DataError(f"{where}: unknown field(s) {sorted(extra)}.")
    return wizards


TARGET_KINDS = {"wizard", "wizard_or_ball", "held_ball", "effect"}


def validate_spells(spells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not isinstance(spells, list) or not spells:
        raise DataError("spells: the spell list is empty.")
    ids: set[str] = set()
    for card in spells:
        cid = card.get("id")
        where = f"spell card {cid!r}"
        if not isinstance(cid, str) or cid in ids:
            raise DataError(f"{where}: needs a unique string id.")
        ids.add(cid)
        faces = card.get("faces")
        if not (isinstance(faces, list) and len(faces) in (1, 2)):
            raise DataError(f"{where}: a card has one face (single spell) or two (paired spell).")
        want_cost = 1 if len(faces) == 1 else 2
        if card.get("cost") != want_cost:
            raise DataError(f"{where}: costs {want_cost} ({'single' if want_cost == 1 else 'paired'} spell).")
        for face in faces:
            fid = face.get("id")
            if not isinstance(fid, str) or (fid in ids and fid != cid):
                raise DataError(f"{where}: face id {fid!r} must be a unique string.")
            ids.add(fid)
            if face.get("targets") not in TARGET_KINDS:
                raise DataError(f"{where}: face {fid!r} targets must be one of {sorted(TARGET_KINDS)}.")
            if not isinstance(face.get("marker"), bool) or not isinstance(face.get("rebound"), bool):
                raise DataError(f"{where}: face {fid!r} needs boolean 'marker' and 'rebound'.")
            if not (isinstance(face.get("text"), str) and face["text"]):
                raise DataError(f"{where}: face {fid!r} needs a short description.")
    return spells


@cache
def courts() -> dict[str, dict[str, Any]]:
    data = _load("court.json")
    out = {}
    for court in data.get("courts", []):
        validate_court(court)
        if court["id"] in out:
            raise DataError(f"court.json: court {court['id']!r} defined twice.")
        out[court["id"]] = court
    if not out:
        raise DataError("court.json: no courts defined.")
    return out


@cache
def roster() -> dict[int, dict[str, Any]]:
    wizards = validate_roster(_load("roster.json").get("wizards"))
    return {w["jersey"]: w for w in wizards}


@cache
def spell_cards() -> dict[str, dict[str, Any]]:
    cards = validate_spells(_load("spells.json").get("spells"))
    return {c["id"]: c for c in cards}


@cache
def spell_faces() -> dict[str, dict[str, Any]]:
    """face id -> face, with its card id under ``"card"``."""
    out = {}
    for card in spell_cards().values():
        for face in card["faces"]:
            out[face["id"]] = dict(face, card=card["id"], cost=card["cost"])
    return out


SPELL_ORDER = [
    "teleport",
    "fireball",
    "freeze",
    "shield",
    "dispel",
    "slow_speed",
    "strong_weak",
    "shrink_enlarge",
    "butter_sticky",
    "drain_boost",
]
