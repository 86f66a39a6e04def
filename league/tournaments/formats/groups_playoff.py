"""Groups, then a playoff: a round robin in each group (seeded by snake), then the best of
each group meet in a single- or double-elimination bracket (the base class's cut, recorded as
``stage.advanced`` like a Swiss's)."""

from __future__ import annotations

from .. import brackets
from ..errors import refuse
from ..standings import round_standings
from ..states import PlayerStatus
from .base import SCORING_OPTIONS, Format, option_bool, option_int
from .round_robin import schedule, scheduled_round


class GroupsPlayoff(Format):
    """The playoff is the base class's cut, always played: ``advance`` from each group go on
    (``stage.advanced`` records them), to ``cut_format``, seeded by ``cut_seeding``."""

    name = "groups_playoff"
    label = "Groups, then a playoff"
    position = 50
    option_keys = ("tiebreaks", "groups", "advance", "third_place", "cut_format", "cut_seeding", *SCORING_OPTIONS)
    default_tiebreaks = ("head_to_head", "sonneborn_berger", "wins")
    draws = "groups"
    always_cut = True

    def clean_options(self, options, *, engine, user_pid):
        # The tie-breaks and the playoff's bracket and seeding (single elimination unless told
        # otherwise: groups, then double elimination) are the base class's.
        out = super().clean_options(options, engine=engine, user_pid=user_pid)
        out["third_place"] = option_bool(options, "third_place", False)
        out["groups"] = option_int(options, "groups", 2, 2, 64)
        out["advance"] = option_int(options, "advance", 2, 1, 16)
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
        return scheduled_round(state, number)

    def planned_rounds(self, state):
        return len(state["schedule"]) if state["schedule"] else None

    def _group_rows(self, state) -> list[list[dict]]:
        return [round_standings(state, g) for g in range(len(state["groups"]))]

    def stage_rows(self, state):
        # Across the groups: every group's winner, then every runner-up, ... (group order
        # within a place); players on the same place of their groups are level.
        rows = [{**r, "group": g} for g, table in enumerate(self._group_rows(state)) for r in table]
        return sorted(rows, key=lambda r: (r["rank"], r["group"]))

    def qualifiers(self, state):
        # Seeds by place, then group order: A1, B1, A2, B2 ... so the standard bracket order
        # sends group winners against the other groups' runners-up.
        advance = state["options"]["advance"]
        qualified = [self._advancing(table, advance) for table in self._group_rows(state)]
        return [q[place] for place in range(advance) for q in qualified if place < len(q)]

    @staticmethod
    def _advancing(table, advance) -> list[str]:
        return [r["player"] for r in table if r["status"] == PlayerStatus.ACTIVE][:advance]

    def cut_seeds(self, state, qualified, shape):
        seeds = super().cut_seeds(state, qualified, shape)
        advance = state["options"]["advance"]
        per_group = [self._advancing(table, advance) for table in self._group_rows(state)]
        group_of = {p: g for g, q in enumerate(per_group) for p in q}
        if state["options"].get("cut_seeding") == "rating":
            tiers = [len(seeds)]  # by rating: any order that keeps groups apart in round 1
        else:
            # With three groups (or any count that is not a power of two) the standard order
            # can still pit a group's winner against its own runner-up in the first round:
            # re-seed within each place until no first-round match is between one group's players.
            tiers = [sum(1 for q in per_group if place < len(q)) for place in range(advance)]
            tiers = [t for t in tiers if t]
        return brackets.separate_groups(brackets.from_shape(shape), seeds, group_of, tiers)

    def stage_tables(self, state):
        return [
            {"title": f"Group {chr(65 + g)}", "group": g, "rows": rows}
            for g, rows in enumerate(self._group_rows(state))
        ]
