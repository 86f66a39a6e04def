"""The interface every tournament format implements, and what formats share.

A format is a stateless object: every method takes the folded tournament state (plain JSON,
``projection.py``) and returns plain data, or raises a refusal (``errors.refuse``) that the
command turns into ``{"code", "detail"}`` with nothing written. Decisions that need the
outside world (a game's seat count) come in as arguments or from the engine registry; the
events the services append carry what the format decided, so replay never calls a format's
pairing again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from .. import brackets
from ..errors import refuse
from ..projection import bracket_of, bracket_state
from ..standings import elimination_places, round_standings
from ..states import PlayerStatus
from ..swiss import as_fraction
from ..tiebreaks import TIEBREAKS

# --------------------------------------------------------------------------------------
# Option helpers: each refusal names the option


def option_bool(options: dict, key: str, default: bool = False) -> bool:
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise refuse(f"Option '{key}' must be true or false.", "bad_options", 400)
    return value


def option_int(options: dict, key: str, default, low: int, high: int | None = None, allow_none: bool = False):
    value = options.get(key, default)
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bounds = f"from {low}" + (f" to {high}" if high is not None else "")
        raise refuse(f"Option '{key}' must be a whole number {bounds}.", "bad_options", 400)
    return value


#: A score (match points, a bye's worth, placement points) is at most this much either way,
#: with a denominator of at most ``MAX_SCORE_DENOMINATOR``. Far beyond any scoring an organiser
#: uses (3/1/0, 1/½/0, 25/18/15... placement points), and small enough that every total, the
#: tie-breaks' products and the hundredths the pages show stay a few digits long.
MAX_SCORE = 1000
MAX_SCORE_DENOMINATOR = 100
#: Longer text is no score: "999.99" and "99/100" are short.
MAX_SCORE_TEXT = 20


def _score_refusal(key: str):
    return refuse(
        f"Option '{key}' must be a number from -{MAX_SCORE} to {MAX_SCORE}: a whole number, a decimal or a "
        f"fraction with a denominator of at most {MAX_SCORE_DENOMINATOR} (like 3, 0.25 or 1/3).",
        "bad_options",
        400,
    )


def option_score(value, key: str):
    # Text is read by Fraction, which expands an exponent in full: "1e9999999" takes seconds
    # to read and "1e99999" cannot be written out again (Python's 4300-digit limit). A score
    # never needs one. true/false would read as 1/0.
    if isinstance(value, bool) or (isinstance(value, str) and (len(value) > MAX_SCORE_TEXT or "e" in value.lower())):
        raise _score_refusal(key)
    try:
        score = as_fraction(value)
    except (ValueError, ZeroDivisionError, TypeError):
        raise _score_refusal(key) from None
    if abs(score) > MAX_SCORE or score.denominator > MAX_SCORE_DENOMINATOR:
        raise _score_refusal(key)
    return score


def clean_requested_bye_points(options: dict, *, high) -> str:
    """What a bye a player asked for in advance is worth (services/edits.py): from 0 (the
    default) up to ``high``, a win's worth."""
    value = option_score(options.get("requested_bye_points", "0"), "requested_bye_points")
    if not 0 <= value <= high:
        raise refuse(f"A requested bye is worth from 0 to {high} points.", "bad_options", 400)
    return str(value)


#: Matches of one game, or the best of three or five (``best_of``).
BEST_OF = (1, 3, 5)
#: Where a player's score comes from: match points, or the games won (battle points).
POINTS_FROM = ("match", "games")
#: The scoring options of the formats ranked by score and tie-breaks.
SCORING_OPTIONS = ("best_of", "match_points", "points_from")


def clean_best_of(options: dict) -> int:
    value = options.get("best_of", 1)
    if value not in BEST_OF or isinstance(value, bool):
        raise refuse("Option 'best_of' is 1, 3 or 5 games a match.", "bad_options", 400)
    return value


def clean_match_points(options: dict) -> dict[str, str]:
    """``match_points``: what a win, a draw, a loss and a bye are worth. Defaults keep the
    scoring every event had before (1, 1/2, 0, the bye as ``bye_score`` or a win); a draw
    given no value is half a win. Stored as exact fractions' text ("1/2")."""
    given = options.get("match_points") or {}
    if not isinstance(given, dict) or set(given) - {"win", "draw", "loss", "bye"}:
        raise refuse("Option 'match_points' is an object of win, draw, loss and bye.", "bad_options", 400)
    win = option_score(given.get("win", 1), "match_points")
    if "draw" not in given and (win / 2).denominator > MAX_SCORE_DENOMINATOR:
        # The stored draw is cleaned again by every later configure: it must be a score too.
        raise refuse(
            f"A draw left out is worth half a win, and half of {win} is finer than 1/{MAX_SCORE_DENOMINATOR}: "
            "give match_points' draw.",
            "bad_options",
            400,
        )
    draw = option_score(given.get("draw", win / 2), "match_points")
    loss = option_score(given.get("loss", 0), "match_points")
    if "bye" in given:
        bye = option_score(given["bye"], "match_points")
    else:
        bye = option_score(options.get("bye_score", win), "bye_score")
    if not (0 <= loss <= draw <= win and win > 0 and 0 <= bye <= win):
        raise refuse(
            "Match points run loss ≤ draw ≤ win (a win worth more than nothing), and a bye is worth 0 to a win.",
            "bad_options",
            400,
        )
    return {
        k: (str(v.numerator) if v.denominator == 1 else str(v))
        for k, v in zip(("win", "draw", "loss", "bye"), (win, draw, loss, bye), strict=True)
    }


#: The bracket a cut feeds, and how its qualifiers are seeded.
CUT_FORMATS = ("single_elimination", "double_elimination")
CUT_SEEDING = ("standings", "rating")
#: The options of a cut, for the formats that offer one.
CUT_OPTIONS = ("cut", "cut_format", "cut_seeding")


def clean_cut(options: dict, *, sized: bool = True) -> dict[str, Any]:
    """A second stage fed by this one: the best ``cut`` players go on to a ``cut_format``
    bracket, seeded by ``cut_seeding`` (their final standing, or their rating). A format
    whose second stage is always played and sized by other options (groups: ``advance`` from
    each) cleans it with ``sized=False``: no ``cut``, the bracket and the seeding rule only."""
    out: dict[str, Any] = {}
    if sized:
        cut = option_int(options, "cut", None, 2, 256, allow_none=True)
        if cut is None:
            return {"cut": None}
        out["cut"] = cut
    out["cut_format"] = options.get("cut_format", CUT_FORMATS[0])
    if out["cut_format"] not in CUT_FORMATS:
        raise refuse(f"The cut feeds one of {', '.join(CUT_FORMATS)}.", "bad_options", 400)
    out["cut_seeding"] = options.get("cut_seeding", CUT_SEEDING[0])
    if out["cut_seeding"] not in CUT_SEEDING:
        raise refuse("The cut is seeded by 'standings' (rank order) or 'rating'.", "bad_options", 400)
    return out


def bracket_shape(kind: str, entrants: int, options: dict) -> dict[str, Any]:
    """The stored shape of a bracket of ``kind`` (``brackets.from_shape`` reads it)."""
    if kind == "double_elimination":
        return {"format": kind, "entrants": entrants, "bracket_reset": options.get("bracket_reset", True)}
    return {"format": kind, "entrants": entrants, "third_place": options.get("third_place", False)}


#: Resolves a username (or user id) the organiser typed to a player id; refuses an unknown one.
UserResolver = Callable[[Any], str]


class Format:
    """One tournament format. Subclasses set the class attributes and override what differs."""

    #: The stored name (``tournament.created``'s ``format``); the registry finds a format by it.
    name: ClassVar[str] = ""
    #: How the new-tournament form and the pages name it.
    label: ClassVar[str] = ""
    #: Where it comes in the form's list.
    position: ClassVar[int] = 100
    #: The options of this format besides the ones every tournament has (cap, check-in, seeding,
    #: time control, round timer). Other formats' options given to this one are ignored.
    option_keys: ClassVar[tuple[str, ...]] = ()
    #: Ranked by score then these tie-breaks (the organiser may choose others); empty: not
    #: ranked by tie-breaks at all.
    default_tiebreaks: ClassVar[tuple[str, ...]] = ()
    #: Whether a player may join after the start (the pairing is made round by round).
    late_entry: ClassVar[bool] = False
    #: Whether a pairing seats several players who report a finish (places), not a winner.
    pods: ClassVar[bool] = False
    #: What the page draws: "rounds" (lists of pairings), "bracket", or "groups" (tables,
    #: then a bracket).
    draws: ClassVar[str] = "rounds"
    #: Whether the FIDE TRF report applies (a two-player Swiss).
    trf_export: ClassVar[bool] = False
    #: Whether a round a player missed counts as an unplayed round for the tie-breaks (Swiss:
    #: everyone is paired every round, so a missed round is a zero against nobody).
    scores_unplayed_rounds: ClassVar[bool] = False
    #: Whether the page draws a cross table of everyone against everyone (a round robin).
    cross_table: ClassVar[bool] = False
    #: Whether the second stage is always played (groups, then a playoff), sized by the
    #: format's own options rather than ``cut``.
    always_cut: ClassVar[bool] = False

    @property
    def ranks_by_tiebreaks(self) -> bool:
        return bool(self.default_tiebreaks)

    @property
    def elimination(self) -> bool:
        return self.draws == "bracket"

    @property
    def offers_cut(self) -> bool:
        """Whether its rounds can feed a second stage (a bracket of the best): the formats
        that list the cut's options, and those whose second stage is always played."""
        return "cut" in self.option_keys or self.always_cut

    # -- options -----------------------------------------------------------------------

    def clean_options(self, options: dict, *, engine, user_pid: UserResolver) -> dict[str, Any]:
        """This format's own options, validated and completed (``options`` holds what was
        given; ``engine`` is the game's). The tie-breaks and the cut are cleaned here for
        every format that offers them."""
        out: dict[str, Any] = {}
        if self.ranks_by_tiebreaks:
            names = options.get("tiebreaks")
            if names is not None:
                if (
                    not isinstance(names, list)
                    or any(n not in TIEBREAKS for n in names)
                    or len(set(names)) != len(names)
                ):
                    raise refuse(f"Tie-breaks are chosen once each from {', '.join(TIEBREAKS)}.", "bad_options", 400)
                out["tiebreaks"] = names
            out["best_of"] = clean_best_of(options)
            out["match_points"] = clean_match_points(options)
            out["points_from"] = options.get("points_from", "match")
            if out["points_from"] not in POINTS_FROM:
                raise refuse(
                    "Option 'points_from' is 'match' (match points) or 'games' (battle points).", "bad_options", 400
                )
        if self.offers_cut:
            out.update(clean_cut(options, sized=not self.always_cut))
        return out

    def table_sizes(self, options: dict) -> tuple[int, ...]:
        """The seats of the platform matches its pairings are played as, from its cleaned
        options: the match config is checked at each (``services/registration.py``)."""
        return (2,)

    # -- the start and the rounds --------------------------------------------------------

    def minimum_players(self, options: dict) -> int:
        return 2

    def start(self, state: dict, seeds: list[str]) -> dict[str, Any]:
        """What the start fixes besides the field and the seeds (``tournament.started``'s
        ``schedule``, ``groups``)."""
        return {}

    def next_round(self, state: dict, number: int) -> dict[str, Any]:
        """Round ``number``'s ``round.paired`` data, from the projection of everything before."""
        raise NotImplementedError

    def planned_rounds(self, state: dict) -> int | None:
        """How many rounds are played round by round (None: not known, or a bracket)."""
        return None

    def has_cut(self, state: dict) -> bool:
        """Whether this event's rounds feed a second stage."""
        return self.always_cut or bool(state["options"].get("cut"))

    def finished(self, state: dict, *, round_complete: bool, planned: int | None) -> bool:
        if state["bracket"] is not None:
            return brackets.decided(bracket_of(state), bracket_state(state))
        if self.has_cut(state):
            return False  # the stage it feeds decides the event
        return bool(state["rounds"]) and round_complete and planned is not None and len(state["rounds"]) >= planned

    def more_rounds(self, state: dict, planned: int | None) -> bool:
        """Whether the organiser pairs another round once this one is complete."""
        if state["bracket"] is not None:
            return False
        return planned is None or len(state["rounds"]) < planned or self.has_cut(state)

    def pair(self, state: dict) -> list[tuple[str, dict[str, Any]]]:
        """The facts of the next round: this format's round, or, once its rounds are played and
        a cut is set, the stage it feeds (``stage.advanced`` then that bracket's ``round.paired``)."""
        number = len(state["rounds"]) + 1
        planned = self.planned_rounds(state)
        if self.has_cut(state) and planned is not None and number > planned:
            return self.cut(state, number)
        return [("round.paired", self.next_round(state, number))]

    def reports_finish(self, record: dict) -> bool:
        """Whether a pairing reports a finish (places best first) rather than a winner: more
        than two players, or a pod of this format's rounds (even a pod of two); a bracket
        match, a cut's included, always has a winner."""
        return len(record["players"]) > 2 or (self.pods and not record.get("bracket_match"))

    # -- the cut: this stage's best go on to a bracket ----------------------------------------

    def stage_rows(self, state: dict) -> list[dict[str, Any]]:
        """This stage's ranking, best first: the cut takes its qualifiers from it and the final
        places put everyone else in its order after the bracket's."""
        return round_standings(state)

    def qualifiers(self, state: dict) -> list[str]:
        """Who goes through a cut, best first."""
        rows = [r for r in self.stage_rows(state) if r["status"] == PlayerStatus.ACTIVE]
        return [r["player"] for r in rows[: state["options"]["cut"]]]

    def cut_seeds(self, state: dict, qualified: list[str], shape: dict[str, Any]) -> list[str]:
        """The bracket's seeds: the qualifiers in rank order, or by rating (rank breaking ties)."""
        seeds = list(qualified)
        if state["options"].get("cut_seeding") == "rating":
            rank = {p: i for i, p in enumerate(qualified)}
            seeds.sort(key=lambda p: (-(state["players"][p].get("rating") or 0), rank[p]))
        return seeds

    def cut(self, state: dict, number: int) -> list[tuple[str, dict[str, Any]]]:
        options = state["options"]
        qualified = self.qualifiers(state)
        if len(qualified) < 2:
            raise refuse("Too few players are left to play the cut.", "too_few_players")
        kind = options.get("cut_format", CUT_FORMATS[0])
        shape = bracket_shape(kind, len(qualified), options)
        seeds = self.cut_seeds(state, qualified, shape)
        advanced = {
            "stage": 2,
            "from": self.name,
            "format": kind,
            "cut": options.get("cut") or len(qualified),
            "seeding": options.get("cut_seeding", CUT_SEEDING[0]),
            "qualified": qualified,
            "seeds": seeds,
        }
        paired = {"round": number, "bracket": shape, "seeds": seeds}
        return [("stage.advanced", advanced), ("round.paired", paired)]

    def final_places(self, state: dict) -> list[dict[str, Any]]:
        """Once a cut's bracket is decided: its places first, then everyone else in this
        stage's order (players level in this stage share a place)."""
        qualified = set(state["bracket"]["seeds"])
        rows = [{**r, "decided_in": "playoff"} for r in elimination_places(state)]
        rest = [r for r in self.stage_rows(state) if r["player"] not in qualified]
        first = len(rows) + 1
        for i, r in enumerate(rest):
            place = rows[-1]["rank"] if i and r["rank"] == rest[i - 1]["rank"] else first + i
            rows.append({**r, "rank": place, "decided_in": "first stage"})
        return rows

    # -- the tables ------------------------------------------------------------------------

    def tiebreak_names(self, state: dict) -> list[str]:
        return list(state["options"].get("tiebreaks") or self.default_tiebreaks)

    def stage_tables(self, state: dict) -> list[dict[str, Any]]:
        """The tables of this format's own rounds."""
        return [{"title": "Standings", "rows": round_standings(state)}]

    def standings_columns(self, state: dict) -> list[str]:
        return self.tiebreak_names(state)

    def standings(self, state: dict) -> dict[str, Any]:
        """Every table of a started tournament: ``{"columns": [...], "tables": [...]}``; the
        bracket a cut fed comes first once it is paired, and the final places of the whole
        event last once it is decided."""
        tables = self.stage_tables(state)
        if state["bracket"] is not None:
            tables.insert(0, {"title": "Playoff", "rows": elimination_places(state), "playoff": True})
            if brackets.decided(bracket_of(state), bracket_state(state)):
                tables.append({"title": "Final places", "rows": self.final_places(state), "places": True})
        return {"columns": self.standings_columns(state), "tables": tables}


class EliminationFormat(Format):
    """A bracket fixed at the start: its matches become pairings as their players are known
    (``projection._sync_bracket``), so there is no round to pair by hand."""

    draws = "bracket"

    def bracket_shape(self, state: dict) -> dict[str, Any]:
        raise NotImplementedError

    def next_round(self, state: dict, number: int) -> dict[str, Any]:
        return {"round": number, "bracket": self.bracket_shape(state), "seeds": state["seeds"]}

    def standings(self, state: dict) -> dict[str, Any]:
        finished = brackets.decided(bracket_of(state), bracket_state(state))
        return {
            "columns": ["seed"],
            "tables": [{"title": "Final places" if finished else "Places so far", "rows": elimination_places(state)}],
        }
