"""Time controls, computed from the events' recorded times alone (docs/AUDIT.md, "Clocks").

A match's ``time_control`` (recorded in its first event) is one of:

  ``{"kind": "fischer", "base": s, "increment": s}``   each seat has ``base`` seconds in all;
                                                      ``increment`` is added after each of its moves
  ``{"kind": "correspondence", "days_per_move": d}``  each seat has ``d`` days for every move

A seat's clock runs while the engine names it among the seats to move (simultaneous movers'
clocks run together); nobody's runs while a random outcome is due, except in a match recorded with
``entry_clocks`` (a timed tabletop match): there a draw only some seats may enter runs their clocks,
or a player could leave their own draw unentered and the match would never end. Times are whole
microseconds since the epoch, so the web process, a worker and an offline verifier compute the same
numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

FISCHER, CORRESPONDENCE = "fischer", "correspondence"
SECOND = 1_000_000
DAY = 86_400 * SECOND

#: Bounds that keep a typo from making an unusable match.
LIMITS = {"base": (10, 30 * 86_400), "increment": (0, 3_600), "days_per_move": (1, 60)}


class BadTimeControl(ValueError):
    pass


#: The whole numbers each kind of time control is made of.
NUMBERS = {FISCHER: ("base", "increment"), CORRESPONDENCE: ("days_per_move",)}


def _numbers(kind: Any) -> tuple[str, ...] | None:
    # A kind that is a list or an object cannot be looked up (unhashable): unknown like any other.
    return NUMBERS.get(kind) if type(kind) is str else None


def check_time_control(value: Any) -> dict[str, Any]:
    """The time control, normalised; ``{}`` for an untimed match; BadTimeControl otherwise."""
    if value in (None, {}):
        return {}
    if not isinstance(value, dict):
        raise BadTimeControl("A time control is a JSON object.")
    kind = value.get("kind")
    numbers = _numbers(kind)
    if numbers is None:
        raise BadTimeControl("A time control's kind is 'fischer' or 'correspondence'.")
    if FISCHER == kind:
        value = {"increment": 0, **value}
    keys = {"kind", *numbers}
    if set(value) != keys:
        raise BadTimeControl(f"A {kind} time control has exactly: {', '.join(sorted(keys))}.")
    for key in numbers:
        low, high = LIMITS[key]
        if type(value[key]) is not int or not low <= value[key] <= high:
            raise BadTimeControl(f"'{key}' must be a whole number from {low} to {high}.")
    return dict(value)


def control_problem(control: Any) -> str | None:
    """Why a recorded time control cannot run the clocks, or None. Only its shape: its limits are
    the platform's to enforce when a match is made, not a replay's."""
    if not isinstance(control, dict):
        return "The recorded time control is not a JSON object."
    kind = control.get("kind")
    numbers = _numbers(kind)
    if numbers is None:
        return "The recorded time control's kind is neither 'fischer' nor 'correspondence'."
    if any(type(control.get(key)) is not int for key in numbers):
        return f"The recorded {kind} time control needs whole numbers for {' and '.join(numbers)}."
    return None


def micros(at: str | datetime) -> int:
    """An ISO 8601 time (as events record it) in whole microseconds since the epoch."""
    moment = datetime.fromisoformat(at) if isinstance(at, str) else at
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * SECOND + delta.microseconds


@dataclass
class Clocks:
    """The seats' clocks, moved on event by event."""

    control: dict[str, Any]
    left: list[int]  # microseconds left per seat (correspondence: for the current move)
    running: list[int] = field(default_factory=list)
    since: int = 0  # when the running clocks last started or were last settled
    entries: bool = False  # a due outcome runs the clocks of the seats that alone may enter it

    @classmethod
    def start(cls, control: dict[str, Any], seats: int, at: int, *, entries: bool = False) -> Clocks:
        return cls(control, [cls._allowance(control)] * seats, [], at, entries)

    def seats_to_run(self, to_move: list[int], due: dict[str, Any] | None) -> list[int]:
        """The seats whose clocks run next: ``to_move`` (the engine's, chance left out), or while
        the outcome ``due`` is owed, nobody, or with ``entries`` the seats it names in ``visible_to``."""
        if due is not None:
            owed_by = due.get("visible_to") if self.entries else None
            return sorted(s for s in owed_by if type(s) is int) if isinstance(owed_by, list) else []
        return [s for s in to_move if s >= 0]

    @staticmethod
    def _allowance(control: dict[str, Any]) -> int:
        if control["kind"] == FISCHER:
            return control["base"] * SECOND
        return control["days_per_move"] * DAY

    def left_at(self, at: int) -> list[int]:
        spent = max(0, at - self.since)
        return [v - spent if s in self.running else v for s, v in enumerate(self.left)]

    def expired_at(self, at: int) -> list[int]:
        """The running seats whose time is up at ``at``."""
        return [s for s, v in enumerate(self.left_at(at)) if s in self.running and v <= 0]

    def step(self, at: int, mover: int | None, to_move: list[int]) -> None:
        """An event recorded at ``at`` (by seat ``mover`` when it is that seat's action),
        after which ``to_move`` (real seats only) are to move."""
        self.left = self.left_at(at)
        if mover is not None and 0 <= mover < len(self.left):
            if self.control["kind"] == FISCHER:
                self.left[mover] += self.control["increment"] * SECOND
            else:
                self.left[mover] = self._allowance(self.control)
        if self.control["kind"] == CORRESPONDENCE:
            for s in to_move:
                if s not in self.running:
                    self.left[s] = self._allowance(self.control)  # a new move: a fresh allowance
        self.running = sorted(s for s in to_move if s >= 0)
        self.since = at

    def as_dict(self) -> dict[str, Any]:
        data = {"control": self.control, "left": self.left, "running": self.running, "since": self.since}
        return {**data, "entries": True} if self.entries else data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Clocks:
        return cls(
            data["control"], list(data["left"]), list(data["running"]), data["since"], data.get("entries") is True
        )
