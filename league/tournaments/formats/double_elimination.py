"""Double elimination: a winners' and a losers' bracket; the grand final may be played again
when the losers' bracket champion wins it (``bracket_reset``)."""

from __future__ import annotations

from .base import EliminationFormat, clean_best_of, option_bool


class DoubleElimination(EliminationFormat):
    name = "double_elimination"
    label = "Double elimination"
    position = 20
    option_keys = ("bracket_reset", "best_of")

    def clean_options(self, options, *, engine, user_pid):
        return {"bracket_reset": option_bool(options, "bracket_reset", True), "best_of": clean_best_of(options)}

    def bracket_shape(self, state):
        return {
            "format": self.name,
            "entrants": len(state["seeds"]),
            "bracket_reset": state["options"].get("bracket_reset", True),
        }
