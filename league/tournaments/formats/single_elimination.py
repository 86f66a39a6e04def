"""Single elimination: lose once and you are out; an optional match for third place."""

from __future__ import annotations

from .base import EliminationFormat, clean_best_of, option_bool


class SingleElimination(EliminationFormat):
    name = "single_elimination"
    label = "Single elimination"
    position = 10
    option_keys = ("third_place", "best_of")

    def clean_options(self, options, *, engine, user_pid):
        return {"third_place": option_bool(options, "third_place", False), "best_of": clean_best_of(options)}

    def bracket_shape(self, state):
        return {
            "format": self.name,
            "entrants": len(state["seeds"]),
            "third_place": state["options"].get("third_place", False),
        }
