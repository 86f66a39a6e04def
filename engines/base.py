"""The engine contract every game implements (see shared/design/ARCHITECTURE.md).

State is a plain JSON-serialisable dict. Actions, chance outcomes and views are plain
JSON values too, so they can be stored as events, sent over a websocket and replayed
by any process. Engines never mutate their input, never read the clock and never use
global randomness: the same events always give the same states.
"""

from __future__ import annotations

import copy
import functools
import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engines.treecopy import copy_tree

if TYPE_CHECKING:
    from engines.odds import ChanceOdds

State = dict[str, Any]
Action = dict[str, Any]

#: Seat value returned by ``to_move`` when a random outcome is due (never a real seat).
CHANCE = -1


class EngineError(Exception):
    """Base for refusals raised by engines: a stable ``code`` and a sentence for people."""

    default_code = "engine_error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.message}


def quoted(value: Any, limit: int = 40, otherwise: str = "that value") -> str:
    """A value someone sent, as a refusal may name it: quoted when it is a short string or whole
    number (a card's id, a jersey), otherwise ``otherwise``. A refusal goes back to whoever sent the
    action and a page may show it: quoting anything sent repeated a whole request body (tens of KB),
    and a value cut short is still whatever they sent. repr escapes control characters."""
    if isinstance(value, (str, int)):
        said = repr(value)
        if len(said) <= limit:
            return said
    return otherwise


class IllegalAction(EngineError):
    """An action (or chance outcome) that the rules do not allow in this state."""

    default_code = "illegal_action"


class InvalidConfig(EngineError):
    """A match configuration the engine cannot set up."""

    default_code = "invalid_config"


def _holds_a_fraction(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_holds_a_fraction(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_a_fraction(v) for v in value)
    return False


def check_action_numbers(action: Any) -> None:
    """Refuse an action that holds a fraction (even ``2.0``), before any engine sees it.

    No game's action holds one: every engine's legal actions are strings, whole numbers and
    booleans. But Python's ``0 == 0.0`` lets such an action through a membership check and on
    into the rules, which index lists with it and fail with a TypeError instead of a refusal."""
    if _holds_a_fraction(action):
        raise IllegalAction("Numbers in an action are whole numbers (write 2, not 2.0).", code="bad_action")


class Engine(ABC):
    """Base class. A game subclasses it and fills in the rules.

    Events given to ``apply`` are one of:
      ``{"kind": "action", "seat": int, "action": Action}``
      ``{"kind": "chance", "outcome": Any}``
    """

    name: str = ""  # registry key, e.g. "dueling-wizards"
    title: str = ""  # human-readable name
    version: str = "1"  # bumped whenever replaying old events could change meaning
    min_seats: int = 2
    max_seats: int = 2
    bots: tuple[str, ...] = ("random",)  # the names bot_action accepts, strongest first

    # -- what the platform needs to know (read by the registry's users, never by engines) --
    #: Offered on the new-match form and played on the game pages.
    playable: bool = True
    #: How results are rated: "glicko2" (one-on-one), "openskill" (any number of seats) or None.
    rating: str | None = None
    #: A draft builds teams for another game; it has no winner and is never rated.
    draft: bool = False
    #: The browser script that draws this game (under static/), e.g. "js/games/dueling-wizards.js".
    page_script: str = ""
    #: False for engines kept only to replay streams recorded under an older version.
    current: bool = True
    #: Options the platform sets when every seat is a person, unless the match's creator set them:
    #: a bound that ends bot games (so random playouts always end) is switched off between people,
    #: whose games the clocks end instead. A match with a bot keeps it (bots stall too).
    people_config: dict[str, Any] = {}
    #: The "How to play" page: a Markdown file beside the engine's module (e.g. "howto.md"), or None.
    howto: str | None = None
    #: Top-level keys of a state that are derived: each a pure function of the rest of the state,
    #: kept only so the engine need not work it out again (e.g. a memo's key). They carry nothing
    #: of the game: the replay goldens and the verifier's comparison of a stored state leave them
    #: out, views show none of them, and a state saved without one (before the engine kept it)
    #: must still play the same (the engine works a missing one out).
    derived_keys: tuple[str, ...] = ()

    @property
    def best_bot(self) -> str:
        """The strongest bot: what "play the bot" means."""
        return self.bots[0]

    def script(self) -> str:
        return self.page_script or f"js/games/{self.name}.js"

    # -- configuration -------------------------------------------------
    def default_config(self, seats: int) -> dict[str, Any]:
        return {}

    def validate_config(self, config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        """Return the normalised config (defaults filled in) or raise InvalidConfig."""
        # Both come from a web API: the shape is checked here once for every engine.
        if type(seats) is not int:
            raise InvalidConfig("The number of seats must be a whole number.", code="bad_seat_count")
        if config is not None and not isinstance(config, dict):
            raise InvalidConfig("The options must be a JSON object.", code="bad_config")
        if not (self.min_seats <= seats <= self.max_seats):
            raise InvalidConfig(
                f"{self.title} is played by {self.min_seats} to {self.max_seats} players, not {seats}.",
                code="bad_seat_count",
            )
        merged = self.default_config(seats)
        for key, value in (config or {}).items():
            if key not in merged:
                raise InvalidConfig(
                    f"Unknown option {quoted(key, otherwise='with that name')} for {self.title}.", code="unknown_option"
                )
            merged[key] = value
        return merged

    def preload(self) -> None:
        """Load now what the engine would load on its first game: its data files and the tables
        made from them. A server or worker process calls it (``registry.preload``) before it
        freezes its start-up and forks, so the data is loaded once, shared by the forked children
        and left out of garbage collections, not loaded again by each child's first game. The
        default sets up one game with the default options; an engine whose data a game reaches
        only later (a board chosen in play) loads that too."""
        self.setup(self.validate_config({}, self.min_seats), self.min_seats)

    # -- the game --------------------------------------------------------
    @abstractmethod
    def setup(self, config: dict[str, Any], seats: int) -> State:
        """The initial state for a validated config."""

    @abstractmethod
    def to_move(self, state: State) -> list[int]:
        """Seats that must act now; ``[CHANCE]`` when a random outcome is due; ``[]`` at the end."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not to move)."""

    def validate(self, state: State, seat: int, action: Action) -> None:
        """Raise IllegalAction with a reason if ``action`` is not allowed for ``seat``."""
        if seat not in self.to_move(state):
            raise IllegalAction("It is not this seat's turn to act.", code="not_your_turn")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("That action is not allowed now.", code="illegal_action")

    def check_sent_action(self, action: Action) -> None:
        """Refuse (IllegalAction) an action as a client sends it, by its shape alone, before
        ``apply``: fields the rules never read would be stored in the match's public record for
        good. Called where actions arrive (the match services, the sandbox), as
        ``check_action_numbers`` is, never in a replay: so a stricter check here refuses new
        input without failing a stream recorded before it. By default none."""
        return None

    def chance(self, state: State) -> dict[str, Any] | None:
        """The pending random draw (see engines.chance for the spec shapes), or None."""
        return None

    @abstractmethod
    def apply(self, state: State, event: dict[str, Any]) -> State:
        """A new state; raises IllegalAction (input untouched) for a refused event."""

    def apply_in_place(self, state: State, event: dict[str, Any]) -> State:
        """The state after ``event``, for a caller that owns ``state`` and keeps no other
        reference to it: the engine may change ``state`` itself and return it (or return a new
        state). Folding a stream to its final state needs no intermediate state, and copying the
        whole state per event was most of a replay's cost (issue 17, P1).

        Owned means nothing else holds a container of ``state``: not an earlier state, not an
        event, not the engine's static data (``owned_copy`` makes such a copy). The engine keeps it so:
        nothing of ``event`` is stored without a copy. After a refusal (IllegalAction, or any
        other error) ``state`` may be half changed: the caller must discard it.

        By default this is ``apply``, so an engine that does not override it stays correct."""
        return self.apply(state, event)

    def fold(self, state: State, events: Iterable[dict[str, Any]]) -> State:
        """The state after ``events`` one after another, each by ``apply_in_place``, with its
        caller's ownership of ``state`` (``replay``'s fold). An engine may fold a whole stream
        in one call of its own, with what it looks up for every event looked up once (Wizarding
        Duels' dispatch to its fast paths; issue 17, P1)."""
        step = self.apply_in_place
        for event in events:
            state = step(state, event)
        return state

    def is_terminal(self, state: State) -> bool:
        return not self.to_move(state)

    @abstractmethod
    def result(self, state: State) -> dict[str, Any] | None:
        """Once terminal: ``{"placements": [int per seat, 1 = first, ties share],
        "scores": [number per seat], "winners": [seats placed first]}``; else None."""

    def result_on_time(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """The result when ``seat`` runs out of time (or abandons): a loss on time. By default
        that seat is placed last and every other seat shares first place; a game with teams or
        a meaningful position overrides this with its own rules."""
        placements = [2 if s == seat else 1 for s in range(seats)]
        return {
            "placements": placements,
            "scores": [0] * seats,
            "winners": [s for s in range(seats) if s != seat],
            "reason": "timeout",
            "timed_out": seat,
        }

    def in_game(self, state: State, seat: int) -> bool:
        """Whether ``seat`` still plays in a game that is not over: False once the rules have put
        it out (a wizard knocked out, a caster retired) while others play on. Such a seat is
        never to move, so its clock never runs, and it cannot resign: its place is the one it
        fell to, and a resignation would end the game for the seats still playing. By default
        every seat plays until the end."""
        return True

    def leave(self, state: State, seat: int) -> State | None:
        """The state after ``seat`` leaves a game the others play on (RULING "Leaving": a
        resignation or a loss on time with at least two other seats still in the game), or None
        when this engine or version does not play on, and the match ends as ``result_on_time``
        says. Never mutates ``state``. After it, ``in_game(state, seat)`` is False, ``to_move``
        never names the seat, and ``result`` places the seat below every seat still playing."""
        return None

    def result_on_resign(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """The result when a person resigns ``seat``: the loss ``result_on_time`` gives (its
        placements, scores and winners, so a game with teams or positions loses the whole side
        as it does on time), said as a resignation. A game overriding ``result_on_time`` gets
        the same rules here without a second copy of them."""
        result = {k: v for k, v in self.result_on_time(state, seat, seats).items() if k != "timed_out"}
        result["reason"] = "resigned"
        result["resigned"] = seat
        return result

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see; hidden information redacted."""

    def describe(self, before: State, event: dict[str, Any], after: State) -> str:
        """One line a person reads in a match log. Must not leak hidden information
        that ``after`` still hides from spectators."""
        return event.get("kind", "event")

    def redact_action(self, seat: int, action: Action, viewer: int | None) -> Action:
        """An action as ``viewer`` may see it while the match is live (default: public)."""
        return action

    def redact_chance(self, spec: dict[str, Any], outcome: Any, viewer: int | None) -> Any:
        """A chance outcome as ``viewer`` may see it while live: the outcome itself when the
        spec's ``visible_to`` includes the viewer, else None.

        A draw's outcome is never served while live, not even to the seats that see the cards:
        an index counts the pool's cards before the drawn one in canonical order, and whoever
        knows every card outside the pool but the other hands would learn how many of those
        come first. The cards drawn reach the viewers in ``visible_to`` through their views."""
        if spec.get("kind") == "draw":
            return None
        return outcome if chance_visible(spec, viewer) else None

    def chance_odds(self, state: State, outcome: Any) -> ChanceOdds:
        """The exact odds of a chance event: ``state`` has the chance pending (``to_move`` is
        CHANCE), ``outcome`` is the one recorded. A game that knows what its rolls and draws decide
        says so in an ``odds.py`` beside its engine, with ``chance_odds(engine, state, outcome)``
        adding the stakes (engines.odds.Stake); without one, only the probability of the outcome
        itself is known. Only ever asked of finished, public matches."""
        from engines.odds import ChanceOdds, uniform_outcome_probability

        spec = self.chance(state)
        if spec is None:
            raise IllegalAction("No chance event is due now.", code="no_chance_due")
        game_odds = _odds_beside(type(self).__module__)
        if game_odds is not None:
            return game_odds.chance_odds(self, state, outcome)
        return ChanceOdds(p_outcome=uniform_outcome_probability(spec))

    def draw_pool(self, state: State) -> list[Any]:
        """For a pending ``draw``: the pool in the engine's canonical order (outcome indices
        point into it). Used only by the server, to turn the cards a person at a real table
        says they drew into indices; never shown to anyone."""
        raise IllegalAction(f"{self.title} has no card draws.", code="no_draw_due")

    def resample_hidden(self, state: State, viewer: int | None, rng) -> State:
        """A state ``viewer`` cannot tell from ``state``: everything hidden from that viewer
        redrawn at random (``rng`` only needs ``random()``); the input is never mutated.

        This is the engine's declaration of what is hidden: the conformance suite checks that
        the viewer's view, the chance spec and the log lines are the same in both states.
        An engine with no hidden information keeps this default."""
        return state

    # -- bots ------------------------------------------------------------------
    def bot_action(self, bot: str, state: State, seat: int, rng) -> Action:
        """The action the named bot takes. ``rng`` only needs ``random()``."""
        if bot == "random":
            return self.random_action(state, seat, rng)
        raise IllegalAction(f"There is no {quoted(bot, otherwise='such')} bot for {self.title}.", code="unknown_bot")

    def random_action(self, state: State, seat: int, rng) -> Action:
        """A uniformly random legal action. ``rng`` only needs ``random()``."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction("This seat has no legal action.", code="no_legal_action")
        return actions[int(rng.random() * len(actions))]

    # -- helpers -------------------------------------------------------------
    @staticmethod
    def clone(state: State) -> State:
        return copy.deepcopy(state)

    @staticmethod
    def owned_copy(state: State) -> State:
        """A copy of ``state`` for ``apply_in_place``: folding it leaves ``state`` as it was. Here it
        shares no container; an engine may share what no apply ever writes into (Annihilageddon)."""
        return copy_tree(state)

    def owned_setup(self, config: dict[str, Any], seats: int) -> State:
        """``setup``'s state, owned by the caller as ``apply_in_place`` needs it. Here a copy
        (``owned_copy``), as a setup may hand out containers of the engine's static data; an
        engine whose setup builds every container it returns, or copies it, may skip the copy
        (Wizarding Duels: its copy was most of a setup's cost)."""
        return self.owned_copy(self.setup(config, seats))


@functools.cache
def _odds_beside(engine_module: str):
    """The ``odds`` module of the package an engine class lives in, or None when it has none."""
    package = engine_module.rpartition(".")[0]
    if not package:
        return None  # an engine defined in a script or at the top level
    try:
        return importlib.import_module(f"{package}.odds")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.odds":
            raise  # an odds module that exists but fails to import is a bug, not "no odds"
        return None


_EVENT_KEYS = {"chance": {"kind", "outcome"}, "action": {"kind", "seat", "action"}}


def event_kind(event: Any) -> str:
    """``"chance"`` or ``"action"`` for a well-formed engine event; IllegalAction otherwise.

    Events arrive from a web API, so the envelope is checked exactly: no missing or extra keys."""
    if type(event) is dict:
        # Replay's common case, without building a set of the keys: the right count of keys with
        # each one present is the same exact check.
        kind = event.get("kind")
        if kind == "action" and len(event) == 3 and "seat" in event and "action" in event:
            return "action"
        if kind == "chance" and len(event) == 2 and "outcome" in event:
            return "chance"
    if not isinstance(event, dict):
        raise IllegalAction("An event must be a JSON object.", code="bad_event")
    kind = event.get("kind")
    if not isinstance(kind, str) or kind not in _EVENT_KEYS or set(event) != _EVENT_KEYS[kind]:
        raise IllegalAction(
            "An event is {'kind': 'chance', 'outcome': ...} or "
            "{'kind': 'action', 'seat': ..., 'action': ...}, with no other keys.",
            code="bad_event",
        )
    return kind


def chance_visible(spec: dict[str, Any], viewer: int | None) -> bool:
    """Whether ``viewer`` (a seat, or None for a spectator) may see the outcome of ``spec``
    while the match is live. ``visible_to`` is "all", "none" or a list of seats; without it,
    dice are public and a shuffle (which orders every hidden card) is seen by nobody."""
    visible_to = spec.get("visible_to", "none" if spec.get("kind") == "shuffle" else "all")
    if visible_to == "all":
        return True
    if visible_to == "none" or viewer is None:
        return False
    return isinstance(visible_to, list) and viewer in visible_to


def chance_enterable(spec: dict[str, Any], seat: int) -> bool:
    """Whether ``seat`` may enter this outcome at a real table: only a seat that may see it.
    A spec without ``visible_to`` (a public roll, or a whole-deck shuffle of engines written
    before private draws) may be entered by any seat, as before."""
    return "visible_to" not in spec or chance_visible(spec, seat)


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no whitespace, UTF-8: the form that is hashed and compared."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def replay(engine: Engine, config: dict[str, Any], seats: int, events: Iterable[dict[str, Any]]) -> State:
    """The state ``events`` lead to from the setup; IllegalAction for a refused event.

    No intermediate state is kept, so the events are applied in place to one owned state; a
    refusal raises out of here, and the half-changed state goes with it."""
    if (
        getattr(engine.apply_in_place, "__func__", None) is Engine.apply_in_place
        and getattr(engine.fold, "__func__", None) is Engine.fold
    ):
        # The default fold would only call apply through apply_in_place: one call less per
        # event. And apply never changes the state it is given, so the setup needs no copy
        # either (for Dueling Wizards' short games the copy was about 2.5% of a replay).
        state = engine.setup(config, seats)
        for event in events:
            state = engine.apply(state, event)
        return state
    # setup may hand out containers of the engine's static data: ``owned_setup`` makes the state
    # the fold's own before anything writes into it. An engine's own ``fold`` is always used.
    return engine.fold(engine.owned_setup(config, seats), events)
