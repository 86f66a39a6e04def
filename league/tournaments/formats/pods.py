"""Free-for-all pods: three to five players a game (never more than the game seats), placement
points each round, pods re-seated by the standings with as few repeat meetings as can be."""

from __future__ import annotations

from engines import registry as engines

from .. import brackets
from ..errors import refuse
from ..projection import requested_byes
from ..standings import pod_standings
from ..states import PlayerStatus
from .base import CUT_OPTIONS, Format, clean_requested_bye_points, option_int, option_score
from .swiss import default_rounds


def pod_largest(engine) -> int:
    """The largest pod a game allows: five, or fewer when the game seats fewer."""
    return min(5, engine.max_seats)


def pod_shape(state, players: int) -> dict:
    """Pod sizes for ``players``: the preferred size, never more than the game seats.

    Pods are three to five players; a game for at most three (Dueling Wizards) cannot
    split every field into threes, so it falls back to pods as small as the game allows
    (ten players: 3, 3, 2, 2)."""
    engine = engines.get(state["game"])
    largest = pod_largest(engine)
    preferred = min(state["options"].get("pod_size", 4), largest)
    for smallest in (min(3, largest), max(2, engine.min_seats)):
        try:
            brackets.pod_sizes(players, preferred, smallest, largest)
        except ValueError:
            continue
        return {"preferred": preferred, "smallest": smallest, "largest": largest}
    raise refuse(f"{players} players cannot be seated in pods of {engine.title}.", "too_few_players")


class Pods(Format):
    name = "pods"
    label = "Free-for-all pods (up to five players, as many as the game seats)"
    position = 60
    option_keys = ("rounds", "pod_size", "placement_points", "requested_bye_points", *CUT_OPTIONS)
    late_entry = True
    pods = True

    def clean_options(self, options, *, engine, user_pid):
        if engine.max_seats < 3:
            raise refuse(
                f"{engine.title} is a two-player game; pods need a game for three to five.",
                "pods_need_multiplayer_game",
                400,
            )
        # The cut (the best by placement points go on to a two-player bracket) is the base
        # class's; every game seats two or more, so the bracket's matches can be played.
        out = super().clean_options(options, engine=engine, user_pid=user_pid)
        out["rounds"] = option_int(options, "rounds", None, 1, 30, allow_none=True)
        if out.get("cut") and engine.min_seats > 2:
            raise refuse(
                f"{engine.title} needs at least {engine.min_seats} players a game, so a cut to a "
                "two-player bracket cannot be played.",
                "cut_needs_two_player_games",
                400,
            )
        # A pod is one game: it can never seat more players than the game does.
        largest = pod_largest(engine)
        size = options.get("pod_size", min(4, largest))
        if isinstance(size, int) and not isinstance(size, bool) and largest < size <= 5:
            raise refuse(
                f"{engine.title} seats at most {engine.max_seats} players, so a pod holds at most {largest}.",
                "pod_larger_than_game",
                400,
                max_seats=engine.max_seats,
            )
        out["pod_size"] = option_int(options, "pod_size", min(4, largest), 3, largest)
        table = options.get("placement_points", [3, 2, 1, 0, 0])
        if not isinstance(table, list) or not table:
            raise refuse("Placement points are a list, first place first.", "bad_options", 400)
        values = [option_score(v, "placement_points") for v in table]
        if any(a < b for a, b in zip(values, values[1:])):
            raise refuse("Placement points must not rise for a worse place.", "bad_options", 400)
        out["placement_points"] = [str(v) for v in values]
        out["requested_bye_points"] = clean_requested_bye_points(options, high=values[0])
        return out

    def table_sizes(self, options):
        # The preferred pod: a field that does not split into it also has smaller pods, which
        # some games seat differently (Wizard Dodgeball: two or four); a cut's bracket seats two.
        return (options["pod_size"], 2) if options.get("cut") else (options["pod_size"],)

    def minimum_players(self, options):
        return 3

    def next_round(self, state, number):
        ranked = [
            r["player"] for r in pod_standings(state) if state["players"][r["player"]]["status"] == PlayerStatus.ACTIVE
        ]
        ranked += [
            p for p in state["entry_order"] if state["players"][p]["status"] == PlayerStatus.ACTIVE and p not in ranked
        ]
        sitting_out = requested_byes(state, number)  # asked for this round off
        ranked = [p for p in ranked if p not in sitting_out]
        if len(ranked) < 3:
            raise refuse("Fewer than three players are left for a pod.", "too_few_players")
        met = []
        firsts: dict[str, int] = {p: 0 for p in ranked}
        for record in state["pairings"].values():
            players = record["players"]
            met += [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
            if len(players) > 1 and players[0] in firsts:
                firsts[players[0]] += 1
        pods = brackets.seat_pods(ranked, met, **pod_shape(state, len(ranked)))
        # Seat order is play order: the first seat goes to whoever has held it least (then
        # the standings), so it moves round the pod instead of staying with the leader.
        rank = {p: i for i, p in enumerate(ranked)}
        pods = [sorted(pod, key=lambda p: (firsts[p], rank[p])) for pod in pods]
        pairings = [
            {"id": f"r{number}-{board}", "board": board, "players": pod} for board, pod in enumerate(pods, start=1)
        ]
        return {"round": number, "pairings": pairings, "method": "pods", "repeats": brackets.repeat_pairs(pods, met)}

    def planned_rounds(self, state):
        return int(state["options"].get("rounds") or default_rounds(state))

    def stage_rows(self, state):
        return pod_standings(state)

    def stage_tables(self, state):
        return [{"title": "Standings", "rows": pod_standings(state)}]

    def standings_columns(self, state):
        return ["firsts", "average_place"]
