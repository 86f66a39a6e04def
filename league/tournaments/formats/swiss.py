"""Swiss: each round pairs players of equal score who have not met (``..swiss`` pairs)."""

from __future__ import annotations

import math

from ..errors import refuse
from ..standings import swiss_field
from ..states import ENTERED
from ..swiss import SwissOptions, as_fraction, pair_round
from .base import (
    CUT_OPTIONS,
    SCORING_OPTIONS,
    Format,
    clean_requested_bye_points,
    option_bool,
    option_int,
    option_score,
)

SEAT_BALANCE = ("balanced", "strict")


def default_rounds(state) -> int:
    """Enough rounds to find a single winner: log2 of the field, rounded up."""
    entrants = sum(1 for p in state["players"].values() if p["status"] in ENTERED)
    return max(1, math.ceil(math.log2(max(entrants, 2))))


class Swiss(Format):
    name = "swiss"
    label = "Swiss"
    position = 40
    option_keys = (
        "tiebreaks",
        "rounds",
        "bye_score",
        "requested_bye_points",
        "avoid_same_club",
        "forbidden_pairs",
        "seat_balance",
        *CUT_OPTIONS,
        *SCORING_OPTIONS,
    )
    default_tiebreaks = ("buchholz", "median_buchholz", "sonneborn_berger")
    late_entry = True
    trf_export = True
    scores_unplayed_rounds = True

    def clean_options(self, options, *, engine, user_pid):
        out = super().clean_options(options, engine=engine, user_pid=user_pid)
        out["rounds"] = option_int(options, "rounds", None, 1, 30, allow_none=True)
        # The bye's worth is one figure: ``bye_score``, or the ``match_points`` bye (3 when a win is 3).
        points = out["match_points"]
        given_bye = (options.get("match_points") or {}).get("bye")
        bye = option_score(options.get("bye_score", points["bye"]), "bye_score")
        if not 0 <= bye <= option_score(points["win"], "match_points"):
            raise refuse("The bye is worth from 0 to a win's points.", "bad_options", 400)
        if given_bye is not None and "bye_score" in options and bye != option_score(given_bye, "match_points"):
            raise refuse("Give the bye's worth once: 'bye_score' and match_points' bye differ.", "bad_options", 400)
        out["bye_score"] = str(bye)
        # Up to a win's worth, whatever a win is worth here (1, or 3 with 3/1/0).
        out["requested_bye_points"] = clean_requested_bye_points(
            options, high=option_score(points["win"], "match_points")
        )
        out["avoid_same_club"] = option_bool(options, "avoid_same_club", True)
        pairs = options.get("forbidden_pairs", [])
        if not isinstance(pairs, list) or any(not isinstance(p, (list, tuple)) or len(p) != 2 for p in pairs):
            raise refuse("Forbidden pairs are a list of two players each.", "bad_options", 400)
        out["forbidden_pairs"] = [sorted([user_pid(a), user_pid(b)]) for a, b in pairs]
        out["seat_balance"] = options.get("seat_balance", "balanced")
        if out["seat_balance"] not in SEAT_BALANCE:
            raise refuse(
                "Seat balance is 'balanced' (seat wishes weigh against score groups) or 'strict' "
                "(FIDE's colour limits: never three in a row, never more than two apart).",
                "bad_options",
                400,
            )
        return out

    def next_round(self, state, number):
        field = swiss_field(state)
        if len(field) < 2:
            raise refuse("Fewer than two players are left to pair.", "too_few_players")
        options = SwissOptions(
            bye_score=as_fraction(state["options"].get("bye_score", "1")),
            avoid_same_club=state["options"].get("avoid_same_club", True),
            strict_seats=state["options"].get("seat_balance") == "strict",
        )
        paired = pair_round(field, options)
        pairings = []
        for p in paired.pairings:
            players = [p.first] if p.is_bye else [p.first, p.second]
            pairings.append({"id": f"r{number}-{p.board}", "board": p.board, "players": players, "bye": p.is_bye})
        return {
            "round": number,
            "pairings": pairings,
            "method": paired.method,
            "rematches": paired.rematches,
            "forbidden": paired.forbidden,
        }

    def planned_rounds(self, state):
        return int(state["options"].get("rounds") or default_rounds(state))
