"""Wizard Dodgeball (IWDL rule version 1.06) as a platform engine.

Config (every key optional; ``{}`` gives the rulebook's worked-example line-ups)::

    {
      "court": "iwdl-standard",
      "teams": [                       # teams[0] plays rows 1-9, teams[1] rows 9-17
        {"wizards": [21, 58, 41, 25, 36],          # five jersey numbers, activation order (left to right)
         "spells": ["teleport", "freeze", ...],    # spell card ids; cost <= the team's MAGIC sum
         "start": [[5, 2], [3, 2], ...] | null},   # optional starting squares (starting area), in line-up order
        {...}
      ],
      "first_player": null | 0 | 1,    # team that activates first ("player 1"); null: d6 roll-off (chance)
      "sides": [[0], [1]],             # seats playing each team; 4 seats: e.g. [[0, 2], [1, 3]]
      "controllers": null | [[seat x5], [seat x5]],   # team variant: which seat runs each wizard
      "team_control": "wizards" | "turns",            # team variant: fixed wizards, or seats alternate turns
      "turn_limit": 2000 | null        # version 2: turns after which a game ends unfinished (RULES.md)
    }

Two engine versions share this class (RULES.md, "Version history"):

* version "2" (current): the book's only ending is the last side with wizards on the court. A
  bound on turns (``turn_limit``, for bot games) ends a game as *unfinished*: no winner, every
  placement 1, ``"unfinished": true`` in the result, counted nowhere by the platform.
* version "1" (replay only): the old stalling ruling (``stall_turns`` quiet turns end the game,
  the side with more wizards wins, level numbers draw), kept exactly as it was recorded.

Spell card ids: teleport, fireball, freeze, shield, dispel (1 point each); slow_speed, strong_weak,
shrink_enlarge, butter_sticky, drain_boost (2 points each).

Actions (``{"kind": "action", "seat": s, "action": ...}``), all by the active wizard unless noted::

    {"type": "move", "to": [col, row]}                     one action; optional "pick_up": ball id on the way
    {"type": "pick_up", "ball": id}                        free
    {"type": "drop", "to": [col, row]}                     free
    {"type": "throw", "target": jersey}                    one action
    {"type": "pass", "to": jersey}                         one action
    {"type": "cast", "spell": face, "targets": [{"wizard": j} | {"ball": id} | {"effect": id}, ...]}
    {"type": "end_turn"}
    choices after a roll (the seat controlling the wizard concerned, or the caster's seat):
    {"type": "dodge_to", "to": [col, row]}                 a dodging wizard steps aside
    {"type": "place_ball", "to": [col, row]}               where a dropped / knocked-loose ball goes
    {"type": "return_wizard", "wizard": jersey, "to": [col, row]}   after a catch
    {"type": "teleport_to", "to": [col, row]}              one per teleported target, in target order

Chance (``{"kind": "chance", "outcome": [ints]}``): every roll is its own step. A throw is two
steps, the ATTACK roll and then the DODGE roll (no attack roll for a fireball, no dodge roll
against a frozen target). A cast is one CAST step (only if some target resists), then one
RESIST step per resisting target, and one more for the caster per rebound. The roll-off is one
step with two grey dice, first team then second; a tie is rolled again.
"""

from __future__ import annotations

from typing import Any

from engines.base import CHANCE, Engine, IllegalAction, InvalidConfig, quoted
from engines.chance import check_outcome
from engines.treecopy import copy_tree

from . import bots, data, dice, fast, rules, spells
from .fast import FAST_PATHS
from .geometry import court as court_by_id
from .state import (
    Budgets,
    State,
    attack_colours,
    ball_square,
    controller,
    copy_state,
    court_of,
    dodge_colours,
    effect_faces,
    has_effect,
    index,
    occupancy,
    stats,
    wizard,
    wizard_squares,
)

DEFAULT_TEAMS = [
    {
        "wizards": [21, 58, 41, 25, 36],
        "spells": [
            "teleport",
            "fireball",
            "freeze",
            "shield",
            "dispel",
            "slow_speed",
            "strong_weak",
            "shrink_enlarge",
            "drain_boost",
        ],
    },
    {
        "wizards": [45, 30, 47, 10, 12],
        "spells": ["teleport", "fireball", "freeze", "shield", "dispel", "slow_speed", "strong_weak", "butter_sticky"],
    },
]

CHOICE_STEPS = {
    "dodge_move": "dodge_to",
    "place_ball": "place_ball",
    "return": "return_wizard",
    "teleport": "teleport_to",
}
CHANCE_STEPS = {"rolloff", "attack", "dodge", "cast_roll", "resist"}
#: The fields each action type holds (``check_sent_action``): what the rules read of it.
ACTION_FIELDS = {
    "end_turn": {"type"},
    "move": {"type", "to", "pick_up"},
    "pick_up": {"type", "ball"},
    "drop": {"type", "to"},
    "throw": {"type", "target"},
    "pass": {"type", "to"},
    "cast": {"type", "spell", "targets"},
    "dodge_to": {"type", "to"},
    "place_ball": {"type", "to"},
    "return_wizard": {"type", "wizard", "to"},
    "teleport_to": {"type", "to"},
}
ROLLOFF_DICE = ("grey", "grey")


def _sent_square(square: list[int]) -> str:
    """A [column, row] someone sent, as a refusal names it (its numbers may be any size)."""
    return f"[{quoted(square[0])}, {quoted(square[1])}]" if max(map(abs, square)) < 10**6 else "That square"


def _team_name(side: int) -> str:
    return "first team" if side == 0 else "second team"


#: Version 1 only (RULES.md "Version history"): quiet turns that ended a game.
STALL_TURNS = 60

#: Version 2, RULES.md "Unfinished games": the default bound on turns. Bots reach it, people do not:
#: heuristic bots finish in about 30-40 turns and random bots in about 1,000-2,800.
TURN_LIMIT = 2000

#: Every version this class can play; the newest is what new matches use.
VERSIONS = ("1", "2")
LATEST = "2"


class WizardDodgeballEngine(Engine):
    """``WizardDodgeballEngine()`` plays the current rules; ``WizardDodgeballEngine(version="1")``
    replays matches recorded before version 2 exactly as they were played."""

    bots = ("heuristic", "random")
    rating = "glicko2"  # always two sides
    name = "wizard-dodgeball"
    title = "Wizard Dodgeball"
    howto = "howto.md"  # the How to play page (engines/base.py)
    min_seats = 2
    max_seats = 4
    #: RULES.md "Unfinished games": what the platform sets when every seat is a person.
    #: Clocks end stalling between people; the bound on turns is for bot games only.
    people_config = {"turn_limit": None}

    def __init__(self, version: str = LATEST):
        if version not in VERSIONS:
            raise ValueError(f"Wizard Dodgeball has no engine version {version!r}.")
        self.version = version
        # Version 1 stays registered only so that matches recorded with it replay and verify.
        self.current = version == LATEST

    # -- configuration -------------------------------------------------------
    def default_config(self, seats: int) -> dict[str, Any]:
        sides = [[0], [1]] if seats != 4 else [[0, 2], [1, 3]]
        return {
            "court": "iwdl-standard",
            "teams": [dict(t, start=None) for t in DEFAULT_TEAMS],
            "first_player": None,
            "sides": sides,
            "controllers": None,
            "team_control": "wizards",
            # Version 1: turns in a row without a throw, pass or cast that ended the game.
            **(
                {"stall_turns": STALL_TURNS}
                if self.version == "1"
                # RULES.md "Unfinished games": a bound for bot games; people play with null.
                else {"turn_limit": TURN_LIMIT}
            ),
        }

    def validate_config(self, config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        if seats not in (2, 4):
            raise InvalidConfig("Wizard Dodgeball is played by 2 players, or 4 in two teams.", code="bad_seat_count")
        if config is not None and not isinstance(config, dict):
            raise InvalidConfig("The configuration must be an object.", code="bad_config")
        merged = super().validate_config(config, seats)
        # Each value is looked up in a table (a dict, a set) or sorted: a list or an object from the
        # JSON would raise TypeError there (a 500), and true/false would pass as the seat 1/0.
        if not isinstance(merged["court"], str) or merged["court"] not in data.courts():
            raise InvalidConfig(
                f"Unknown court {quoted(merged['court'], otherwise='with that name')}; known: {sorted(data.courts())}.",
                code="unknown_court",
            )
        c = court_by_id(merged["court"])
        teams = merged["teams"]
        if not (isinstance(teams, list) and len(teams) == 2 and all(isinstance(t, dict) for t in teams)):
            raise InvalidConfig("'teams' must list exactly two teams.", code="bad_teams")
        roster = data.roster()
        seen: set[int] = set()
        norm_teams = []
        for side, team in enumerate(teams):
            unknown = set(team) - {"wizards", "spells", "start"}
            if unknown:
                raise InvalidConfig(
                    f"A team's options are 'wizards', 'spells' and 'start', not {quoted(min(unknown))}.",
                    code="unknown_option",
                )
            wizards = team.get("wizards")
            if not isinstance(wizards, list) or len(wizards) != data.TEAM_SIZE:
                raise InvalidConfig(f"Each team fields exactly {data.TEAM_SIZE} wizards.", code="wrong_team_size")
            for j in wizards:
                if type(j) is not int or j not in roster:
                    said = quoted(j, otherwise="")
                    raise InvalidConfig(
                        f"There is no wizard with jersey {said} in the IWDL roster."
                        if said
                        else "There is no wizard with that jersey in the IWDL roster.",
                        code="unknown_wizard",
                    )
                if j in seen:
                    raise InvalidConfig(f"Wizard #{j} {roster[j]['name']} is named twice.", code="duplicate_wizard")
                seen.add(j)
            spell_list = team.get("spells", [])
            if not isinstance(spell_list, list):
                raise InvalidConfig("A team's 'spells' must be a list of spell card ids.", code="bad_spells")
            cards = data.spell_cards()
            for s in spell_list:
                if not isinstance(s, str) or s not in cards:
                    raise InvalidConfig(
                        f"Unknown spell card {quoted(s, otherwise='with that name')}; cards are {data.SPELL_ORDER}.",
                        code="unknown_spell",
                    )
            if len(set(spell_list)) != len(spell_list):
                raise InvalidConfig("A team has each spell card at most once.", code="duplicate_spell")
            budget = sum(roster[j]["magic"] for j in wizards)
            cost = sum(cards[s]["cost"] for s in spell_list)
            if cost > budget:
                raise InvalidConfig(
                    f"The {_team_name(side)}'s spell list costs {cost} points but its wizards' MAGIC adds up "
                    f"to only {budget}.",
                    code="spell_budget_exceeded",
                )
            start = team.get("start")
            if start is not None:
                if not isinstance(start, list) or len(start) != data.TEAM_SIZE:
                    raise InvalidConfig("'start' lists one square per wizard.", code="bad_start")
                used = set()
                for s in start:
                    if not (isinstance(s, list) and len(s) == 2 and all(type(v) is int for v in s)):
                        raise InvalidConfig("Starting squares are [column, row].", code="bad_start")
                    if not c.in_starting_area(side, (s[0], s[1])) or tuple(s) in used:
                        raise InvalidConfig(
                            f"{_sent_square(s)} is not a free square of the {_team_name(side)}'s starting area.",
                            code="bad_start",
                        )
                    used.add(tuple(s))
            norm_teams.append(
                {
                    "wizards": list(wizards),
                    "spells": [s for s in data.SPELL_ORDER if s in spell_list],
                    "start": [list(s) for s in start] if start is not None else None,
                }
            )
        merged["teams"] = norm_teams
        if merged["first_player"] is not None and (
            type(merged["first_player"]) is not int or merged["first_player"] not in (0, 1)
        ):
            raise InvalidConfig("'first_player' is 0, 1 or null (roll-off).", code="bad_first_player")
        sides = merged["sides"]
        flat = (
            [s for group in sides for s in group]
            if isinstance(sides, list) and all(isinstance(g, list) for g in sides)
            else None
        )
        if (
            flat is None
            or any(type(s) is not int for s in flat)
            or len(sides) != 2
            or sorted(flat) != list(range(seats))
            or any(not g for g in sides)
            or (seats == 4 and any(len(g) != 2 for g in sides))
        ):
            raise InvalidConfig(
                "'sides' must split the seat numbers between the two teams (2 players: [[0], [1]]; 4 players: two each).",
                code="bad_sides",
            )
        if merged["team_control"] not in ("wizards", "turns"):
            raise InvalidConfig("'team_control' is 'wizards' or 'turns'.", code="bad_team_control")
        controllers = merged["controllers"]
        if controllers is None:
            controllers = [[group[k % len(group)] for k in range(data.TEAM_SIZE)] for group in sides]
        else:
            ok = (
                isinstance(controllers, list)
                and len(controllers) == 2
                and all(
                    isinstance(g, list)
                    and len(g) == data.TEAM_SIZE
                    and all(type(s) is int and s in sides[i] for s in g)
                    for i, g in enumerate(controllers)
                )
            )
            if not ok:
                raise InvalidConfig(
                    "'controllers' gives, for each team, the seat running each of its five wizards "
                    "(a seat of that team).",
                    code="bad_controllers",
                )
            if merged["team_control"] == "wizards" and any(set(g) != set(sides[i]) for i, g in enumerate(controllers)):
                raise InvalidConfig("Every player of a team must control at least one wizard.", code="bad_controllers")
        merged["controllers"] = [list(g) for g in controllers]
        merged["sides"] = [list(g) for g in sides]
        if self.version == "1":
            stall = merged["stall_turns"]
            if type(stall) is not int or not (stall == 0 or 10 <= stall <= 1000):
                raise InvalidConfig(
                    "'stall_turns' is 0 (no limit) or a whole number of turns from 10 to 1000.", code="bad_stall_turns"
                )
        else:
            limit = merged["turn_limit"]
            if limit is not None and (type(limit) is not int or not 10 <= limit <= 100_000):
                raise InvalidConfig(
                    "'turn_limit' is null (no limit) or a whole number of turns from 10 to 100000.",
                    code="bad_turn_limit",
                )
        return merged

    # -- setup -------------------------------------------------------------------
    def setup(self, config: dict[str, Any], seats: int) -> State:
        config = self.validate_config(config, seats)
        c = court_by_id(config["court"])
        wizards = []
        for side, team in enumerate(config["teams"]):
            start = team["start"] or [list(s) for s in c.default_start[side]]
            for slot, j in enumerate(team["wizards"]):
                wizards.append(
                    {"j": j, "side": side, "slot": slot, "sq": list(start[slot]), "out": False, "ball": None}
                )
        balls = [{"id": i + 1, "sq": [s[0], s[1]], "holder": None, "active": False} for i, s in enumerate(c.stars)]
        cards = [
            {cid: {"charged": True, "caster": None, "turn": None} for cid in team["spells"]} for team in config["teams"]
        ]
        state: State = {
            "court": config["court"],
            "seats": seats,
            "sides": config["sides"],
            "controllers": config["controllers"],
            "team_control": config["team_control"],
            # The version's ending rule; rules.py reads which key the state carries.
            **(
                {"stall_turns": config["stall_turns"], "quiet_turns": 0}
                if self.version == "1"
                else {"turn_limit": config["turn_limit"]}
            ),
            "budgets": [sum(stats(j)["magic"] for j in t["wizards"]) for t in config["teams"]],
            "wizards": wizards,
            "balls": balls,
            "cards": cards,
            "effects": [],
            "next_effect": 1,
            "first": config["first_player"],
            "turn": None,
            "next_slot": [0, 0],
            "turns_taken": [0, 0],
            "last_seat": [None, None],
            "queue": [],
            "cast": None,
            "rolls": [],
            "winner": None,
            "reason": None,
        }
        if config["first_player"] is None:
            state["queue"] = [{"step": "rolloff"}]
        else:
            rules.begin_turn(state, config["first_player"])
        return state

    # -- queries -------------------------------------------------------------------
    def to_move(self, state: State) -> list[int]:
        if state["winner"] is not None:
            return []
        if state["queue"]:
            step = state["queue"][0]
            if step["step"] in CHANCE_STEPS:
                return [CHANCE]
            return [self._choice_seat(state, step)]
        return [state["turn"]["seat"]]

    def _choice_seat(self, state: State, step: dict) -> int:
        kind = step["step"]
        if kind in ("dodge_move", "place_ball"):
            return controller(state, step["wizard"])
        if kind == "return":
            return controller(state, step["catcher"])
        if kind == "teleport":
            return controller(state, state["cast"]["caster"])
        raise AssertionError(kind)

    def chance(self, state: State) -> dict[str, Any] | None:
        if state["winner"] is not None or not state["queue"]:
            return None
        step = state["queue"][0]
        kind = step["step"]
        if kind == "rolloff":
            return dice.spec(["grey", "grey"], "Roll-off for player 1: first team's d6, second team's d6")
        if kind == "attack":
            return rules.attack_spec(state, step)
        if kind == "dodge":
            return rules.dodge_spec(state, step)
        if kind == "cast_roll":
            return spells.cast_spec(state)
        if kind == "resist":
            return spells.resist_spec(state, step)
        return None

    def _chance_colours(self, state: State) -> list[str] | tuple[str, ...] | None:
        """The dice of the pending roll, as ``chance`` gives them in its spec; None when it gives None."""
        if state["winner"] is not None or not state["queue"]:
            return None
        step = state["queue"][0]
        kind = step["step"]
        if kind == "rolloff":
            return ROLLOFF_DICE
        if kind == "attack":
            return attack_colours(state, step["attacker"], step["zones"])
        if kind == "dodge":
            return dodge_colours(state, step["target"])[0]
        if kind == "cast_roll":
            return stats(state["cast"]["caster"])["cast"]
        if kind == "resist":
            return stats(spells.resist_roller(state, step))["resist"]
        return None

    # -- apply -------------------------------------------------------------------------
    def apply(self, state: State, event: dict[str, Any]) -> State:
        return self._apply(state, event, False)

    @staticmethod
    def owned_copy(state: State) -> State:
        # A fold's state carries its index on the budgets (state.Budgets), a list subclass that
        # marshal (copy_tree) refuses; the copy is a plain state, and its own fold indexes it anew.
        # Callers copy other parts of a fold with it too (the analysis, a chance spec).
        if type(state) is dict and type(state.get("budgets")) is Budgets:
            state = {**state, "budgets": list(state["budgets"])}
        return copy_tree(state)

    def apply_in_place(self, state: State, event: dict[str, Any]) -> State:
        # The fold's first event gives its state the index (state.Budgets); later events keep it.
        ix = state["budgets"]
        if type(ix) is not Budgets:
            index(state)
            ix = state["budgets"]
        # The turn's own seat acting with no choice or roll pending (_apply_action's first test):
        # the commonest actions go straight to their fast paths (fast.py; issue 17, P1), as do
        # the commonest rolls.
        if type(event) is dict:
            kind = event.get("kind")
            if kind == "action":
                if not state["queue"] and state["winner"] is None:
                    seat = event.get("seat")
                    turn = state["turn"]
                    if seat == turn["seat"] and type(seat) is int:
                        # The action's type looked up without testing what the action is first: an
                        # action missing, not an object, without a type or with an unhashable one
                        # raises here, and goes to the general path, which refuses it.
                        try:
                            action = event["action"]
                            path = FAST_PATHS.get(action["type"])
                        except (KeyError, TypeError):
                            path = None
                        if path is not None and path(state, ix, turn, action):
                            return state
                elif state["winner"] is None and state["queue"][0]["step"] == "teleport":
                    if fast.teleport_to(state, event.get("seat"), event.get("action")):
                        return state
            elif kind == "chance" and state["queue"] and state["winner"] is None:
                if fast.chance(state, ix, event.get("outcome")):
                    return state
        return self._apply(state, event, True)

    def _apply(self, state: State, event: dict[str, Any], owned: bool) -> State:
        # An owned state is written in place, yet needs no copy of the event: what the rules keep
        # of one is numbers and new containers (a square becomes a new [column, row], a cast's
        # targets new dicts, a roll's dice new records), never a list or dict of the event.
        if not isinstance(event, dict):
            raise IllegalAction("An event is an object.", code="bad_event")
        kind = event.get("kind")
        if kind == "action":
            return self._apply_action(state, event.get("seat"), event.get("action"), owned)
        if kind == "chance":
            return self._apply_chance(state, event.get("outcome"), owned)
        raise IllegalAction("An event is either a chance outcome or a seat's action.", code="bad_event")

    def _apply_chance(self, state: State, outcome: Any, owned: bool) -> State:
        colours = self._chance_colours(state)
        if colours is None:
            raise IllegalAction("No dice are due now.", code="no_chance_pending")
        # The outcome checked against the dice alone; only a refusal builds the spec, with its label,
        # for check_outcome's message (issue 17, P1).
        ok = type(outcome) is list and len(outcome) == len(colours)
        if ok:
            for colour, value in zip(colours, outcome):
                lo, hi = dice.COLOURS[colour]
                if type(value) is not int or not lo <= value <= hi:
                    ok = False
                    break
        if not ok:
            check_outcome(self.chance(state), outcome)
        # The checks above read ``state`` before the first write: owned, ``new`` is ``state``.
        new = state if owned else copy_state(state)
        step = new["queue"].pop(0)
        kind = step["step"]
        if kind == "rolloff":
            a, b = outcome
            new["rolls"] = [
                {
                    "who": None,
                    "kind": "rolloff",
                    "label": "Roll-off",
                    "dice": [{"colour": "grey", "value": a}, {"colour": "grey", "value": b}],
                    "total": max(a, b),
                    "fixed": False,
                }
            ]
            if a == b:
                new["queue"].insert(0, {"step": "rolloff"})
            else:
                new["first"] = 0 if a > b else 1
                rules.begin_turn(new, new["first"])
        elif kind == "attack":
            rules.resolve_attack_roll(new, step, outcome)
        elif kind == "dodge":
            rules.resolve_dodge_roll(new, step, outcome)
        elif kind == "cast_roll":
            spells.resolve_cast_roll(new, outcome)
        elif kind == "resist":
            spells.resolve_resist(new, step, outcome)
        self._run_auto_steps(new)
        rules.settle(new)
        return new

    def _run_auto_steps(self, state: State) -> None:
        while state["winner"] is None and state["queue"] and state["queue"][0]["step"] == "cast_apply":
            state["queue"].pop(0)
            spells.apply_cast(state)

    def _apply_action(self, state: State, seat: Any, action: Any, owned: bool) -> State:
        # The turn's own seat acting with no choice pending passes every check below: its seat is
        # one of the game's, and it is to move. That case is recognised first (issue 17, P1).
        if not (
            type(action) is dict
            and type(atype := action.get("type")) is str
            and not state["queue"]
            and state["winner"] is None
            and seat == state["turn"]["seat"]
            and type(seat) is int
        ):
            if type(seat) is not int or not 0 <= seat < state["seats"]:
                raise IllegalAction("Unknown seat.", code="bad_seat")
            if not isinstance(action, dict) or not isinstance(atype := action.get("type"), str):
                raise IllegalAction("An action is an object with a 'type'.", code="bad_action")
            if state["winner"] is not None:
                raise IllegalAction("The game is over.", code="game_over")
            # to_move without its list: one seat is to move, the choice's or the turn's.
            if state["queue"]:
                kind = state["queue"][0]["step"]
                if kind in CHANCE_STEPS:
                    raise IllegalAction("Dice must be rolled first.", code="chance_pending")
                if seat != self._choice_seat(state, state["queue"][0]):
                    raise IllegalAction("It is not this seat's turn to act.", code="not_your_turn")
            elif seat != state["turn"]["seat"]:
                raise IllegalAction("It is not this seat's turn to act.", code="not_your_turn")
        new = state if owned else copy_state(state)
        goes_on = frozen = None
        if new["queue"]:
            step = new["queue"][0]
            expected = CHOICE_STEPS[step["step"]]
            if atype != expected:
                raise IllegalAction(f"A choice is pending: expected a '{expected}' action.", code="choice_pending")
            new["queue"].pop(0)
            if expected == "dodge_to":
                rules.choose_dodge_square(new, step, action)
            elif expected == "place_ball":
                rules.choose_ball_square(new, step, action)
            elif expected == "return_wizard":
                rules.choose_return(new, step, action)
            elif expected == "teleport_to":
                spells.choose_teleport(new, step, action)
                spells.finish_teleports(new)
        else:
            if atype == "end_turn":
                frozen = rules.end_turn(new)
            elif atype == "move":
                rules.do_move(new, action)
                frozen = False  # do_move refuses a frozen wizard, and a move writes no effect
            elif atype == "pick_up":
                goes_on = rules.do_pick_up(new, action)
            elif atype == "drop":
                goes_on = rules.do_drop(new, action)
            elif atype == "throw":
                rules.do_throw(new, action)
            elif atype == "pass":
                rules.do_pass(new, action)
            elif atype == "cast":
                spells.do_cast(new, rules.require_turn_wizard(new), action)
            elif atype in CHOICE_STEPS.values():
                raise IllegalAction("There is no choice pending.", code="no_choice_pending")
            else:
                raise IllegalAction(
                    f"Unknown action type {quoted(atype, otherwise='of that name')}.", code="unknown_action"
                )
            if "quiet_turns" in new and atype in ("throw", "pass", "cast"):
                new["quiet_turns"] = 0  # version 1: the ball or the magic moved: play is alive
        queue = new["queue"]
        if queue and queue[0]["step"] == "cast_apply":
            self._run_auto_steps(new)
        # A pick-up or a drop tells settle whether the wizard's turn goes on; a move or an ended
        # turn whether the wizard it leaves to move is frozen (issue 17, P1).
        rules.settle(new, goes_on, frozen)
        return new

    # -- legal actions -------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_move(state):
            return []
        if state["queue"]:
            return self._choice_actions(state, state["queue"][0])
        return self._turn_actions(state)

    def _choice_actions(self, state: State, step: dict) -> list[dict]:
        kind = step["step"]
        if kind == "dodge_move":
            t = wizard(state, step["wizard"])
            c = court_of(state)
            origin = (step["from"][0], step["from"][1])
            return [
                {"type": "dodge_to", "to": [s[0], s[1]]}
                for s in rules.empty_neighbours(state, origin)
                if c.in_half(t["side"], s)
            ]
        if kind == "place_ball":
            around = (step["around"][0], step["around"][1])
            return [{"type": "place_ball", "to": [s[0], s[1]]} for s in rules.placement_squares(state, around)]
        if kind == "return":
            out, squares = rules.return_options(state, step["side"])
            return [{"type": "return_wizard", "wizard": j, "to": [s[0], s[1]]} for j in out for s in squares]
        if kind == "teleport":
            return [{"type": "teleport_to", "to": [s[0], s[1]]} for s in spells.teleport_options(state, step)]
        return []

    def _turn_actions(self, state: State, include_casts: bool = True) -> list[dict]:
        w = wizard(state, state["turn"]["wizard"])
        j = w["j"]
        here = (w["sq"][0], w["sq"][1])
        c = court_of(state)
        occ = occupancy(state)
        faces = effect_faces(state, j)
        frozen = "freeze" in faces
        actions: list[dict] = []
        # free actions
        if w["ball"] is None:
            if "butter_fingers" not in faces:
                for n in c.neighbours(here):
                    o = occ.get(n)
                    if o is not None and o[0] == "b":
                        actions.append({"type": "pick_up", "ball": o[1]})
        elif "sticky_fingers" not in faces:
            for n in c.neighbours(here):
                if n not in occ:
                    actions.append({"type": "drop", "to": [n[0], n[1]]})
        if state["turn"]["actions"] > 0 and not frozen:
            blocked = set(occ)
            base = rules.reachable(state, j, blocked)
            for s in sorted(base, key=lambda s: (s[1], s[0])):
                actions.append({"type": "move", "to": [s[0], s[1]]})
            if w["ball"] is None and "butter_fingers" not in faces:
                allowance = rules.move_allowance(state, j)
                for b in state["balls"]:
                    if b["sq"] is None or max(abs(b["sq"][0] - here[0]), abs(b["sq"][1] - here[1])) > allowance + 1:
                        continue
                    dests = rules.reachable_with_pickup(state, j, b["id"], blocked, base)
                    for s in sorted(dests, key=lambda s: (s[1], s[0])):
                        actions.append({"type": "move", "to": [s[0], s[1]], "pick_up": b["id"]})
            squares = wizard_squares(state)
            if w["ball"] is not None and "sticky_fingers" not in faces:
                b = next(b for b in state["balls"] if b["id"] == w["ball"])
                for o in state["wizards"]:
                    if o["out"] or o["j"] == j:
                        continue
                    osq = (o["sq"][0], o["sq"][1])
                    if not rules.has_line_of_sight(state, here, osq, squares):
                        continue
                    if o["side"] != w["side"]:
                        if b["active"]:
                            actions.append({"type": "throw", "target": o["j"]})
                    elif o["ball"] is None and not has_effect(state, o["j"], "butter_fingers"):
                        actions.append({"type": "pass", "to": o["j"]})
            if include_casts:
                actions.extend(spells.enumerate_casts(state, w))
        actions.append({"type": "end_turn"})
        return actions

    def validate(self, state: State, seat: int, action: dict[str, Any]) -> None:
        self._apply_action(state, seat, action, owned=False)

    def check_sent_action(self, action: Any) -> None:
        # The rules read only these fields of each action and ignore any other, which would then
        # be stored in the match's public record for good (RULES.md "Fields of an action").
        if not isinstance(action, dict):
            return  # apply refuses it with its own code
        atype = action.get("type")
        fields = ACTION_FIELDS.get(atype) if isinstance(atype, str) else None
        if fields is None:
            return  # an unknown type: apply refuses it with its own code
        unknown = [key for key in action if key not in fields]
        if unknown:
            raise IllegalAction(
                f"A '{atype}' action has no field {quoted(unknown[0], otherwise='of that name')}: it holds "
                f"{', '.join(sorted(fields))}.",
                code="unknown_field",
            )
        if "pick_up" in action and action["pick_up"] is None:
            raise IllegalAction("A move that picks nothing up leaves 'pick_up' out.", code="bad_action")

    # -- result, view, log -------------------------------------------------------------
    def result(self, state: State) -> dict[str, Any] | None:
        if state["winner"] is None:
            return None
        winner = state["winner"]
        left = [sum(1 for w in state["wizards"] if w["side"] == s and not w["out"]) for s in (0, 1)]
        side_of = {seat: s for s, group in enumerate(state["sides"]) for seat in group}
        seats = range(state["seats"])
        if winner == rules.UNFINISHED:
            # RULES.md "Unfinished games": not a win, not a draw; the platform counts it nowhere.
            return {
                "placements": [1 for _ in seats],
                "scores": [left[side_of[s]] for s in seats],
                "winners": [],
                "reason": "unfinished",
                "unfinished": True,
                "detail": state["reason"],
            }
        if winner == rules.DRAW:  # version 1 only
            return {
                "placements": [1 for _ in seats],
                "scores": [left[side_of[s]] for s in seats],
                "winners": list(seats),
                "reason": state["reason"],
            }
        return {
            "placements": [1 if side_of[s] == winner else 2 for s in seats],
            "scores": [left[side_of[s]] for s in seats],
            "winners": sorted(state["sides"][winner]),
            "reason": state["reason"],
        }

    def result_on_time(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """RULES.md "Unfinished games": a seat that runs out of time loses on time, and its whole
        side with it (both players of a team share its placement); the wizards left are shown."""
        side_of = {s: i for i, group in enumerate(state["sides"]) for s in group}
        lost = side_of[seat]
        left = [sum(1 for w in state["wizards"] if w["side"] == i and not w["out"]) for i in (0, 1)]
        return {
            "placements": [2 if side_of[s] == lost else 1 for s in range(seats)],
            "scores": [left[side_of[s]] for s in range(seats)],
            "winners": sorted(state["sides"][1 - lost]),
            "reason": "timeout",
            "timed_out": seat,
        }

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        c = court_of(state)
        faces = data.spell_faces()
        wizards = []
        for w in state["wizards"]:
            st = stats(w["j"])
            wizards.append(
                {
                    "jersey": w["j"],
                    "name": st["name"],
                    "team": w["side"],
                    "slot": w["slot"],
                    "square": list(w["sq"]) if w["sq"] is not None else None,
                    "eliminated": w["out"],
                    "ball": w["ball"],
                    "effects": sorted(effect_faces(state, w["j"])),
                    "controller": controller(state, w["j"]),
                    "stats": {
                        "move": st["move"],
                        "magic": st["magic"],
                        "attack": st["attack"],
                        "dodge": st["dodge"],
                        "cast": st["cast"],
                        "resist": st["resist"],
                    },
                }
            )
        balls = []
        for b in state["balls"]:
            where = ball_square(state, b)
            balls.append(
                {
                    "id": b["id"],
                    "square": list(b["sq"]) if b["sq"] is not None else None,
                    "held_by": b["holder"],
                    "active": b["active"],
                    "in_flight": where is None,
                    "on_fire": any(e["ball"] == b["id"] and e["face"] == "fireball" for e in state["effects"]),
                }
            )
        cards = []
        for side in (0, 1):
            team_cards = []
            for cid in data.SPELL_ORDER:
                card = state["cards"][side].get(cid)
                if card is None:
                    continue
                spec = data.spell_cards()[cid]
                team_cards.append(
                    {
                        "id": cid,
                        "name": spec["name"],
                        "cost": spec["cost"],
                        "faces": [f["id"] for f in spec["faces"]],
                        "charged": card["charged"],
                        "cast_by": card["caster"],
                        "cast_on_turn": card["turn"],
                    }
                )
            cards.append(team_cards)
        effects = [
            {
                "id": e["id"],
                "spell": e["face"],
                "name": faces[e["face"]]["name"],
                "team": e["side"],
                "cast_by": e["caster"],
                "wizard": e["wizard"],
                "ball": e["ball"],
            }
            for e in state["effects"]
        ]
        turn = state["turn"]
        pending = None
        if state["queue"]:
            step = state["queue"][0]
            pending = {
                "kind": step["step"],
                "seat": None if step["step"] in CHANCE_STEPS else self._choice_seat(state, step),
            }
            if step["step"] in CHANCE_STEPS:
                pending["dice"] = self.chance(state)
            else:
                pending["action"] = CHOICE_STEPS[step["step"]]
        return {
            "court": {
                "id": c.id,
                "name": c.name,
                "width": c.width,
                "length": c.length,
                "neutral_rows": sorted(c.neutral_rows),
                "zones": [dict(z) for z in c.spec["zones"]],
                "attack_lines": [dict(a) for a in c.spec["attack_lines"]],
                "stars": [list(s) for s in c.stars],
                "starting_rows": [list(r) for r in c.starting_rows],
            },
            "seat": seat,
            "sides": state["sides"],
            "wizards": wizards,
            "balls": balls,
            "spell_cards": cards,
            "spell_budgets": list(state["budgets"]),
            "effects": effects,
            "first_player": state["first"],
            "turn": None
            if turn is None
            else {
                "number": turn["n"],
                "team": turn["side"],
                "wizard": turn["wizard"],
                "actions_left": turn["actions"],
                "seat": turn["seat"],
            },
            "to_move": self.to_move(state),
            "pending": pending,
            "last_rolls": [dict(r) for r in state["rolls"]],
            "legal_actions": self.legal_actions(state, seat) if seat is not None else [],
            "result": self.result(state),
        }

    def bot_action(self, bot: str, state: State, seat: int, rng) -> dict[str, Any]:
        if bot == "heuristic":
            # bots.py: exact throw odds, freeze then throw.
            return bots.heuristic_action(self, state, seat, rng)
        return super().bot_action(bot, state, seat, rng)

    def describe(self, before: State, event: dict[str, Any], after: State) -> str:
        from .describe import describe as _describe

        return _describe(self, before, event, after)
