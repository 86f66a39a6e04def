"""Wizarding Duels as a platform engine.

Config (every key optional)::

    {"pack": "original-v1",            # content pack under packs/
     "galleons": 50,                   # the Galleon budget (V-1, L1468)
     "groups": null | [g0, g1],        # preset public Groups (skips the secret building step; tests, quick games)
     "potion_duplicates": true,        # ruling A-57
     "master_wizard_casting_bonus": true}   # ruling A-01

The state's ``queue[0]`` is the window being asked (``{"step": ..., "seat": ...}``); ``legal_actions``
lists every answer. Windows and their actions (``{"type": ...}``):

    build            {"type": "group", models, leader, artifacts, spellbook, quests}   both seats, secret
    stock            {"type": "potions", "potions": [6 ids]}                           both seats, secret
    choose_map       {"type": "choose_map", "map"}            coin winner
    choose_joining   {"type": "choose_joining", "nexus", "half"}   coin loser
    place_challenge  {"type": "place_challenge", "hex"}       x6, alternating
    place_terrain    {"type": "place_terrain", "hex", "terrain"}   one each; terrain hidden from the other seat
    mulligan         {"type": "mulligan", "discard": [quest ids]}   both seats, secret
    horcrux_pick     {"type": "horcrux", "models": [uids]}
    deploy           {"type": "deploy", "model", "hex"}
    neutral          {"type": "neutral", "light": n}          Neutral Cunning taken as white
    upkeep           {"type": "upkeep", "keep": bool[, "light": n]}   n white markers, the rest black (version 2,
                     where the colour is free; likewise "light" on empower and lower)
    activate         {"type": "activate", "model"[, "animal": true]}
    act              move {"to"[, "dangerous": k]} | attack {"attack", "target"[, "artifact"]}
                     | cast {"spell", "target"} (a model uid, or a space "q,r" for a spell placing a board marker)
                     | draw_quest {"discard"} | draw_clash | potion {"index", "target"} | flip {"hex"}
                     | use_artifact {"artifact"} | slytherin | dark_lord_swap {"give", "take"}
                     | herbology {"index", "potion"} | end
    react            {"type": "react", "spell"} | {"type": "pass"}          FC-1
    leadership       {"type": "peek"} | {"type": "pass"}; then order {"type": "order", "cards": [...]}   FC-2
    dark_lord        {"type": "dark_lord"} | {"type": "pass"}                FC-2
    empower          {"type": "empower"[, "light": n]} | {"type": "pass"}    FC-3
    pick/brave_pick  {"type": "keep", "card"}                                Advantage / Disadvantage
    swap             {"type": "swap", "card"} | {"type": "keep_card"}        FC-6
    early/late       {"type": "lower", "use": bool[, "light": n]}            FC-8 / FC-12
    resist           {"type": "resist", "discard": [cards]}
    place            {"type": "place", "hex"[, "model"][, "dangerous": k]}  a free move, teleport, push step or Gryffindor move
    instinctive      {"type": "instinctive", "spell"}         1d, Instinctive Casting
    horcrux_lose     {"type": "horcrux_lose", "index"}        which Horcrux goes instead of the Horcrux Maker

Simultaneous secret choices (Group, potion Stock, mulligan) and face-down choices (swap, terrain type,
Leadership order) are redacted for other viewers by ``redact_action``. Chance: coins are public dice
``[[0, 1]]``; every card that leaves a Clash or Quest deck is a lazy ``draw`` (owner-only into a hand,
public when revealed); the challenge identities and the Horcrux deal are public draws.
"""

from __future__ import annotations

from typing import Any

from engines.base import CHANCE, Engine, IllegalAction, InvalidConfig, event_kind
from engines.chance import check_outcome
from engines.treecopy import copy_tree

from . import bots, content, fast, groups, legal, rules
from .fast import FAST_PATHS, mulligan_listed
from .state import DERIVED_KEYS, M, P, board_changed, living_changed, pack, spaces_changed


def _player() -> dict:
    return {
        "group": None,
        "spellbook": [],
        "clocks": {},
        "potions": [],
        "pool": {"light": 0, "dark": 0},
        "spent": {"light": 0, "dark": 0},
        "deck": [],
        "hand": [],
        "discard": [],
        "gone": [],
        "known_top": [],
        "quest_deck": [],
        "qhand": [],
        "active": [],
        "scored": [],
        "quest_discard": [],
        "qp": 0,
        "upkeep": [],
        "refill_due": False,
        "neutral_light": 0,
    }


def _starting_cards(pk: content.Pack) -> tuple[dict[str, str], list[str], list[str]]:
    """A new game's cards by uid, then each seat's Clash deck: the pack's Clash cards but Lucky and
    Jinxed, by id, as uids "0-00", "0-01", ... for seat 0 and "1-00", ... for seat 1."""
    ids = sorted(pk.clash_cards.keys() - {"lucky", "jinxed"})
    decks = [[f"{seat}-{i:02d}" for i in range(len(ids))] for seat in (0, 1)]
    return {**dict(zip(decks[0], ids)), **dict(zip(decks[1], ids))}, decks[0], decks[1]


#: Every version this class plays; the newest is what new matches use (RULES.md, "Versions").
VERSIONS = ("1", "2", "3")
LATEST = VERSIONS[-1]


class WizardingDuelsEngine(Engine):
    """``WizardingDuelsEngine()`` plays the current rules; ``WizardingDuelsEngine(version="1")``
    replays matches recorded under version 1 exactly as they were played (the engine chose the
    colours of free payments and the safest route, and hid a known Empowerment card from its owner)."""

    name = "wizarding-duels"
    title = "Wizarding Duels"
    howto = "howto.md"  # the How to play page (engines/base.py)
    min_seats = 2
    max_seats = 2
    bots = ("heuristic", "random")
    rating = "glicko2"
    #: Played on the pages (js/games/wizarding-duels.js), with ready-made or saved Groups from the
    #: group builder (/games/wizarding-duels/groups/), and at a table with coin and card pickers.
    playable = True
    #: Keys of the state derived from the rest of it (``state.DERIVED_KEYS``, ``Engine.derived_keys``).
    derived_keys = DERIVED_KEYS

    def __init__(self, version: str = LATEST):
        if version not in VERSIONS:
            raise ValueError(f"Wizarding Duels has no engine version {version!r}.")
        self.version = version
        self.current = version == LATEST
        # Version 3 (RULES.md, "Versions"): a Neutral Cunning answer is secret in its event and
        # its log line until both seats are in; versions 1 and 2 keep the line they recorded.
        self.secret_neutral = version not in ("1", "2")

    # -- configuration -------------------------------------------------------
    def default_config(self, seats: int) -> dict[str, Any]:
        return {
            "pack": "original-v1",
            "galleons": 50,
            "groups": None,
            "potion_duplicates": True,
            "master_wizard_casting_bonus": True,
        }

    def validate_config(self, config, seats):
        if config is not None and not isinstance(config, dict):
            raise InvalidConfig("The configuration must be an object.", code="bad_config")
        cfg = super().validate_config(config, seats)
        if not isinstance(cfg["pack"], str):
            raise InvalidConfig("pack must be the id of a content pack.", code="unknown_pack")
        pk = content.load(cfg["pack"])
        if type(cfg["galleons"]) is not int or cfg["galleons"] < 1:
            raise InvalidConfig("galleons must be a positive whole number.", code="bad_galleons")
        for k in ("potion_duplicates", "master_wizard_casting_bonus"):
            if not isinstance(cfg[k], bool):
                raise InvalidConfig(f"{k} must be true or false.", code="bad_option")
        if not cfg["potion_duplicates"] and sum(1 for p in pk.potions.values() if p["level"] == 0) < 6:
            raise InvalidConfig(
                "Without duplicates a Stock needs six different level-0 potions; this pack has fewer.",
                code="stock_impossible",
            )
        for c in pk.characters.values():  # a loop, not ``all`` of a generator (a frame; issue 17, P1)
            if c["galleons"] <= cfg["galleons"]:
                break
        else:
            raise InvalidConfig(
                f"No model of this pack fits a budget of {cfg['galleons']} Galleons.", code="budget_too_small"
            )
        if not pk.playable():
            raise InvalidConfig(
                f"The pack '{pk.id}' has no quest of every type or no map; it cannot play whole games.",
                code="pack_not_playable",
            )
        if cfg["groups"] is not None:
            if not isinstance(cfg["groups"], list) or len(cfg["groups"]) != 2:
                raise InvalidConfig("groups must list one Group per seat.", code="bad_groups")
            for g in cfg["groups"]:
                try:
                    groups.check_group(pk, g, cfg["galleons"])
                except IllegalAction as e:
                    raise InvalidConfig(e.message, code=e.code) from None
        return cfg

    # -- the game --------------------------------------------------------------
    def preload(self):
        super().preload()
        # A game's board is joined once its map and Nexus colour are chosen, in play: every board
        # of every pack is joined here instead.
        for pack_id in content.pack_ids():
            for map_id, spec in content.load(pack_id).maps.items():
                for nexus in spec["halves"][0]["nexus"]:
                    if nexus in spec["halves"][1]["nexus"]:
                        content.board(pack_id, map_id, nexus)

    def setup(self, config, seats):
        cfg = self.validate_config(config, seats)
        pk = content.load(cfg["pack"])
        # Every game of a pack starts with the same Clash decks and cards by uid: listed once and
        # kept with the pack, and each game's copied in C from them (issue 17, P1).
        cards = pk.starting_cards
        if cards is None:
            cards = pk.starting_cards = _starting_cards(pk)
        players = [_player(), _player()]
        players[0]["deck"] = cards[1][:]
        players[1]["deck"] = cards[2][:]
        s: dict[str, Any] = {
            "pack": pk.id,
            "config": cfg,
            "phase": "build",
            "queue": [],
            "players": players,
            "models": {},
            "cards": cards[0].copy(),
            "overlays": [],
            "map": None,
            "nexus": None,
            "zone_half": [0, 1],
            "coin_winner": None,
            "starting": None,
            "round": 0,
            "turn": 0,
            "act": None,
            "clash": None,
            "brave": None,
            "stats": None,
            "game_over": False,
            "serial": 0,
            "last_clash": None,
            "last_brave": None,
            "blank": 0,
        }
        if self.version != "1":
            # Version 3 plays version 2's rules: it only tells less in its log (RULES.md,
            # "Versions"). Version 1's states stay exactly as they were recorded.
            s["rules"] = 2
        board_changed(s)  # the derived ``board_key`` (``state.DERIVED_KEYS``)
        living_changed(s)  # and ``living``: no models yet
        spaces_changed(s)  # and ``spaces``: none on the board
        rules.start(s)
        return s

    def owned_setup(self, config, seats):
        # ``setup`` builds every container of its state but the config's (a Group the config
        # names is installed as given, ``rules._install_group``) and the effects of the models'
        # attacks, which no apply writes into (a clash keeps a pack's attack profile as it is).
        # So with the config copied the state is the caller's own, without the copy of the whole
        # state ``Engine.owned_setup`` makes (more than half a setup's cost; issue 17, P1).
        # ``test_owned_setup.py`` holds it to sharing nothing else with the config or the pack.
        # Anything but a dict is refused by ``setup`` as it was given (no copy to fail first).
        return self.setup(copy_tree(config) if type(config) is dict else config, seats)

    def to_move(self, state):
        if state["phase"] == "over":
            return []
        return rules.seats_to_move(state)

    def chance(self, state):
        return rules.chance_spec(state)

    def draw_pool(self, state):
        return rules.draw_pool(state)

    def legal_actions(self, state, seat):
        if seat not in self.to_move(state) or seat == CHANCE:
            return []
        st = state["queue"][0]
        pk = pack(state)
        name = st["step"]
        if name == "build":
            out = []
            for k in range(3):
                g = groups.random_group(pk, state["config"]["galleons"], groups.Lcg(1000 * seat + k))
                if g not in out:
                    out.append(g)
            return out
        if name == "stock":
            models = self._models_of(state, seat)
            zero = sorted(p for p in pk.potions if pk.potions[p]["level"] == 0)
            out = [
                x
                for x in ({"type": "potions", "potions": [zero[0]] * 6}, {"type": "potions", "potions": zero[:6]})
                if self._stock_ok(state, seat, x)
            ]
            for k in range(3):
                st_ = groups.random_stock(pk, models, groups.Lcg(77 + 1000 * seat + k))
                if st_ not in out and self._stock_ok(state, seat, st_):
                    out.append(st_)
            return out
        if name == "mulligan":
            hand = sorted(P(state, seat)["qhand"])
            out = []
            for mask in range(1 << len(hand)):
                out.append({"type": "mulligan", "discard": [q for i, q in enumerate(hand) if mask >> i & 1]})
            return out
        return rules.options(state, st, seat)

    def _models_of(self, state, seat):
        return [M(state, uid)["char"] for uid in sorted(state["models"]) if M(state, uid)["seat"] == seat]

    def _stock_ok(self, state, seat, action) -> bool:
        try:
            groups.check_stock(pack(state), self._models_of(state, seat), action, state["config"]["potion_duplicates"])
        except IllegalAction:
            return False
        return True

    def validate(self, state, seat, action):
        self._check(state, seat, action)

    def _check(self, state, seat, action, found: list | None = None) -> dict:
        """``validate``'s checks; returns the front step the action answers, which ``_apply``
        reads next (issue 17, P1). ``found``: see ``legal.allowed``."""
        if type(seat) is not int or seat == CHANCE or not rules.may_answer(state, seat):
            raise IllegalAction("It is not this seat's turn to act.", code="not_your_turn")
        if not isinstance(action, dict):
            raise IllegalAction("An action is a JSON object with a 'type'.", code="bad_action")
        st = state["queue"][0]
        name = st["step"]
        if name == "build":
            groups.check_group(pack(state), action, state["config"]["galleons"])
            return st
        if name == "stock":
            groups.check_stock(pack(state), self._models_of(state, seat), action, state["config"]["potion_duplicates"])
            return st
        if name == "mulligan":
            ok = mulligan_listed(P(state, seat)["qhand"], action)
        else:
            # The action's own answer is worked out where a step has a check of its own, not
            # every answer listed (issue 17, P1).
            ok = legal.typed(action) and legal.allowed(state, st, seat, action, found)
        if not ok:
            raise IllegalAction("That action is not allowed now.", code="illegal_action")
        return st

    def apply(self, state, event):
        return self._apply(state, event, owned=False)

    def apply_in_place(self, state, event):
        return self.fold(state, (event,))

    def fold(self, state, events):
        # The commonest events go straight to their fast paths (fast.py; issue 17, P1) once
        # ``may_answer``'s checks pass for a step one seat answers; a fast path that declines has
        # written nothing, and the general path applies or refuses the event as ever. The
        # dispatch is made here for the whole stream, not by a call of ``apply_in_place`` per
        # event with its tables looked up anew each time (issue 17, P1).
        fast_path, chance_path, secret_path = FAST_PATHS.get, fast.CHANCE_FAST.get, fast.SECRET_FAST.get
        # Read once: only ``rules.start`` (the setup's) puts a new list in the queue's place, and
        # the general path applies an event to this same state (owned).
        queue = state["queue"]
        for event in events:
            # No step is queued in a game that is over (``rules.run`` empties the queue as it
            # ends the game, and nothing else ends it): an empty queue tells both of
            # ``may_answer``'s first checks.
            if queue and type(event) is dict:
                st = queue[0]
                # An event's fields are read without a method call each; the fast paths are
                # called outside the ``try``, so an error of theirs is never taken for a missing
                # field.
                if len(event) == 3:
                    try:
                        kind, seat, action = event["kind"], event["seat"], event["action"]
                    except KeyError:
                        kind = None  # the general path refuses it or names its kind as ever
                    if kind == "action" and type(action) is dict:
                        path = fast_path(st["step"])
                        if path is not None:
                            # The front step's seat is an int, so ``is`` takes only that int: the
                            # type and the value checked at once. (A 0 or 1 read from JSON is the
                            # interpreter's one object for it; any other object goes the general
                            # way, which applies or refuses it as ever.)
                            if seat is st["seat"] and path(state, st, seat, action):
                                continue
                        else:
                            # A simultaneous step's secret answer: ``may_answer``'s test for such a step.
                            secret = secret_path(st["step"])
                            if (
                                secret is not None
                                and type(seat) is int
                                and seat in st["seats"]
                                and st["answers"][str(seat)] is None
                                and secret(state, st, seat, action)
                            ):
                                continue
                elif len(event) == 2:
                    chance = chance_path(st["step"])
                    if chance is not None:
                        try:
                            kind, outcome = event["kind"], event["outcome"]
                        except KeyError:
                            kind = None
                        if kind == "chance" and chance(state, st, outcome):
                            continue
            state = self._apply(state, event, owned=True)
        return state

    def _apply(self, state, event, *, owned: bool):
        # ``event_kind``'s check of a well-formed event, inline (it runs once per event); anything
        # else goes through it, which names the kind or refuses the event as before.
        if type(event) is dict and (
            (len(event) == 3 and event.get("kind") == "action" and "seat" in event and "action" in event)
            or (len(event) == 2 and event.get("kind") == "chance" and "outcome" in event)
        ):
            kind = event["kind"]
        else:
            kind = event_kind(event)
        # Everything that reads ``state`` as it was (the chance spec, the checks) runs before the
        # first write: with an owned state, ``s`` and ``state`` are the same dict.
        s = state if owned else copy_tree(state)
        if kind == "chance":
            outcome = event["outcome"]
            if rules.possible_draw(state, outcome):
                # A Clash or Quest draw checked without building its spec (issue 17, P1); its
                # outcome is a list of ints, so a shallow copy shares nothing with the event.
                quiet = rules.quiet_chance(state["queue"][0])
                rules.resolve_chance(s, outcome[:])
            else:
                spec = self.chance(state)
                if spec is None:
                    raise IllegalAction("No random outcome is due now.", code="no_chance_due")
                check_outcome(spec, outcome)
                quiet = rules.quiet_chance(state["queue"][0])
                # Copied so that no later in-place write can reach into the caller's event.
                rules.resolve_chance(s, copy_tree(outcome))
        else:
            seat, action = event["seat"], event["action"]
            # A move's safest route, found by the check and handed to the move (issue 17, P1).
            found: list = []
            st = self._check(state, seat, action, found)
            name = st["step"]
            # Does answering this front step leave what ``check_lightning`` reads as it was?
            quiet = action.get("type") in rules.QUIET_ACTS if name == "act" else name in rules.QUIET_STEPS
            # Only an answer the state keeps (a held secret answer, a Horcrux pick's list) is
            # copied; every other answer's strings and numbers are only read.
            if name in rules.KEPT_ANSWERS:
                action = copy_tree(action)
            rules.decide(s, seat, action, safest=found[0] if found else None)
        # The lightning quests are checked after every event, and a check leaves no active one
        # that holds (it scores each that does, or its seat has scored nine and scores no more).
        # So when neither the event's own step nor any step run after it changed what the check
        # reads (``rules.QUIET_STEPS``), no active lightning quest holds now either, and the check
        # would score nothing (issue 17, P1). The first state, ``setup``'s, is in the build phase,
        # where the check scores nothing; a phase change is never quiet.
        # ``test_lightning_shortcut.py`` holds this to the full check at every state of playouts.
        if not rules.run(s) or not quiet:
            rules.check_lightning(s)
        return s

    def result(self, state):
        if state["phase"] != "over":
            return None
        qp = [P(state, 0)["qp"], P(state, 1)["qp"]]
        if qp[0] == qp[1]:
            placements = [1, 1]  # ruling A-70
        else:
            placements = [1, 2] if qp[0] > qp[1] else [2, 1]
        return {"placements": placements, "scores": qp, "winners": [i for i in (0, 1) if placements[i] == 1]}

    # -- what people see ---------------------------------------------------------
    def view(self, state, seat):
        v = copy_tree(state)
        for k in DERIVED_KEYS:  # the engine's own memo keys, not part of the game (``state.DERIVED_KEYS``)
            v.pop(k, None)
        for i, p in enumerate(v["players"]):
            mine = seat == i
            p["hand"] = p["hand"] if mine else len(p["hand"])
            p["deck"] = len(p["deck"])
            p["known_top"] = p["known_top"] if mine else len(p["known_top"])
            p["quest_deck"] = sorted(p["quest_deck"]) if mine else len(p["quest_deck"])
            p["qhand"] = p["qhand"] if mine else len(p["qhand"])
            if p["group"] is not None and not mine:
                p["group"] = {k: val for k, val in p["group"].items() if k != "quests"}
        for st in v["queue"]:
            if "answers" in st:
                st["answers"] = {
                    k: (a if seat is not None and k == str(seat) else (a is not None)) for k, a in st["answers"].items()
                }
        for o in v["overlays"]:
            if not o["face_up"] and o["kind"] == "terrain" and o["owner"] != seat:
                o["what"] = None
        for cl in (v.get("clash"),):
            if cl:
                for side in ("att", "def"):
                    sd = cl.get(side)
                    if sd:
                        if sd["swap"] is not None and not sd["swap_up"] and sd["seat"] != seat:
                            sd["swap"] = "face-down"
                        sd["emp_fixed"] = len(sd["emp_fixed"])
                        if "emp_known" in sd and sd["seat"] != seat:
                            sd["emp_known"] = len(sd["emp_known"])  # the owner saw them (Leadership); nobody else
        return v

    def redact_action(self, seat, action, viewer):
        if viewer == seat or not isinstance(action, dict):
            return action
        t = action.get("type")
        # The simultaneous answers (rules._SIMULTANEOUS) are secret until both are in, and what
        # they decide shows in the view once they are: the event itself never tells.
        if t in ("group", "potions", "mulligan", "order") or (t == "neutral" and self.secret_neutral):
            return {"type": t}
        if t == "swap":
            return {"type": "swap", "card": None}
        if t == "place_terrain":
            return {"type": "place_terrain", "hex": action.get("hex"), "terrain": None}
        return action

    def describe(self, before, event, after):
        from .describe import describe

        return describe(self, before, event, after)

    def resample_hidden(self, state, viewer, rng):
        from .hidden import resample

        return resample(state, viewer, rng)

    # -- bots ------------------------------------------------------------------
    def bot_action(self, bot, state, seat, rng):
        if bot == "random":
            return bots.random_action(self, state, seat, rng)
        if bot == "heuristic":
            return bots.heuristic_action(self, state, seat, rng)
        raise IllegalAction(f"There is no '{bot}' bot for {self.title}.", code="unknown_bot")
