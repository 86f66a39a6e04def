"""IWDL Draft: building Wizard Dodgeball teams, played on the platform like a match.

A draft is a stream of events replayed through this engine, exactly like a match: the deck
shuffle is a chance event, every pick is an action. When every coach is ready the draft is
over and ``match_config`` turns it into a Wizard Dodgeball match configuration.

Config (every key optional)::

    {
      "format": "basic" | "schoolyard" | "tournament",  # default: tournament for 4 seats, else schoolyard
      "order": "snake" | "straight",     # tournament only (default snake); null for the others
      "team_size": 5 | 6,                # basic/schoolyard: 5; tournament: 6 (five and an alternate) or 5
      "seat_order": [seats],             # pick order; [player 1, player 2] for two seats (default [0, 1, ...])
      "pool_size": 10,                   # schoolyard/tournament: face-up pool size (1-24); null for basic
      "auto_pick": "highest_magic"       # the clock's choice: highest MAGIC in the pool, ties by lowest jersey
    }

basic and schoolyard need exactly 2 seats, tournament exactly 4 (a seat is a coach or a team of coaches).

Chance: the first event is ``{"kind": "chance", "outcome": perm}`` for the shuffle spec
``{"kind": "shuffle", "size": 24, "label": "Shuffle the wizard stat cards"}``. The unshuffled deck is
the roster's jerseys in ascending order; ``outcome[i]`` is the index (into that order) of the card at
position ``i`` from the top.

Actions (``{"kind": "action", "seat": s, "action": ...}``); any action may also carry
``"auto": true`` (the platform marks what the clock did; it is recorded in the pick history)::

    {"type": "take_first_pick"} / {"type": "pass_first_pick"}   schoolyard, player 2, before the first pick
    {"type": "pick", "wizard": jersey}                           the seat on the clock, a wizard in the pool
    {"type": "lineup", "wizards": [5 jerseys]}                   team building: activation order, left to right
    {"type": "spells", "spells": [spell card ids]}               team building: the team spell list
    {"type": "ready"}                                            team building: lock line-up and spells

State (plain JSON)::

    format, order, team_size, seat_order, pool_size, auto_pick, seats   the validated config
    phase        "deal" -> ("choose_first" ->) "picking" -> "building" -> "over" (basic skips the picks)
    deck         the face-down cards, top first (never shown while live)
    pool         the face-up pool in draw order (a refill is appended at the end)
    teams        per seat, its wizards in pick (or deal) order
    pick_order   the seat making each pick, pick 1 first (schoolyard: fixed by the first-pick choice)
    picks        history: {"pick": n, "seat", "wizard", "auto", "refill": jersey drawn into the pool or null}
    first_pick   schoolyard: {"seat": player 2, "choice": "take" | "pass", "auto"}; otherwise null
    lineups, spells   per seat, the current submission or null (hidden from others while live)
    ready        per seat

See RULES.md beside this file for every ruling behind the code.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..base import CHANCE, Action, Engine, IllegalAction, InvalidConfig, State, event_kind, quoted
from ..chance import check_outcome
from ..wizard_dodgeball import data as wd_data

BASIC, SCHOOLYARD, TOURNAMENT = "basic", "schoolyard", "tournament"
FORMATS = (BASIC, SCHOOLYARD, TOURNAMENT)
SNAKE, STRAIGHT = "snake", "straight"
HIGHEST_MAGIC = "highest_magic"
AUTO_PICKS = (HIGHEST_MAGIC,)

DEAL, CHOOSE_FIRST, PICKING, BUILDING, OVER = "deal", "choose_first", "picking", "building", "over"

#: Wizards on court for a team (Wizard Dodgeball plays five a side).
LINEUP_SIZE = wd_data.TEAM_SIZE
DEFAULT_POOL_SIZE = 10
SEATS_FOR = {BASIC: 2, SCHOOLYARD: 2, TOURNAMENT: 4}

_ACTION_KEYS = {
    "take_first_pick": set(),
    "pass_first_pick": set(),
    "pick": {"wizard"},
    "lineup": {"wizards"},
    "spells": {"spells"},
    "ready": set(),
}
_FIRST_PICK_TYPES = ("take_first_pick", "pass_first_pick")
_OPTIONAL_KEYS = {"auto"}
#: Per action type: the keys it must have, and every key it may have (built once, not per event).
_REQUIRED_KEYS = {kind: frozenset(keys | {"type"}) for kind, keys in _ACTION_KEYS.items()}
_ALLOWED_KEYS = {kind: frozenset(keys | {"type"} | _OPTIONAL_KEYS) for kind, keys in _ACTION_KEYS.items()}


# -- data helpers ----------------------------------------------------------------------------


def roster() -> dict[int, dict[str, Any]]:
    return wd_data.roster()


def deck_order() -> list[int]:
    """The unshuffled deck: every jersey of the roster, ascending."""
    return sorted(roster())


@cache
def _magic_of() -> dict[int, int]:
    # The roster is read once (wd_data.roster is cached), so its MAGIC column is too: a budget
    # is summed on most team-building events (issue 17, P1).
    return {jersey: w["magic"] for jersey, w in roster().items()}


@cache
def _cost_of() -> dict[str, int]:
    return {card_id: card["cost"] for card_id, card in wd_data.spell_cards().items()}


@cache
def _spell_rank() -> dict[str, int]:
    return {card_id: i for i, card_id in enumerate(spell_order())}


def magic(jersey: int) -> int:
    return _magic_of()[jersey]


def magic_sum(jerseys: list[int]) -> int:
    return sum(map(_magic_of().__getitem__, jerseys))


def wizard_label(jersey: int) -> str:
    return f"#{jersey} {roster()[jersey]['name']}"


def _sent_jersey(jersey: Any, otherwise: str) -> str:
    """A jersey someone sent, as a refusal names it: "#99" (also for the string "99"), a short
    string quoted, anything else ``otherwise``."""
    said = quoted(jersey, otherwise=otherwise)
    if (type(jersey) is int or isinstance(jersey, str) and jersey.isascii() and jersey.isdigit()) and said != otherwise:
        return f"#{jersey}"
    return said


def wizard_card(jersey: int) -> dict[str, Any]:
    w = roster()[jersey]
    return {
        "jersey": jersey,
        "name": w["name"],
        "magic": w["magic"],
        "move": w["move"],
        # The stat card's dice, so a coach drafts from what the card shows.
        **{stat: list(w[stat]) for stat in ("attack", "dodge", "cast", "resist")},
    }


def spell_cost(spells: list[str]) -> int:
    # The Wizard Dodgeball engine has no standalone budget function (its check lives inside
    # validate_config), so the cost is read from its spell data: the printed card cost.
    return sum(map(_cost_of().__getitem__, spells))


def spell_name(card_id: str) -> str:
    card = wd_data.spell_cards()[card_id]
    return card.get("name") or card_id


def canonical_spells(spells: list[str]) -> list[str]:
    """The spells in the card set's order, each once (every id a card of the set)."""
    return sorted(set(spells), key=_spell_rank().__getitem__)


def spell_order() -> list[str]:
    """Spell card ids in the card set's order (singles first, then paired spells)."""
    cards = wd_data.spell_cards()
    known = [s for s in wd_data.SPELL_ORDER if s in cards]
    return known + [s for s in cards if s not in known]


def default_spells(budget: int) -> list[str]:
    """The clock's spell list: walk the card set in order and buy each card that still fits."""
    cards = wd_data.spell_cards()
    bought, left = [], budget
    for s in spell_order():
        if cards[s]["cost"] <= left:
            bought.append(s)
            left -= cards[s]["cost"]
    return bought


def best_budget(team: list[int]) -> int:
    """The largest MAGIC any line-up of five from ``team`` can have."""
    return sum(sorted((magic(j) for j in team), reverse=True)[:LINEUP_SIZE])


def pick_sequence(
    fmt: str, order: str | None, seat_order: list[int], team_size: int, first: int | None = None
) -> list[int]:
    """The seat making each pick, pick 1 first."""
    if fmt == SCHOOLYARD:
        other = seat_order[1] if first == seat_order[0] else seat_order[0]
        return [first, other] * team_size
    sequence: list[int] = []
    for rnd in range(team_size):
        seats = list(seat_order)
        if order == SNAKE and rnd % 2 == 1:
            seats.reverse()
        sequence.extend(seats)
    return sequence


def _seat_word(state: State, seat: int) -> str:
    if state["format"] != TOURNAMENT:
        player = state["seat_order"].index(seat) + 1
        return f"seat {seat} (player {player})"
    return f"seat {seat}"


def _list_words(items: list[str]) -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


# -- the engine --------------------------------------------------------------------------------


def _next_state(state: State) -> State:
    """A copy of ``state`` for ``apply`` to change: the lists an event changes in place (the deck,
    each team, the picks, the per-seat slots) are copied; everything inside them (jerseys, pick
    records, line-ups, spell lists) is only ever replaced, so it is shared, not deep-copied."""
    new = dict(state)
    for key in ("deck", "pool", "picks", "lineups", "spells", "ready", "pick_order", "seat_order"):
        new[key] = list(state[key])
    new["teams"] = [list(team) for team in state["teams"]]
    return new


class IwdlDraftEngine(Engine):
    bots = ("auto", "random")
    name = "iwdl-draft"
    title = "IWDL Draft"
    version = "1"
    min_seats = 2
    max_seats = 4
    playable = False  # started from leagues, tournaments and the draft pages, not the match form
    draft = True
    page_script = "js/games/iwdl-draft.js"

    # -- configuration -------------------------------------------------------------------
    def default_config(self, seats: int) -> dict[str, Any]:
        fmt = TOURNAMENT if seats == 4 else SCHOOLYARD
        return self._defaults(fmt, seats)

    @staticmethod
    def _defaults(fmt: str, seats: int) -> dict[str, Any]:
        return {
            "format": fmt,
            "order": SNAKE if fmt == TOURNAMENT else None,
            "team_size": 6 if fmt == TOURNAMENT else LINEUP_SIZE,
            "seat_order": list(range(seats)),
            "pool_size": None if fmt == BASIC else DEFAULT_POOL_SIZE,
            "auto_pick": HIGHEST_MAGIC,
        }

    def validate_config(self, config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        if type(seats) is not int:
            raise InvalidConfig("The number of seats must be a whole number.", code="bad_seat_count")
        if config is None:
            config = {}
        if not isinstance(config, dict):
            raise InvalidConfig("The draft options must be a JSON object.", code="bad_config")
        if not (self.min_seats <= seats <= self.max_seats):
            raise InvalidConfig(
                f"An IWDL draft has 2 coaches (basic or schoolyard) or 4 (tournament), not {seats}.",
                code="bad_seat_count",
            )
        fmt = config.get("format", self.default_config(seats)["format"])
        if not isinstance(fmt, str) or fmt not in FORMATS:
            raise InvalidConfig(
                f"The draft 'format' is 'basic', 'schoolyard' or 'tournament', not {quoted(fmt)}.", code="bad_format"
            )
        if seats != SEATS_FOR[fmt]:
            raise InvalidConfig(
                f"A {fmt} draft needs exactly {SEATS_FOR[fmt]} coaches; this one has {seats}.",
                code="bad_seat_count",
            )
        merged = self._defaults(fmt, seats)
        for key in config:
            if key not in merged:
                raise InvalidConfig(
                    f"Unknown draft option {quoted(key, otherwise='with that name')}; the options are {', '.join(merged)}.",
                    code="unknown_option",
                )
        for key, value in config.items():
            merged[key] = value

        order = merged["order"]
        if fmt == TOURNAMENT:
            if order not in (SNAKE, STRAIGHT):
                raise InvalidConfig(
                    f"The tournament 'order' is 'snake' or 'straight', not {quoted(order)}.", code="bad_order"
                )
        elif order is not None:
            raise InvalidConfig(
                f"'order' applies only to tournament drafts; a {fmt} draft alternates its picks.",
                code="option_not_for_format",
            )

        size = merged["team_size"]
        allowed = (LINEUP_SIZE, LINEUP_SIZE + 1) if fmt == TOURNAMENT else (LINEUP_SIZE,)
        if type(size) is not int or size not in allowed:
            words = " or ".join(str(a) for a in allowed)
            raise InvalidConfig(f"A {fmt} team has {words} wizards, not {quoted(size)}.", code="bad_team_size")

        seat_order = merged["seat_order"]
        if (
            not isinstance(seat_order, list)
            or any(type(s) is not int for s in seat_order)
            or sorted(seat_order) != list(range(seats))
        ):
            raise InvalidConfig(
                f"'seat_order' must list each seat 0 to {seats - 1} exactly once, in pick order.",
                code="bad_seat_order",
            )

        pool = merged["pool_size"]
        deck_size = len(roster())
        if fmt == BASIC:
            if pool is not None:
                raise InvalidConfig(
                    "'pool_size' applies only to schoolyard and tournament drafts; a basic draft deals the teams.",
                    code="option_not_for_format",
                )
        elif type(pool) is not int or not 1 <= pool <= deck_size:
            raise InvalidConfig(
                f"'pool_size' is a whole number from 1 to {deck_size}, not {quoted(pool)}.", code="bad_pool_size"
            )

        if merged["auto_pick"] not in AUTO_PICKS:
            raise InvalidConfig(
                f"'auto_pick' is 'highest_magic', not {quoted(merged['auto_pick'])}.", code="bad_auto_pick"
            )
        if seats * size > deck_size:  # cannot happen with the allowed sizes; kept as a guard
            raise InvalidConfig("There are not enough wizards for these teams.", code="bad_team_size")
        merged["seat_order"] = list(seat_order)
        return merged

    # -- setup and queries -----------------------------------------------------------------
    def setup(self, config: dict[str, Any], seats: int) -> State:
        config = self.validate_config(config, seats)
        fmt = config["format"]
        return {
            "format": fmt,
            "order": config["order"],
            "team_size": config["team_size"],
            "seat_order": config["seat_order"],
            "pool_size": config["pool_size"],
            "auto_pick": config["auto_pick"],
            "seats": seats,
            "phase": DEAL,
            "deck": [],
            "pool": [],
            "teams": [[] for _ in range(seats)],
            "pick_order": (
                pick_sequence(fmt, config["order"], config["seat_order"], config["team_size"])
                if fmt == TOURNAMENT
                else []
            ),
            "picks": [],
            "first_pick": None,
            "lineups": [None] * seats,
            "spells": [None] * seats,
            "ready": [False] * seats,
        }

    def chance(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != DEAL:
            return None
        return {"kind": "shuffle", "size": len(roster()), "label": "Shuffle the wizard stat cards"}

    def player_two(self, state: State) -> int | None:
        return state["seat_order"][1] if state["format"] == SCHOOLYARD else None

    def on_the_clock(self, state: State) -> int | None:
        """The seat that must pick (or, in the schoolyard, choose take/pass) now, else None."""
        if state["phase"] == CHOOSE_FIRST:
            return self.player_two(state)
        if state["phase"] == PICKING:
            return state["pick_order"][len(state["picks"])]
        return None

    def to_move(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == DEAL:
            return [CHANCE]
        if phase in (CHOOSE_FIRST, PICKING):
            return [self.on_the_clock(state)]
        if phase == BUILDING:
            return [s for s in range(state["seats"]) if not state["ready"][s]]
        return []

    def budget(self, state: State, seat: int) -> int | None:
        """The team's spell points now: its line-up's MAGIC (a five-wizard team's MAGIC before a
        line-up is set); None for a six-wizard team that has not chosen its five yet."""
        lineup = state["lineups"][seat]
        if lineup is not None:
            return magic_sum(lineup)
        team = state["teams"][seat]
        if len(team) == LINEUP_SIZE:
            return magic_sum(team)
        return None

    def default_lineup(self, state: State, seat: int) -> list[int]:
        return list(state["teams"][seat][:LINEUP_SIZE])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if type(seat) is not int or seat not in self.to_move(state):
            return []
        phase = state["phase"]
        if phase == CHOOSE_FIRST:
            return [{"type": "take_first_pick"}, {"type": "pass_first_pick"}]
        if phase == PICKING:
            return [{"type": "pick", "wizard": j} for j in state["pool"]]
        # Team building: a finite, representative set; validate() accepts any valid submission.
        team = state["teams"][seat]
        actions: list[Action] = []
        if len(team) == LINEUP_SIZE:
            actions.append({"type": "lineup", "wizards": list(team)})
        else:
            for bench in team:
                actions.append({"type": "lineup", "wizards": [j for j in team if j != bench]})
        budget = self.budget(state, seat)
        if budget is None:
            budget = magic_sum(self.default_lineup(state, seat))
        for spells in (default_spells(budget), []):
            action = {"type": "spells", "spells": spells}
            if action not in actions:
                actions.append(action)
        if self._ready_problem(state, seat) is None:
            actions.append({"type": "ready"})
        return actions

    def bot_action(self, bot: str, state: State, seat: int, rng) -> Action:
        if bot == "auto":  # drafts exactly as the pick clock would
            action = self.auto_action(state, seat)
            if action is None:
                raise IllegalAction("This seat has nothing to do.", code="no_legal_action")
            return action
        return super().bot_action(bot, state, seat, rng)

    def auto_action(self, state: State, seat: int) -> Action | None:
        """What the clock does for ``seat`` now (None if the seat has nothing to do).

        At a pick: the highest-MAGIC wizard in the pool, ties to the lowest jersey. At the
        schoolyard choice: take the first pick. In team building: the first five picked as the
        line-up, then the default spell list for that line-up's MAGIC, then ready.
        """
        if type(seat) is not int or seat not in self.to_move(state):
            return None
        phase = state["phase"]
        if phase == CHOOSE_FIRST:
            return {"type": "take_first_pick", "auto": True}
        if phase == PICKING:
            best = min(state["pool"], key=lambda j: (-magic(j), j))
            return {"type": "pick", "wizard": best, "auto": True}
        lineup = state["lineups"][seat]
        if lineup is None:
            return {"type": "lineup", "wizards": self.default_lineup(state, seat), "auto": True}
        spells = state["spells"][seat]
        if spells is None or spell_cost(spells) > magic_sum(lineup):
            return {"type": "spells", "spells": default_spells(magic_sum(lineup)), "auto": True}
        return {"type": "ready", "auto": True}

    # -- validation ----------------------------------------------------------------------------
    def validate(self, state: State, seat: int, action: Action) -> None:
        """Raise IllegalAction (with a stable code) unless ``seat`` may take ``action`` now."""
        n = state["seats"]
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        phase = state["phase"]
        if phase == OVER:
            raise IllegalAction("The draft is over; the teams are set.", code="game_over")
        if phase == DEAL:
            raise IllegalAction("The wizard deck has not been shuffled yet.", code="chance_pending")
        kind = _check_action_shape(action)

        if kind in _FIRST_PICK_TYPES:
            verb = "take" if kind == "take_first_pick" else "pass"
            if phase != CHOOSE_FIRST:
                if state["format"] != SCHOOLYARD:
                    why = f"a {state['format']} draft has no choice of the first pick"
                elif phase == PICKING:
                    why = "the first pick has already been settled"
                else:
                    why = "the picks are over"
                raise IllegalAction(
                    f"Player 2 may {verb} the first pick only before it is made; {why}.",
                    code="pass_only_at_first_pick",
                )
            p2 = self.player_two(state)
            if seat != p2:
                raise IllegalAction(
                    f"Only player 2 (seat {p2}) may take or pass the first pick; seat {seat} is player 1.",
                    code="only_player_two_may_pass",
                )
            return

        if kind == "pick":
            if phase == CHOOSE_FIRST:
                p2 = self.player_two(state)
                if seat == p2:
                    raise IllegalAction(
                        "First decide whether to take the first pick or pass it to player 1.",
                        code="first_pick_undecided",
                    )
                raise IllegalAction(
                    f"Player 2 (seat {p2}) first decides whether to take the first pick or pass it.",
                    code="not_your_pick",
                )
            if phase != PICKING:
                raise IllegalAction(
                    "There are no picks now: the teams are drafted and the coaches are building them.",
                    code="bad_action",
                )
            clock = self.on_the_clock(state)
            if seat != clock:
                number = len(state["picks"]) + 1
                raise IllegalAction(
                    f"Pick {number} of {len(state['pick_order'])} belongs to seat {clock}, not seat {seat}.",
                    code="not_your_pick",
                )
            self._check_pick(state, action["wizard"])
            return

        # lineup, spells, ready
        if phase != BUILDING:
            raise IllegalAction(
                "Line-ups, spells and ready come after the picks; the draft is still picking.",
                code="bad_action",
            )
        if state["ready"][seat]:
            raise IllegalAction(
                f"Seat {seat} is already ready; its line-up and spells are locked.", code="already_ready"
            )
        if kind == "lineup":
            self._check_lineup(state, seat, action["wizards"])
        elif kind == "spells":
            self._check_spells(state, seat, action["spells"])
        else:
            problem = self._ready_problem(state, seat)
            if problem is not None:
                raise problem

    def _check_pick(self, state: State, jersey: Any) -> None:
        if type(jersey) is not int or jersey not in roster():
            raise IllegalAction(
                f"There is no wizard {_sent_jersey(jersey, 'by that number')} in the IWDL roster.",
                code="wizard_not_in_pool",
            )
        if jersey in state["pool"]:
            return
        for s, team in enumerate(state["teams"]):
            if jersey in team:
                raise IllegalAction(
                    f"{wizard_label(jersey)} has already been drafted by seat {s}.", code="wizard_taken"
                )
        raise IllegalAction(
            f"{wizard_label(jersey)} is not in the pool; only the face-up wizards in the pool can be picked.",
            code="wizard_not_in_pool",
        )

    def _check_lineup(self, state: State, seat: int, wizards: list[Any]) -> None:
        team = state["teams"][seat]
        if len(wizards) != LINEUP_SIZE:
            extra = " (the sixth wizard is the alternate)" if len(team) > LINEUP_SIZE else ""
            raise IllegalAction(
                f"A line-up names exactly {LINEUP_SIZE} wizards{extra}; this one names {len(wizards)}.",
                code="bad_lineup",
            )
        seen: list[int] = []
        for j in wizards:
            if type(j) is not int or j not in team:
                who = wizard_label(j) if type(j) is int and j in roster() else _sent_jersey(j, "That wizard")
                raise IllegalAction(f"{who} is not on seat {seat}'s team.", code="bad_lineup")
            if j in seen:
                raise IllegalAction(f"{wizard_label(j)} is named twice in the line-up.", code="bad_lineup")
            seen.append(j)

    def _check_spells(self, state: State, seat: int, spells: list[Any]) -> None:
        cards = _cost_of()
        for s in spells:
            if not isinstance(s, str) or s not in cards:
                raise IllegalAction(
                    f"There is no spell card {quoted(s, otherwise='of that name')}; the cards are {', '.join(spell_order())}.",
                    code="unknown_spell",
                )
        if len(set(spells)) != len(spells):
            seen: list[str] = []
            for s in spells:
                if s in seen:
                    raise IllegalAction(
                        f"{spell_name(s)} is listed twice; each spell card is bought once (its three markers "
                        "come with it).",
                        code="duplicate_spell",
                    )
                seen.append(s)
        cost = spell_cost(spells)
        budget = self.budget(state, seat)
        if budget is not None:
            if cost > budget:
                whose = "your line-up's" if state["lineups"][seat] is not None else "your team's"
                raise IllegalAction(
                    f"These spells cost {cost} points; {whose} MAGIC is {budget}.", code="spell_budget_exceeded"
                )
            return
        best = best_budget(state["teams"][seat])
        if cost > best:
            raise IllegalAction(
                f"These spells cost {cost} points; even your best five wizards have only {best} MAGIC.",
                code="spell_budget_exceeded",
            )

    def _ready_problem(self, state: State, seat: int) -> IllegalAction | None:
        lineup, spells = state["lineups"][seat], state["spells"][seat]
        if lineup is None:
            return IllegalAction(
                f"Set your line-up (the {LINEUP_SIZE} wizards in activation order) before declaring ready.",
                code="lineup_missing",
            )
        if spells is None:
            return IllegalAction(
                "Choose your spell list (an empty list is allowed) before declaring ready.", code="spells_missing"
            )
        cost, budget = spell_cost(spells), magic_sum(lineup)
        if cost > budget:
            return IllegalAction(
                f"These spells cost {cost} points; your line-up's MAGIC is {budget}. Change the spells or the line-up.",
                code="spell_budget_exceeded",
            )
        return None

    # -- transitions -----------------------------------------------------------------------------
    def apply(self, state: State, event: dict[str, Any]) -> State:
        kind = event_kind(event)
        if state["phase"] == OVER:
            raise IllegalAction("The draft is over; nothing more can happen.", code="game_over")
        if kind == "chance":
            spec = self.chance(state)
            if spec is None:
                raise IllegalAction("No shuffle is due now.", code="no_chance_due")
            check_outcome(spec, event["outcome"])
            return self._deal(state, event["outcome"])

        seat, action = event["seat"], event["action"]
        self.validate(state, seat, action)
        # Only what the event changes is copied (issue 17, P1): a new top-level dict sharing every
        # list the event leaves alone. Nothing changes a state's lists in place after apply returns
        # (resample_hidden works on a clone), so sharing them between states is safe.
        new = dict(state)
        auto = bool(action.get("auto", False))
        kind = action["type"]
        if kind in _FIRST_PICK_TYPES:
            take = kind == "take_first_pick"
            p1, p2 = state["seat_order"][0], state["seat_order"][1]
            new["first_pick"] = {"seat": p2, "choice": "take" if take else "pass", "auto": auto}
            new["pick_order"] = pick_sequence(
                SCHOOLYARD, None, state["seat_order"], state["team_size"], p2 if take else p1
            )
            new["phase"] = PICKING
        elif kind == "pick":
            jersey = action["wizard"]
            deck = state["deck"]
            refill = deck[0] if deck else None
            new["deck"] = deck[1:]
            # Every jersey is in the deck once, so the pool holds the picked one once.
            pool = list(state["pool"])
            pool.remove(jersey)
            if refill is not None:
                pool.append(refill)
            new["pool"] = pool
            teams = list(state["teams"])
            teams[seat] = teams[seat] + [jersey]
            new["teams"] = teams
            new["picks"] = state["picks"] + [
                {"pick": len(state["picks"]) + 1, "seat": seat, "wizard": jersey, "auto": auto, "refill": refill}
            ]
            if len(new["picks"]) == len(state["pick_order"]):
                new["phase"] = BUILDING
        elif kind == "lineup":
            lineups = list(state["lineups"])
            lineups[seat] = list(action["wizards"])
            new["lineups"] = lineups
        elif kind == "spells":
            spells = list(state["spells"])
            spells[seat] = canonical_spells(action["spells"])
            new["spells"] = spells
        else:
            ready = list(state["ready"])
            ready[seat] = True
            new["ready"] = ready
            if all(ready):
                new["phase"] = OVER
        return new

    def _deal(self, state: State, outcome: list[int]) -> State:
        order = deck_order()
        deck = [order[i] for i in outcome]
        new = _next_state(state)
        fmt = state["format"]
        if fmt == BASIC:
            # Basic Draft: deal one card at a time, alternately, starting with player 1.
            seat_order, n = state["seat_order"], state["seats"]
            dealt = state["team_size"] * n
            for k in range(dealt):
                new["teams"][seat_order[k % n]].append(deck[k])
            new["deck"] = deck[dealt:]
            new["phase"] = BUILDING
            return new
        size = state["pool_size"]
        new["pool"] = deck[:size]
        new["deck"] = deck[size:]
        new["phase"] = CHOOSE_FIRST if fmt == SCHOOLYARD else PICKING
        return new

    # -- the end -----------------------------------------------------------------------------------
    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != OVER:
            return None
        n = state["seats"]
        teams = []
        for s in range(n):
            lineup = state["lineups"][s]
            bench = [j for j in state["teams"][s] if j not in lineup]
            teams.append(
                {
                    "seat": s,
                    "wizards": list(lineup),
                    "alternate": bench[0] if bench else None,
                    "spells": list(state["spells"][s]),
                    "magic": magic_sum(lineup),
                }
            )
        return {
            "placements": [1] * n,
            "scores": [t["magic"] for t in teams],
            "winners": [],
            "teams": teams,
            "reason": "draft_complete",
        }

    def match_config(
        self, state: State, seats: tuple[int, int] | list[int] | None = None, first_player: Any = "auto"
    ) -> dict[str, Any]:
        """The Wizard Dodgeball config for two drafted teams (see the module-level function)."""
        return match_config(state, seats=seats, first_player=first_player)

    # -- what people see ------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state["seats"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        phase = state["phase"]
        over = phase == OVER
        teams = []
        for s in range(n):
            shown = over or s == seat
            lineup, spells = state["lineups"][s], state["spells"][s]
            team = state["teams"][s]
            budget = self.budget(state, s)
            if not shown and lineup is not None and len(team) > LINEUP_SIZE:
                budget = None  # a six-wizard team's budget would reveal its hidden alternate
            teams.append(
                {
                    "seat": s,
                    "picks": [wizard_card(j) for j in team],
                    "magic_total": magic_sum(team),
                    "budget": budget,
                    "lineup_set": lineup is not None,
                    "spells_set": spells is not None,
                    "lineup": list(lineup) if shown and lineup is not None else None,
                    "spells": list(spells) if shown and spells is not None else None,
                    "spell_cost": spell_cost(spells) if shown and spells is not None else None,
                    "ready": state["ready"][s],
                }
            )
        picks_total = len(state["pick_order"]) if state["format"] != BASIC else 0
        clock = self.on_the_clock(state)
        mine = None
        if seat is not None:
            mine = {
                "seat": seat,
                "team": list(state["teams"][seat]),
                "lineup": state["lineups"][seat],
                "spells": state["spells"][seat],
                "spell_cost": spell_cost(state["spells"][seat]) if state["spells"][seat] is not None else None,
                "budget": self.budget(state, seat),
                "best_budget": best_budget(state["teams"][seat]) if state["teams"][seat] else None,
                "ready": state["ready"][seat],
            }
        history = [
            dict(
                p,
                name=roster()[p["wizard"]]["name"],
                magic=magic(p["wizard"]),
                refill_name=roster()[p["refill"]]["name"] if p["refill"] is not None else None,
            )
            for p in state["picks"]
        ]
        return {
            "game": self.name,
            "format": state["format"],
            "order": state["order"],
            "team_size": state["team_size"],
            "seats": n,
            "seat_order": list(state["seat_order"]),
            "player_two": self.player_two(state),
            "viewer": seat,
            "phase": phase,
            "first_pick": dict(state["first_pick"]) if state["first_pick"] else None,
            "pool": [wizard_card(j) for j in state["pool"]],
            "deck_remaining": len(state["deck"]),
            "deck": list(state["deck"]) if over else None,
            "teams": teams,
            "on_the_clock": clock if phase == PICKING else None,
            "choosing_first": clock if phase == CHOOSE_FIRST else None,
            "pick_number": len(state["picks"]) + 1 if phase == PICKING else None,
            "picks_made": len(state["picks"]),
            "picks_total": picks_total,
            "pick_order": list(state["pick_order"]),
            "history": history,
            "ready": [s for s in range(n) if state["ready"][s]],
            "budgets": [t["budget"] for t in teams],
            "me": mine,
            "spell_catalogue": [
                {"id": cid, "name": spell_name(cid), "cost": card["cost"]}
                for cid, card in wd_data.spell_cards().items()
            ],
            "to_move": self.to_move(state),
            "legal_actions": self.legal_actions(state, seat) if seat is not None else [],
            "result": self.result(state),
        }

    def resample_hidden(self, state: State, viewer: int | None, rng) -> State:
        """Hidden while live: the face-down deck's order (from everyone) and the other coaches'
        line-ups and spell lists (whether they are set is public; what they are is not)."""
        new = self.clone(state)
        if state["phase"] == OVER:
            return new
        new["deck"] = _shuffled(new["deck"], rng)
        for s in range(state["seats"]):
            if s == viewer:
                continue
            team = state["teams"][s]
            if state["lineups"][s] is not None:
                new["lineups"][s] = _shuffled(team, rng)[:LINEUP_SIZE]
            if state["spells"][s] is not None:
                lineup = new["lineups"][s]
                budget = magic_sum(lineup) if lineup is not None else best_budget(team)
                spells = [c for c in spell_order() if rng.random() < 0.5]
                while spell_cost(spells) > budget:
                    spells.pop()
                new["spells"][s] = spells
        return new

    def redact_action(self, seat: int, action: Action, viewer: int | None) -> Action:
        # Team building: line-ups and spell lists stay hidden from the other coaches until
        # everyone is ready (the platform shows every event in full once the draft is over).
        if isinstance(action, dict) and action.get("type") in ("lineup", "spells") and viewer != seat:
            return {"type": action["type"]}
        return action

    def describe(self, before: State, event: dict[str, Any], after: State) -> str:
        if not isinstance(event, dict):
            return "Unknown event."
        if event.get("kind") == "chance":
            return self._describe_deal(after)
        seat = event.get("seat")
        action = event.get("action") or {}
        kind = action.get("type")
        who = _seat_word(before, seat).capitalize() if isinstance(seat, int) else "A coach"
        if kind == "take_first_pick":
            return f"{who} takes the first pick."
        if kind == "pass_first_pick":
            return f"{who} passes the first pick; seat {after['pick_order'][0]} (player 1) picks first."
        if kind == "pick":
            last = after["picks"][-1]
            j = last["wizard"]
            head = f"The clock runs out for {_seat_word(before, seat)}: auto-pick" if last["auto"] else f"{who} picks"
            line = f"{head} {wizard_label(j)} (MAGIC {magic(j)})"
            if last["refill"] is not None:
                line += f"; {wizard_label(last['refill'])} joins the pool."
            else:
                line += "; the deck is empty, so the pool shrinks."
            if after["phase"] == BUILDING:
                line += " The picks are over: each coach now sets a line-up and buys spells."
            return line
        if kind == "lineup":
            return f"{who} sets a line-up."
        if kind == "spells":
            return f"{who} chooses a spell list."
        if kind == "ready":
            line = f"{who} is ready."
            if after["phase"] == OVER:
                line += " Every coach is ready; the draft is complete. " + " ".join(
                    _describe_team(after, s) for s in range(after["seats"])
                )
            return line.strip()
        return "Unknown event."

    def _describe_deal(self, after: State) -> str:
        fmt = after["format"]
        if fmt == BASIC:
            teams = "; ".join(
                f"seat {s} gets {_list_words([wizard_label(j) for j in after['teams'][s]])}"
                for s in after["seat_order"]
            )
            return f"The wizard deck is shuffled and dealt: {teams}."
        pool = _list_words([wizard_label(j) for j in after["pool"]])
        line = f"The wizard deck is shuffled; the pool is {pool}."
        if fmt == SCHOOLYARD:
            line += f" Player 2 (seat {after['seat_order'][1]}) takes the first pick or passes it."
        else:
            line += f" Seat {after['pick_order'][0]} picks first ({after['order']} order)."
        return line


def _describe_team(state: State, seat: int) -> str:
    lineup = state["lineups"][seat]
    bench = [j for j in state["teams"][seat] if j not in lineup]
    spells = [spell_name(s) for s in state["spells"][seat]]
    line = f"Seat {seat}: {', '.join(f'#{j}' for j in lineup)} (MAGIC {magic_sum(lineup)})"
    if bench:
        line += f", alternate #{bench[0]}"
    line += f"; spells: {', '.join(spells) if spells else 'none'}."
    return line


def _shuffled(items: list[Any], rng) -> list[Any]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def _check_action_shape(action: Any) -> str:
    if not isinstance(action, dict):
        raise IllegalAction("An action must be a JSON object with a 'type'.", code="bad_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        raise IllegalAction(
            f"An action's 'type' is one of {', '.join(_ACTION_KEYS)}; not {quoted(kind)}.", code="bad_action"
        )
    keys = action.keys()
    if not keys >= _REQUIRED_KEYS[kind] or not keys <= _ALLOWED_KEYS[kind]:
        expected = _REQUIRED_KEYS[kind]
        names = " and ".join(f"'{k}'" for k in sorted(expected))
        raise IllegalAction(f"A '{kind}' action has the keys {names} (and optionally 'auto').", code="bad_action")
    if "auto" in action and type(action["auto"]) is not bool:
        raise IllegalAction("'auto' must be true or false.", code="bad_action")
    if kind == "pick" and type(action["wizard"]) is not int:
        raise IllegalAction("'wizard' must be a jersey number such as 21.", code="bad_action")
    if kind == "lineup" and not isinstance(action["wizards"], list):
        raise IllegalAction("'wizards' must be a list of jersey numbers in activation order.", code="bad_action")
    if kind == "spells" and not isinstance(action["spells"], list):
        raise IllegalAction("'spells' must be a list of spell card ids such as \"freeze\".", code="bad_action")
    return kind


def match_config(
    state: State, seats: tuple[int, int] | list[int] | None = None, first_player: Any = "auto"
) -> dict[str, Any]:
    """The Wizard Dodgeball config (for its ``validate_config``) for two teams of a finished draft.

    ``seats`` names the two draft seats whose teams meet; match seat ``i`` (team ``i``) is
    played by draft seat ``seats[i]``. For a two-coach draft it defaults to
    ``(player 1, player 2)``; a tournament draft must name two of its four seats.
    ``first_player`` (the team index that activates first) defaults to player 1's team for a
    two-coach draft and to ``None`` (the d6 roll-off at the table) for a tournament pairing.
    """
    if state["phase"] != OVER:
        raise IllegalAction("The draft is not finished; every coach must be ready first.", code="draft_not_over")
    n = state["seats"]
    if seats is None:
        if n != 2:
            raise IllegalAction("Name the two tournament seats whose teams meet.", code="bad_seats")
        seats = tuple(state["seat_order"])
    seats = tuple(seats)
    if len(seats) != 2 or any(type(s) is not int or not 0 <= s < n for s in seats) or seats[0] == seats[1]:
        raise IllegalAction(f"Name two different draft seats from 0 to {n - 1}.", code="bad_seats")
    if first_player == "auto":
        p1 = state["seat_order"][0]
        first_player = seats.index(p1) if n == 2 else None
    return {
        "teams": [{"wizards": list(state["lineups"][s]), "spells": list(state["spells"][s])} for s in seats],
        "first_player": first_player,
    }
