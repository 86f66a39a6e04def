"""Groups, then a playoff: a round robin in each group (seeded by snake), then the best of
each group meet in a single-elimination bracket."""

from __future__ import annotations

from .. import brackets
from ..errors import refuse
from ..standings import elimination_places, round_standings
from ..states import PlayerStatus
from .base import CUT_FORMATS, SCORING_OPTIONS, Format, bracket_shape, option_bool, option_int
from .round_robin import schedule, scheduled_round


class GroupsPlayoff(Format):
    name = "groups_playoff"
    label = "Groups, then a playoff"
    position = 50
    option_keys = ("tiebreaks", "groups", "advance", "third_place", "cut_format", *SCORING_OPTIONS)
    default_tiebreaks = ("head_to_head", "sonneborn_berger", "wins")
    draws = "groups"

    def clean_options(self, options, *, engine, user_pid):
        out = super().clean_options(options, engine=engine, user_pid=user_pid)
        out["third_place"] = option_bool(options, "third_place", False)
        out["groups"] = option_int(options, "groups", 2, 2, 64)
        out["advance"] = option_int(options, "advance", 2, 1, 16)
        # The playoff is single elimination unless told otherwise (groups, then double elimination).
        out["cut_format"] = options.get("cut_format", "single_elimination")
        if out["cut_format"] not in CUT_FORMATS:
            raise refuse(f"The playoff is one of {', '.join(CUT_FORMATS)}.", "bad_options", 400)
        return out

    def minimum_players(self, options):
        return max(2 * options["groups"], options["groups"] * options["advance"], 4)

    def start(self, state, seeds):
        count = state["options"]["groups"]
        groups: list[list[str]] = [[] for _ in range(count)]
        for i, pid in enumerate(seeds):  # snake: 1..g, then g..1
            lap, pos = divmod(i, count)
            groups[pos if lap % 2 == 0 else count - 1 - pos].append(pid)
        if min(len(g) for g in groups) < max(2, state["options"]["advance"]):
            raise refuse("Every group needs at least two players and as many as advance from it.", "too_few_players")
        return {"groups": groups, "schedule": schedule(groups)}

    def next_round(self, state, number):
        if number <= len(state["schedule"]):
            return scheduled_round(state, number)
        return self._playoff(state, number)

    def _playoff(self, state, number):
        advance = state["options"]["advance"]
        qualified = []
        for g in range(len(state["groups"])):
            rows = [r for r in round_standings(state, g) if r["status"] == PlayerStatus.ACTIVE]
            qualified.append([r["player"] for r in rows[:advance]])
        if sum(len(q) for q in qualified) < 2:
            raise refuse("Too few players are left to play the playoff.", "too_few_players")
        # Seeds by place, then group order: A1, B1, A2, B2 ... so the standard bracket order
        # sends group winners against the other groups' runners-up.
        seeds = [q[place] for place in range(advance) for q in qualified if place < len(q)]
        shape = bracket_shape(state["options"].get("cut_format", "single_elimination"), len(seeds), state["options"])
        # With three groups (or any count that is not a power of two) the standard order can
        # still pit a group's winner against its own runner-up in the first round: re-seed
        # within each place until no first-round match is between players of one group.
        group_of = {p: g for g, q in enumerate(qualified) for p in q}
        tiers = [sum(1 for q in qualified if place < len(q)) for place in range(advance)]
        tiers = [t for t in tiers if t]
        bracket = brackets.from_shape(shape)
        seeds = brackets.separate_groups(bracket, seeds, group_of, tiers)
        return {"round": number, "bracket": shape, "seeds": seeds}

    def planned_rounds(self, state):
        return len(state["schedule"]) if state["schedule"] else None

    def finished(self, state, *, round_complete, planned):
        # The group rounds end nothing: the playoff's final does.
        return state["bracket"] is not None and super().finished(state, round_complete=round_complete, planned=planned)

    def more_rounds(self, state, planned):
        return state["bracket"] is None

    def standings(self, state):
        tables = []
        if state["bracket"] is not None:
            tables.append({"title": "Playoff", "rows": elimination_places(state), "playoff": True})
        for g in range(len(state["groups"])):
            tables.append({"title": f"Group {chr(65 + g)}", "group": g, "rows": round_standings(state, g)})
        return {"columns": self.tiebreak_names(state), "tables": tables}
