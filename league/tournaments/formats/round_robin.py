"""Round robin: everyone meets everyone (twice with ``double``), on a schedule fixed at the start."""

from __future__ import annotations

from .. import brackets
from ..states import PlayerStatus
from .base import CUT_OPTIONS, SCORING_OPTIONS, Format, option_bool


def schedule(groups: list[list[str]], double: bool = False) -> list[list[dict]]:
    """Round robin fixtures for every group, merged round by round."""
    per_group = [brackets.round_robin(g, double=double) for g in groups]
    rounds = max(len(s) for s in per_group)
    out = []
    for r in range(rounds):
        fixtures = []
        for g, sched in enumerate(per_group):
            if r < len(sched):
                fixtures += [
                    {"group": g if len(groups) > 1 else None, "players": [f.home, f.away]} for f in sched[r].fixtures
                ]
        out.append(fixtures)
    return out


def drop_result(players: list[str], dropped: list[str]) -> dict:
    if len(dropped) == len(players):
        return {"double_forfeit": True}
    return {"winner": next(p for p in players if p not in dropped), "forfeit": True}


def scheduled_round(state: dict, number: int) -> dict:
    """Round ``number`` of the schedule; a game of a player who has dropped is forfeited."""
    pairings = []
    for board, fixture in enumerate(state["schedule"][number - 1], start=1):
        entry = {"id": f"r{number}-{board}", "board": board, "players": fixture["players"], "group": fixture["group"]}
        dropped = [p for p in fixture["players"] if state["players"][p]["status"] == PlayerStatus.DROPPED]
        if dropped:
            entry["auto"] = drop_result(fixture["players"], dropped)
        pairings.append(entry)
    return {"round": number, "pairings": pairings, "method": "schedule"}


class RoundRobin(Format):
    name = "round_robin"
    label = "Round robin"
    position = 30
    option_keys = ("tiebreaks", "double", *CUT_OPTIONS, *SCORING_OPTIONS)
    default_tiebreaks = ("head_to_head", "sonneborn_berger", "wins")
    cross_table = True

    def clean_options(self, options, *, engine, user_pid):
        out = super().clean_options(options, engine=engine, user_pid=user_pid)
        out["double"] = option_bool(options, "double", False)
        return out

    def start(self, state, seeds):
        return {"schedule": schedule([seeds], double=state["options"].get("double", False))}

    def next_round(self, state, number):
        return scheduled_round(state, number)

    def planned_rounds(self, state):
        return len(state["schedule"]) if state["schedule"] else None
