"""The rules as a resumable step machine.

``s["queue"]`` holds pending steps, front first. ``run`` executes automatic steps until the
front step waits for a seat's decision or for a chance outcome. Every step is a plain dict
``{"step": name, ...}``; decisions are answered by ``decide`` and chance by ``resolve_chance``.
Rule numbers (WD-n, FC-n, A-nn) refer to shared/design/specs/wizarding-duels.md; Lnnn to the
rulebook's lines.
"""

from __future__ import annotations

from functools import lru_cache
from heapq import heappop, heappush
from itertools import combinations
from operator import itemgetter

from engines.base import IllegalAction
from engines.chance import draw_spec

from . import content, geometry, groups
from .state import (
    LIVING,
    MYSTERY_TERRAIN,
    SPACES,
    M,
    P,
    State,
    alive,
    alive_unordered,
    any_alive,
    board,
    board_changed,
    board_key_of,
    can_pay,
    capacity,
    card_value,
    controls,
    has,
    hex_of,
    is_two_plus,
    living_changed,
    living_of,
    lower,
    occupant,
    on_board,
    other,
    overlay_at,
    pack,
    pay,
    pay_splits,
    push_front,
    push_new,
    rank,
    regain,
    rules_version,
    set_space,
    spaces_of,
    terrain,
)

DECISIONS = {
    "build",
    "stock",
    "choose_map",
    "choose_joining",
    "place_challenge",
    "place_terrain",
    "mulligan",
    "horcrux_pick",
    "deploy",
    "neutral",
    "upkeep",
    "activate",
    "act",
    "react",
    "empower",
    "pick",
    "swap",
    "early",
    "late",
    "resist",
    "place",
    "brave_pick",
    "leadership",
    "order",
    "dark_lord",
    "instinctive",
    "horcrux_lose",
}
CHANCES = {"coin", "draw", "unveil", "horcrux_deal"}
#: The decisions both seats answer, each in secret, held until both have.
_SIMULTANEOUS = frozenset({"build", "stock", "mulligan", "neutral"})
#: The decisions whose answer (or a list in it) ``decide`` puts into the state as it is: the held
#: answers of secret choices, the Group installed, the models a Horcrux deal names. Any other
#: answer gives the state only its strings and numbers (a test checks that none is shared).
KEPT_ANSWERS = {"build", "stock", "mulligan", "neutral", "horcrux_pick"}

HAND_SIZE = 3
ACTIVE_QUESTS = 3
ROUNDS = 3
ACTIVATIONS = 3


# ====================================================================== driver


def waiting(s: State) -> dict | None:
    """The front step if it waits for input, after automatic steps ran."""
    return s["queue"][0] if s["queue"] else None


def seats_to_move(s: State) -> list[int]:
    st = waiting(s)
    if st is None:
        return []
    if st["step"] in CHANCES:
        return [-1]
    if st["step"] in ("build", "stock", "mulligan", "neutral"):
        return [x for x in st["seats"] if st["answers"][str(x)] is None]
    return [st["seat"]]


def may_answer(s: State, seat: int) -> bool:
    """``seat in seats_to_move(s)`` for a player's seat, in a game that is not over, without
    building the list: every action's check asks it (issue 17, P1)."""
    if s["phase"] == "over" or not s["queue"]:
        return False
    st = s["queue"][0]
    name = st["step"]
    if name in CHANCES:
        return False
    if name in _SIMULTANEOUS:
        return seat in st["seats"] and st["answers"][str(seat)] is None
    return st["seat"] == seat


#: Steps audited to change nothing ``check_lightning`` reads (the phase, the round's counters, the
#: models' spaces and removal, the overlays, the players' active and scored quests) when they are
#: answered (``decide``) or run (``AUTO``): each writes only hands, decks, pools, the clash, the
#: activation, statuses, a model's Impacts and artifacts, clocks, spells, board markers and the
#: queue. What they set in motion (a hit's Impacts, a removal, a move, a clash's total) is a later
#: step of its own, judged by its own name when it is taken. Every other step may change what the
#: check reads: a move or placement, a total (quiet unless it counted a spell cast, which ``run``
#: asks once it ran: ``_spell_counted``), Impacts counted and removals, quest draws and discards,
#: potions, overlay flips (the action ``flip``; the clash's ``flip`` step only turns its cards face
#: up), and every change of phase. ``act`` is judged by its action's type
#: (``QUIET_ACTS``).
QUIET_STEPS = frozenset(
    {
        # decisions
        "stock",
        "neutral",
        "horcrux_pick",
        "upkeep",
        "activate",
        "react",
        "empower",
        "pick",
        "brave_pick",
        "swap",
        "early",
        "late",
        "resist",
        "instinctive",
        "horcrux_lose",
        "leadership",
        "order",
        "dark_lord",
        # automatic steps
        "start_refill",
        "power_refills",
        "pool_refill",
        "instinctive_setup",
        "activation_end",
        "next_activation",
        "action_end",
        "fc2",
        "reveal",
        "after_pick",
        "flip",
        "emp_draw",
        "clash_effects",
        "apply_effects",
        "clash_discard",
        "hit",
        "poison",
        "end_statuses",
        "brave_total",
    }
)
#: The act step's quiet answers: paying for an action and opening its clash or queueing its steps.
#: A Quest card discarded to draw one only takes a quest out of the active ones, which makes no
#: other hold; the draw that fills its place is a chance event of its own, never quiet
#: (``quiet_chance``).
QUIET_ACTS = frozenset(
    {"end", "attack", "cast", "draw_clash", "draw_quest", "use_artifact", "dark_lord_swap", "herbology", "slytherin"}
)


def quiet_chance(st: dict) -> bool:
    """Does resolving the chance step ``st`` leave what ``check_lightning`` reads as it was? A coin
    sets who chooses or starts, a Horcrux deal hands out artifacts and a Clash draw moves cards;
    a quest draw fills the active quests and an unveiling turns the overlays up."""
    name = st["step"]
    return name in ("coin", "horcrux_deal") or (name == "draw" and st["pile"] != "quest")


#: How many steps ``run`` takes at most before it calls the step machine unsettled.
_SETTLE = range(10000)


def run(s: State) -> bool:
    """Take the automatic steps until the front step waits for a seat or a chance outcome. True
    when every step taken was quiet (``QUIET_STEPS``); a draw made ready here (``_prepare_draw``)
    only moves cards between decks, hands and the discard, so it is quiet too."""
    quiet = True
    # No step, decision or draw replaces the queue list (only ``start`` does), so the one read
    # here stays the state's.
    queue = s["queue"]
    steps = _STEPS
    quiet_steps = QUIET_STEPS
    waits = _WAITS
    pass_alone = _PASS_ALONE
    for _ in _SETTLE:
        if not queue:
            if s["phase"] == "over":
                return False
            raise RuntimeError(f"empty queue in phase {s['phase']}")
        st = queue[0]
        name = st["step"]
        handler = steps[name]  # no such step: KeyError, as ever
        if handler is None:
            if name in waits:
                return quiet
            if name in pass_alone:
                # The swap, Empowerment and lower-part windows of every clash, the commonest to
                # reach here: ``_two_options`` tells them exactly, and short of two answers the
                # list holds the pass alone (keep the card, no Empowerment, no lower part), which
                # ``decide`` answers by writing nothing. Closed here, quiet (``QUIET_STEPS``), with
                # no list, no answer and no call of ``_skip_decision`` (issue 17, P1;
                # test_skip_window.py holds both to the list and to ``decide``).
                if _two_options(s, st):
                    return quiet
                del queue[0]
                continue
            if name == "draw":
                if _prepare_draw(s, st):
                    continue
                return quiet
            if name == "activate" and not s["game_over"]:
                return quiet  # ``_skip_decision`` closes an activate step only in a game that is over
            if _skip_decision(s, st):
                # closed, or answered with its one answer
                quiet = quiet and name in quiet_steps
                continue
            return quiet
        # The automatic steps: most steps taken here are (issue 17, P1).
        del queue[0]
        handler(s, st)
        if quiet and name not in quiet_steps:
            # A clash's total counts a spell cast only when a spell not the Basic one succeeded;
            # the rest of what it writes (the totals, clocks, spells returned) the check never reads.
            quiet = name == "total" and not _spell_counted(s["clash"])
    raise RuntimeError("step machine did not settle")


# ====================================================================== set-up (WD-1..28)


def start(s: State) -> None:
    cfg = s["config"]
    if cfg.get("groups"):
        for seat in (0, 1):
            _install_group(s, seat, cfg["groups"][seat])
        s["queue"] = [{"step": "reveal_groups"}]
    else:
        s["queue"] = [{"step": "build", "seats": [0, 1], "answers": {"0": None, "1": None}}]
    run(s)


#: A model's uid by its seat and its index in the Group: "0a", "0b", ... (a Group holds at most six).
_MODEL_UIDS = tuple(tuple(f"{seat}{letter}" for letter in "abcdefghijklmnopqrstuvwxyz") for seat in (0, 1))


def _fresh_model(pk: content.Pack, cid: str) -> tuple:
    """Character ``cid``'s model before its Group places it, with None for each container, then
    what the model's own containers are copied from: its Cunning, traits, innate spells, attacks
    and actions."""
    c = pk.characters[cid]
    model = {
        "uid": None,
        "seat": None,
        "char": cid,
        "name": c["name"],
        "hex": None,
        "removed": False,
        "mastery": c["mastery"],
        "defense": c["defense"],
        "slots": c["slots"],
        "cunning": None,
        "traits": None,
        "innate": None,
        "innate_clocks": None,
        "attacks": None,
        "actions": None,
        "artifacts": None,
        "spells": None,
        "impacts": 0,
        "burning": 0,
        "poison": 0,
        "slow": 0,
        "conceal": None,
        "ward": None,
        "markers": 0,
        "animal": False,
        "round": None,
        "horcruxes": None,
        "leader": False,
        "next_adv": 0,
    }
    actions = dict({"move": 1, "advanced": 1, "quick": 1}, **c.get("actions", {}))
    return model, c["cunning"], groups.character_traits(pk, cid), c["innate_spells"], c["attacks"], actions


def _install_group(s: State, seat: int, g: dict) -> None:
    pk = pack(s)
    p = P(s, seat)
    p["group"] = g
    p["spellbook"] = list(g["spellbook"])
    p["quest_deck"] = sorted(g["quests"])
    arts = g["artifacts"]
    leader = g["leader"]
    models = s["models"]
    uids = _MODEL_UIDS[seat]
    # A character's model is the same in every game until placed: kept with the pack and copied
    # in C, then given its place and containers of its own, where a display of every field and
    # the copies made with calls were a good part of a Group's install (issue 17, P1).
    fresh = pk.fresh_models
    for i, cid in enumerate(g["models"]):
        made = fresh.get(cid)
        if made is None:
            made = fresh[cid] = _fresh_model(pk, cid)
        model, cunning, traits, innate, attacks, actions = made
        m = model.copy()
        uid = uids[i]
        m["uid"] = uid
        m["seat"] = seat
        m["cunning"] = cunning.copy()
        m["traits"] = traits.copy()
        m["innate"] = innate[:]
        m["innate_clocks"] = {}
        m["attacks"] = list(map(dict, attacks))  # a copy of each, made in C
        m["actions"] = actions.copy()
        m["artifacts"] = carried = []
        for a in arts[i]:
            carried.append({"id": a, "locked": False, "used": False})
        m["spells"] = []
        m["conceal"] = []
        m["ward"] = []
        m["round"] = {}
        m["horcruxes"] = []
        m["leader"] = i == leader
        models[uid] = m
    living_changed(s)  # the derived ``living`` (``state.DERIVED_KEYS``)


def _h_reveal_groups(s: State, st: dict) -> None:
    # G2: both groups public at once; quest decks stay hidden (L1494).
    s["phase"] = "stock"
    s["queue"].insert(0, {"step": "stock", "seats": [0, 1], "answers": {"0": None, "1": None}})


def _h_after_stock(s: State, st: dict) -> None:
    s["phase"] = "board"
    s["queue"].insert(0, {"step": "coin", "purpose": "setup"})


def _challenge_hexes(s: State) -> list[tuple[int, int]]:
    """WD-21 with rulings A-28/A-29: Open, no overlay, no Arrival Space, not at the edge,
    at least 3 from other challenges; relaxed to 2 only when 3 is impossible."""
    chal = [geometry.parse(o["hex"]) for o in s["overlays"] if o["kind"] == "challenge"]
    covered = _overlaid(s)
    base = [h for h in board(s).inner_open() if h not in covered]
    for spacing in (3, 2, 1):
        ok = [h for h in base if all(geometry.distance(h, c) >= spacing for c in chal)]
        if ok:
            return ok
    return []


def _challenge_space_wider_than(s: State, chal: list[tuple[int, int]], spacing: int) -> bool:
    """Does some space ``_challenge_hexes`` may offer keep more than ``spacing`` from every
    challenge in ``chal``? (Then it offers no space that keeps only ``spacing``.)"""
    covered = _overlaid(s)
    want = spacing + 1
    for h in board(s).inner_open():
        if h not in covered:
            q, r = h
            for cq, cr in chal:
                dq, dr = q - cq, r - cr
                if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 < want:
                    break
            else:
                return True
    return False


def _terrain_hexes(s: State) -> list[tuple[int, int]]:
    b = board(s)
    arrivals = set(b.arrival[0]) | set(b.arrival[1])
    covered = _overlaid(s)
    return [h for h in b.hexes if b.terrain[h] == "open" and h not in arrivals and h not in covered]


def _overlaid(s: State) -> set[tuple[int, int]]:
    """The spaces holding an overlay, for ``overlay_at(s, h) is None`` asked of every space of the
    board by a set lookup, not a search of the overlays each (issue 17, P1). An overlay's key is
    written by ``geometry.key`` (a placement's space is checked to be written so), so parsing it
    gives the one space whose key it is. Only looked up, never iterated."""
    return {geometry.parse(o["hex"]) for o in s["overlays"]}


def _h_overlays(s: State, st: dict) -> None:
    w = s["coin_winner"]
    o = other(w)
    # Six Challenge placements, alternating from the coin winner, written out: no comprehension's
    # frame (issue 17, P1).
    push_front(
        s,
        {"step": "place_challenge", "seat": w},
        {"step": "place_challenge", "seat": o},
        {"step": "place_challenge", "seat": w},
        {"step": "place_challenge", "seat": o},
        {"step": "place_challenge", "seat": w},
        {"step": "place_challenge", "seat": o},
        {"step": "place_terrain", "seat": w},
        {"step": "place_terrain", "seat": o},
        {"step": "unveil"},
    )


def _h_after_unveil(s: State, st: dict) -> None:
    # WD-24: each player shuffles the quest deck and draws 3 (privately, ruling A-63), then mulligans.
    s["phase"] = "quests"
    push_front(
        s,
        {
            "step": "draw",
            "seat": s["coin_winner"],
            "pile": "quest",
            "n": ACTIVE_QUESTS,
            "dest": "qhand",
            "vis": "owner",
        },
        {
            "step": "draw",
            "seat": other(s["coin_winner"]),
            "pile": "quest",
            "n": ACTIVE_QUESTS,
            "dest": "qhand",
            "vis": "owner",
        },
        {"step": "mulligan", "seats": [0, 1], "answers": {"0": None, "1": None}},
        {"step": "after_mulligan"},
    )


def _h_after_mulligan(s: State, st: dict) -> None:
    s["phase"] = "horcrux"
    steps = []
    models = s["models"]
    lv = living_of(s)
    for seat in (s["coin_winner"], other(s["coin_winner"])):
        for uid in lv[seat]:  # ``alive(s, seat)``'s models, in uid order
            if "horcrux_maker" in models[uid]["traits"]:
                steps.append({"step": "horcrux_setup", "seat": seat, "model": uid})
    steps.append({"step": "start_deploy"})
    push_front(s, *steps)


@lru_cache(maxsize=8)
def _horcruxes(pack_id: str) -> tuple[str, ...]:
    """The pack's Horcrux artifacts but the rival's, sorted: listed from its whole artifact list
    once, not at each Horcrux set-up and deal (issue 17, P1)."""
    pk = content.load(pack_id)
    rival = pk.params["horcrux_maker"]["rival_horcrux"]
    return tuple(sorted(a for a, art in pk.artifacts.items() if "Horcrux" in art["keywords"] and a != rival))


def _set_aside_horcruxes(s: State, seat: int) -> list[str]:
    # Loops, not a set and a list comprehension (a frame each; issue 17, P1).
    assigned = set()
    for m in s["models"].values():
        if m["seat"] == seat:
            for a in m["artifacts"]:
                assigned.add(a["id"])
    out = []
    for a in _horcruxes(s["pack"]):
        if a not in assigned:
            out.append(a)
    return out


def _h_horcrux_setup(s: State, st: dict) -> None:
    """WD-T16 (L1311-1328, ruling A-46)."""
    pk = pack(s)
    hm = pk.params["horcrux_maker"]
    seat = st["seat"]
    maker = M(s, st["model"])
    # Searches in loops, not ``next`` of generators and a comprehension (a frame each; issue 17, P1).
    rival = None
    for m in alive(s, other(seat)):
        if m["name"] == hm["rival_name"]:
            rival = m
            break
    if rival is not None:
        rival["artifacts"].append({"id": hm["rival_horcrux"], "locked": False, "used": False})
        maker["horcruxes"].append({"kind": "artifact", "model": rival["uid"], "id": hm["rival_horcrux"]})
    mine = alive(s, seat)
    for m in mine:
        if m["name"] == hm["familiar_name"]:
            maker["horcruxes"].append({"kind": "model", "model": m["uid"]})
            break
    limit = 2 if rival is not None else 3
    candidates = []
    for m in mine:
        if m["uid"] != maker["uid"] and m["slots"] >= 1:
            candidates.append(m["uid"])
    pool = _set_aside_horcruxes(s, seat)
    if candidates and pool:
        push_front(
            s,
            {
                "step": "horcrux_pick",
                "seat": seat,
                "model": maker["uid"],
                "limit": min(limit, len(pool)),
                "candidates": candidates,
            },
        )


def _h_start_deploy(s: State, st: dict) -> None:
    s["phase"] = "deploy"
    s["queue"].insert(0, {"step": "deploy", "seat": s["coin_winner"]})


def _deploy_seat(s: State) -> int | None:
    # Counts of each seat's living models still to deploy and already placed: only how many
    # matters here, which four sorted ``alive`` lists gave (``test_deploy_order.py`` holds it to
    # those lists). The kept keys count them without a pass over the models (issue 17, P1): a
    # seat's living models (``LIVING``) are those on the board (``SPACES``, one a space) and those
    # still to deploy.
    lv = s.get(LIVING) or living_of(s)  # ``living_of``, with no call once kept
    sp = s.get(SPACES) or spaces_of(s)
    w = s["coin_winner"]
    o = 1 - w
    placed_w, placed_o = len(sp[w]), len(sp[o])
    left_w, left_o = len(lv[w]) - placed_w, len(lv[o]) - placed_o
    if not left_w:
        return o if left_o else None
    if not left_o:
        return w
    # WD-26 (ruling A-65): alternate, coin winner first.
    return w if placed_w <= placed_o else o


def _after_deploy(s: State) -> None:
    nxt = _deploy_seat(s)
    if nxt is not None:
        s["queue"].insert(0, {"step": "deploy", "seat": nxt})
        return
    # WD-27: Power Pool. Neutral points are chosen (simultaneously, publicly).
    s["phase"] = "pool"
    # The seats with Neutral Cunning, in loops, not a comprehension, generators and a dict
    # comprehension (a frame each; issue 17, P1).
    models = s["models"]
    seats = []
    answers = {}
    for seat in (0, 1):
        neutral = 0
        for uid in living_of(s)[seat]:
            neutral += models[uid]["cunning"]["neutral"]
        if neutral > 0:
            seats.append(seat)
            answers[str(seat)] = None
    steps = []
    if seats:
        steps.append({"step": "neutral", "seats": seats, "answers": answers})
    steps.append({"step": "generate_pool"})
    push_front(s, *steps)


def _h_generate_pool(s: State, st: dict) -> None:
    """L1037-1051, WD-27, Adoration (A-47)."""
    for seat in (0, 1):
        p = s["players"][seat]
        # The three sums and Adoration's counts in one loop, not three generators (a frame each)
        # and a loop over the models for each Adoration model (issue 17, P1).
        light = dark = neutral = 0
        with_dark = adoring = adoring_with_dark = 0
        for m in alive_unordered(s, seat):  # sums and counts only
            cunning = m["cunning"]
            light += cunning["light"]
            dark += cunning["dark"]
            neutral += cunning["neutral"]
            if cunning["dark"] > 0:
                with_dark += 1
                if "adoration" in m["traits"]:
                    adoring_with_dark += 1
            if "adoration" in m["traits"]:
                adoring += 1
        as_light = p.get("neutral_light", 0)
        light += as_light
        dark += neutral - as_light
        # Adoration: each Adoration model adds one Dark for every other model with Dark Cunning.
        dark += adoring * with_dark - adoring_with_dark
        p["pool"] = {"light": light, "dark": dark}
    # WD-28: each player shuffles the Clash deck and draws 3.
    s["phase"] = "hands"
    w = s["coin_winner"]
    push_front(
        s,
        {"step": "draw", "seat": w, "pile": "clash", "n": HAND_SIZE, "dest": "hand", "vis": "owner"},
        {"step": "draw", "seat": other(w), "pile": "clash", "n": HAND_SIZE, "dest": "hand", "vis": "owner"},
        {"step": "round_start"},
    )


# ====================================================================== rounds (WD-65..77)


def _h_round_start(s: State, st: dict) -> None:
    s["round"] += 1
    s["phase"] = "start"
    s["stats"] = {"impacts": [0, 0], "removed": [0, 0], "spells": [0, 0], "potions": [0, 0]}
    for m in alive_unordered(s):
        m["round"] = {}
        # Hufflepuff (WD-T17, A-50): starting the round on a challenge gives Advantage on the next test.
        if "hufflepuff" in m["traits"] and controls(s, m, "challenge"):
            m["round"]["huff"] = True
    steps = []
    # S0 (ruling A-04): quest refill back to 3.
    for seat in (0, 1):
        need = ACTIVE_QUESTS - len(s["players"][seat]["active"])
        if need > 0 and s["round"] > 1:
            steps.append({"step": "draw", "seat": seat, "pile": "quest", "n": need, "dest": "active", "vis": "all"})
    steps += [{"step": "coin", "purpose": "initiative"}, {"step": "start_refill"}]
    push_front(s, *steps)


def _h_start_refill(s: State, st: dict) -> None:
    sp = s["starting"]
    steps = []
    for seat in (sp, other(sp)):
        need = HAND_SIZE - len(s["players"][seat]["hand"])
        if need > 0:
            steps.append({"step": "draw", "seat": seat, "pile": "clash", "n": need, "dest": "hand", "vis": "owner"})
    steps.append({"step": "power_refills"})
    steps += _upkeep_steps(s, [sp, other(sp)], checkpoint="start")
    steps.append({"step": "instinctive_setup"})
    push_front(s, *steps)


def _upkeep_steps(s: State, seats: list[int], checkpoint: str) -> list[dict]:
    out = []
    for seat in seats:
        for u in s["players"][seat]["upkeep"]:
            if checkpoint == "start" or not u["paid"]:
                out.append({"step": "upkeep", "seat": seat, "spell": u["spell"]})
    return out


def _instinctive_spells(s: State, m: dict) -> list[str]:
    p = s["players"][m["seat"]]
    return sorted(x for x in m["spells"] if p["clocks"].get(x, 0) > 0)


def _h_instinctive_setup(s: State, st: dict) -> None:
    """1d, Instinctive Casting (WD-T18): each such model picks one of its clocked assigned spells."""
    s["ic_bonus"] = [[], []]
    steps = []
    # Most Groups hold no model with the trait: then no seat's models are listed and sorted
    # (``on_board``) to find none (issue 17, P1).
    for m in s["models"].values():
        if "instinctive_casting" in m["traits"]:
            sp = s["starting"] if s["starting"] is not None else 0
            for seat in (sp, other(sp)):
                for m in on_board(s, seat):
                    if "instinctive_casting" in m["traits"] and _instinctive_spells(s, m):
                        steps.append({"step": "instinctive", "seat": seat, "model": m["uid"]})
            break
    steps.append({"step": "cooldown"})
    push_new(s, steps)  # made here, held nowhere else


def _h_cooldown(s: State, st: dict) -> None:
    """1d (L597-611, WD-69): every clock drops by one (those picked by Instinctive Casting one
    more); clocks at 0 go and their spells return to the Spellbook; Locks go."""
    picked = s.pop("ic_bonus", None) or [[], []]
    for seat in (0, 1):
        p = s["players"][seat]
        if p["clocks"]:
            bonus = set(picked[seat])
            for sp in sorted(p["clocks"]):
                p["clocks"][sp] -= 2 if sp in bonus else 1
                if p["clocks"][sp] <= 0:
                    del p["clocks"][sp]
                    _return_spell(s, seat, sp)
    # Each living model's own clocks and artifacts, in the state's order: no model's change reads
    # another's (``alive_unordered``), and both seats' are taken in one pass (issue 17, P1).
    for m in s["models"].values():
        if m["removed"]:
            continue
        clocks = m["innate_clocks"]
        if clocks:
            for sp in sorted(clocks):
                clocks[sp] -= 1
                if clocks[sp] <= 0:
                    del clocks[sp]
        for a in m["artifacts"]:
            a["locked"] = False
            a["used"] = False
    s["phase"] = "activation"
    s["turn"] = 0
    s["queue"].insert(0, {"step": "activate", "seat": s["starting"]})


def _return_spell(s: State, seat: int, sp: str) -> None:
    for m in s["models"].values():
        if m["seat"] == seat and sp in m["spells"]:
            if any(u["spell"] == sp for u in s["players"][seat]["upkeep"]):
                return
            m["spells"].remove(sp)
    if sp not in s["players"][seat]["spellbook"]:
        s["players"][seat]["spellbook"].append(sp)
        s["players"][seat]["spellbook"].sort()


def _next_activation(s: State) -> bool:
    """The next activation's window, or the end phase. True when it queued an activate step, at
    which ``run`` stops at once, quiet: the game is not over (``_skip_decision``)."""
    s["turn"] += 1
    s["act"] = None
    if s["game_over"] or s["turn"] >= 2 * ACTIVATIONS:
        s["queue"].insert(0, {"step": "end_phase"})
        return False
    seat = s["starting"] if s["turn"] % 2 == 0 else 1 - s["starting"]
    if not any_alive(s, seat):
        # A player with no model left cannot activate; the game is over anyway (A-42).
        s["queue"].insert(0, {"step": "end_phase"})
        return False
    s["queue"].insert(0, {"step": "activate", "seat": seat})
    return True


def _h_activation_end(s: State, st: dict) -> None:
    _end_activation(s, s["models"][st["model"]])


def _end_activation(s: State, m: dict) -> bool:
    """A3: Burning takes 1 Impact and goes; Slow ends; the Activation marker goes on (WD-71).
    Without a hit, the "next_activation" step queued here was always the next one ``run`` took,
    at once and quiet like this one, so it runs here (issue 17, P1). True when the next
    activation's window is in front (``_next_activation``)."""
    if not m["removed"]:
        m["markers"] += 1
        m["slow"] = 0
        m["next_adv"] = 0  # Slytherin's Advantage lasts only until this activation ends (WD-T36)
        if m["burning"]:
            m["burning"] = 0
            push_front(
                s, {"step": "hit", "model": m["uid"], "n": 1, "by": None, "resist": False}, {"step": "next_activation"}
            )
            return False
    return _next_activation(s)


def _h_next_activation(s: State, st: dict) -> None:
    _next_activation(s)


def _h_end_phase(s: State, st: dict) -> None:
    """3a-3d (L731-763)."""
    s["phase"] = "end"
    sp = s["starting"]
    steps = []
    # Most rounds end with no model poisoned: then no seat's models are listed and sorted for it
    # (``on_board``; issue 17, P1).
    poisoned = False
    for m in s["models"].values():
        if m["poison"] > 0 and not m["removed"]:
            poisoned = True
            break
    for seat in (sp, other(sp)):
        # Upkept auras act at the end of the round (A-68).
        for u in s["players"][seat]["upkeep"]:
            for e in pack(s).spells[u["spell"]]["effects"]:
                if e["op"] == "aura":
                    src = s["models"][u["caster"]]
                    if not src["removed"] and src["hex"]:
                        for o in on_board(s, other(seat)):
                            if geometry.distance(hex_of(src), hex_of(o)) <= e["radius"]:
                                steps.append(
                                    {"step": "hit", "model": o["uid"], "n": e["n"], "by": seat, "resist": False}
                                )
        # Fire markers on the board burn the opposing models within their radius (A-68, WD-99).
        for x in s.get("markers", []):
            if x["seat"] == seat and x["mark"] == "fire":
                for o in on_board(s, other(seat)):
                    if geometry.distance(geometry.parse(x["hex"]), hex_of(o)) <= x["radius"]:
                        steps.append({"step": "hit", "model": o["uid"], "n": x["n"], "by": seat, "resist": False})
        if poisoned:
            for m in on_board(s, seat):
                if m["poison"] > 0:
                    steps.append({"step": "poison", "model": m["uid"]})
    steps.append({"step": "end_statuses"})
    steps.append({"step": "score_quests"})
    steps.append({"step": "end_round"})
    push_new(s, steps)  # each made here


def _h_poison(s: State, st: dict) -> None:
    """A-41: 1 Impact, then one Poison marker goes."""
    m = s["models"][st["model"]]
    if m["removed"]:
        return
    m["poison"] -= 1
    push_front(s, {"step": "hit", "model": m["uid"], "n": 1, "by": None, "resist": False})


def _h_end_statuses(s: State, st: dict) -> None:
    # Concealment and wards from spent sources end in 3a (A-37); upkept ones stay.
    for m in alive_unordered(s):
        # Filtered only where there is something to filter: most models have no Concealment and
        # no ward, and a comprehension costs a function and a frame (issue 17, P1). Every model
        # is made with lists of its own (``_install_group``), so an empty one kept is not shared.
        if m["conceal"]:
            m["conceal"] = [c for c in m["conceal"] if c.get("upkeep")]
        if m["ward"]:
            m["ward"] = [w for w in m["ward"] if w.get("upkeep")]


def _h_score_quests(s: State, st: dict) -> None:
    sp = s["starting"] if s["starting"] is not None else 0
    for seat in (sp, other(sp)):
        score_quests(s, seat, lightning_only=False)


def _h_end_round(s: State, st: dict) -> None:
    for m in alive_unordered(s):
        m["markers"] = 0
        m["animal"] = False
    if s["round"] >= ROUNDS or s["game_over"]:
        # The game ends with no step left: ``run`` finds the queue empty and stops, where asking
        # after every automatic step whether it ended the game cost a test a step (issue 17, P1).
        # Only this step ends a game, and it empties the list in place: a fold reads the queue
        # once for its whole stream and tells a game that is over by its empty queue
        # (``test_fold_fast_paths.py`` holds both along playouts).
        s["phase"] = "over"
        s["queue"].clear()
        return
    s["queue"].insert(0, {"step": "round_start"})


# ====================================================================== draws (lazy, private)


def _reserved(s: State, seat: int) -> int:
    """Cards of ``seat``'s deck owed as face-down Empowerment cards (each side's ``emp`` less
    ``_emp_set``), in the clash and in the clash it interrupted."""
    n = 0
    cl = s.get("clash")
    if cl:
        # The two sides unrolled: this runs on every Clash draw (issue 17, P1). Both keys are in
        # every clash (``open_clash``). A side owing no card is passed over first: its ``emp`` is
        # 0 until an Empowerment is paid, and the cards set aside for it (``emp_fixed``,
        # ``emp_known``) are never more than ``emp`` (``_refill_clash``, ``empower``) and go with
        # it (``_h_emp_draw``), so with ``emp`` at 0 the side owes nothing.
        side = cl["att"]
        if side["emp"] and side["seat"] == seat:
            n += side["emp"] - len(side["emp_fixed"]) - len(side.get("emp_known", ()))
        side = cl["def"]
        if side and side["emp"] and side["seat"] == seat:
            n += side["emp"] - len(side["emp_fixed"]) - len(side.get("emp_known", ()))
    # The clash it interrupted: read without a method call when the state has none.
    cl = s["outer_clash"] if "outer_clash" in s else None
    if cl:
        for name in _SIDES:
            side = cl[name]
            if side and side["seat"] == seat:
                n += side["emp"] - len(side["emp_fixed"]) - len(side.get("emp_known", ()))
    return n


#: A clash's two sides, named once (no tuple made per call; issue 17, P1).
_SIDES = ("att", "def")


def _emp_set(side: dict) -> int:
    """Empowerment cards already set aside: unseen ones from an old deck, and known ones (Leadership)."""
    return len(side["emp_fixed"]) + len(side.get("emp_known", []))


def _refill_clash(s: State, seat: int) -> None:
    """WD-38/39 (L341-345): the discard pile becomes the deck; the opponent refills the pool at
    the end of the action. Cards reserved as face-down Empowerment cards stay what they were."""
    p = s["players"][seat]
    res = _reserved(s, seat)
    if res:
        fixed = list(p["deck"])
        for cl in (s.get("clash"), s.get("outer_clash")):
            if cl:
                for side in ("att", "def"):
                    if cl.get(side) and cl[side]["seat"] == seat:
                        need = cl[side]["emp"] - _emp_set(cl[side])
                        cl[side]["emp_fixed"] += fixed[:need]
                        fixed = fixed[need:]
    p["deck"] = sorted(p["discard"])
    p["discard"] = []
    p["known_top"] = []
    P(s, other(seat))["refill_due"] = True


def _prepare_draw(s: State, st: dict) -> bool:
    """Get a draw ready: refill the deck when needed. True when the step was consumed here."""
    p = s["players"][st["seat"]]
    if st["pile"] == "quest":
        if st["dest"] == "active":
            st["n"] = min(st["n"], ACTIVE_QUESTS - len(p["active"]))
        if st["n"] <= 0:
            s["queue"].pop(0)
            return True
        if not p["quest_deck"] and p["quest_discard"]:
            p["quest_deck"] = sorted(p["quest_discard"])  # WD-46, ruling A-62: automatic
            p["quest_discard"] = []
        if not p["quest_deck"]:
            s["queue"].pop(0)
            return True
        return False
    if st["dest"] == "hand":
        # Ruling A-59: draws never take a hand above 3.
        st["n"] = min(st["n"], HAND_SIZE - len(p["hand"]))
        if st["n"] <= 0:
            s["queue"].pop(0)
            return True
    if p["known_top"] and st["dest"] != "known_top":
        # Leadership (A-51): the owner knows these cards; they come off first, with no chance.
        s["queue"].pop(0)
        take = p["known_top"][: st["n"]]
        p["known_top"] = p["known_top"][len(take) :]
        for c in take:
            _put_card(s, st, c)
        if st["n"] > len(take):
            push_front(s, dict(st, n=st["n"] - len(take)))
        return True
    avail = len(p["deck"]) - _reserved(s, st["seat"])
    if avail <= 0:
        if st["dest"] == "known_top":
            s["queue"].pop(0)
            return True
        if p["discard"]:
            _refill_clash(s, st["seat"])
            return True
        # A-14: nothing to draw; a needed card counts as a blank 0, a hand draw is skipped.
        s["queue"].pop(0)
        if st["dest"] != "hand":
            s["blank"] = s.get("blank", 0) + 1
            _put_card(s, st, f"blank{s['blank']}")
            if st["n"] > 1:
                push_front(s, dict(st, n=st["n"] - 1))
        return True
    return False


def chance_spec(s: State) -> dict | None:
    st = waiting(s)
    if st is None or st["step"] not in CHANCES:
        return None
    if st["step"] == "coin":
        return {"kind": "dice", "dice": [[0, 1]], "visible_to": "all", "label": f"coin ({st['purpose']})"}
    if st["step"] == "unveil":
        return draw_spec(pool=6, count=6, visible_to="all", label="challenge identities")
    if st["step"] == "horcrux_deal":
        pool = _set_aside_horcruxes(s, st["seat"])
        return draw_spec(pool=len(pool), count=len(st["models"]), visible_to="all", label="Horcrux deal")
    p = s["players"][st["seat"]]
    vis = "all" if st["vis"] == "all" else [st["seat"]]
    if st["pile"] == "quest":
        return draw_spec(
            pool=len(p["quest_deck"]),
            count=min(st["n"], len(p["quest_deck"])),
            visible_to=vis,
            label=f"seat {st['seat']} quest draw",
        )
    avail = len(p["deck"]) - _reserved(s, st["seat"])
    return draw_spec(
        pool=len(p["deck"]), count=min(st["n"], avail), visible_to=vis, label=f"seat {st['seat']} clash {st['dest']}"
    )


def possible_draw(s: State, outcome) -> bool:
    """True when the front step is a Clash or Quest draw and ``outcome`` is a possible result of
    its spec (``check_outcome(chance_spec(s), outcome)`` passes), told without building the spec
    and its label: most chance events are such draws (issue 17, P1). False means "ask the spec",
    which accepts, refuses or raises as it always did. ``test_possible_draw.py`` holds this to
    the spec along playouts, for the outcome played and for near misses of it."""
    if type(outcome) is not list or not s["queue"]:
        return False
    st = s["queue"][0]
    if st["step"] != "draw":
        return False
    seat = st["seat"]
    if type(seat) is not int or seat < 0:
        return False  # draw_spec's own check of ``visible_to`` decides
    p = s["players"][seat]
    if st["pile"] == "quest":
        pool = len(p["quest_deck"])
        count = min(st["n"], pool)
    else:
        pool = len(p["deck"])
        count = min(st["n"], pool - _reserved(s, seat))
    if type(count) is not int or not 0 < count <= pool or len(outcome) != count:
        return False
    for v in outcome:
        if type(v) is not int or not 0 <= v < pool:
            return False
    return count == 1 or len(set(outcome)) == count


def draw_pool(s: State) -> list:
    st = waiting(s)
    if st is None or st["step"] not in CHANCES or st["step"] == "coin":
        raise IllegalAction("No card draw is due.", code="no_draw_due")
    if st["step"] == "unveil":
        return sorted(pack(s).challenges)
    if st["step"] == "horcrux_deal":
        return _set_aside_horcruxes(s, st["seat"])
    p = s["players"][st["seat"]]
    if st["pile"] == "quest":
        return list(p["quest_deck"])
    return [s["cards"][c] for c in p["deck"]]


def resolve_chance(s: State, outcome) -> None:
    st = s["queue"].pop(0)
    if st["step"] == "coin":
        v = outcome[0]
        if st["purpose"] == "setup":
            s["coin_winner"] = v
            s["queue"].insert(0, {"step": "choose_map", "seat": v})
        else:
            s["starting"] = v
        return
    if st["step"] == "unveil":
        unveil(s, outcome)
        return
    if st["step"] == "horcrux_deal":
        pool = _set_aside_horcruxes(s, st["seat"])
        maker = s["models"][st["maker"]]
        for uid, idx in zip(st["models"], outcome):
            s["models"][uid]["artifacts"].append({"id": pool[idx], "locked": False, "used": False})
            maker["horcruxes"].append({"kind": "artifact", "model": uid, "id": pool[idx]})
        return
    p = s["players"][st["seat"]]
    if st["pile"] == "quest":
        picked = list(map(p["quest_deck"].__getitem__, outcome))  # all taken before any is removed
        for q in picked:
            p["quest_deck"].remove(q)
            if st["dest"] == "qhand":
                p["qhand"].append(q)
            else:
                p["active"].append(q)
        return
    picked = list(map(p["deck"].__getitem__, outcome))  # all taken before any is removed
    for c in picked:
        p["deck"].remove(c)
        _put_card(s, st, c)
    rest = st["n"] - len(picked)
    if rest > 0:
        push_front(s, dict(st, n=rest))


def _put_card(s: State, st: dict, c: str) -> None:
    dest = st["dest"]
    if dest == "hand":
        s["players"][st["seat"]]["hand"].append(c)
        return
    if dest == "known_top":
        s["players"][st["seat"]]["known_top"].append(c)
        return
    if dest == "brave":
        s["brave"]["cards"].append(c)
        return
    if dest == "brave_extra":
        s["brave"]["extra"].append(c)
        return
    side = s["clash"][st["side"]]
    if dest == "reveal":
        side["revealed"].append(c)
    elif dest == "extra":
        side["extra"].append(c)
    elif dest == "emp":
        side["emp_cards"].append(c)


# ====================================================================== helpers for decisions


#: The windows ``_skip_decision`` closes when they have one answer or none.
_SKIPPABLE = frozenset(
    {
        "react",
        "empower",
        "swap",
        "early",
        "late",
        "resist",
        "pick",
        "brave_pick",
        "upkeep",
        "place",
        "horcrux_pick",
        "instinctive",
        "horcrux_lose",
        "leadership",
        "order",
        "dark_lord",
    }
)


#: The steps ``run`` stops at as they are, with no test: the chances other than a draw (which
#: ``_prepare_draw`` may consume), and the decisions ``_skip_decision`` never skips (it closes
#: only ``_SKIPPABLE`` windows and an ``activate`` step once the game is over). Most ``run``s end
#: at an act or activate step (issue 17, P1).
_WAITS = frozenset((CHANCES - {"draw"}) | (DECISIONS - _SKIPPABLE - {"activate"}))


#: The windows whose only answer, when they have one, is a pass that writes nothing.
_PASS_ALONE = frozenset({"swap", "empower", "early", "late"})


def _skip_decision(s: State, st: dict) -> bool:
    """Windows where the seat has no real option close at once (spec section 6, point 1)."""
    name = st["step"]
    # ``run`` closes the swap, Empowerment and lower-part windows itself (``_PASS_ALONE``); of
    # the rest, a clash's pick windows reach here most often (issue 17, P1).
    if name == "pick" and not st.get("worst"):
        # ``options`` lists one answer per revealed card, and ``decide`` keeps the one card
        # of a window with one answer: both without the lists (issue 17, P1).
        cards = s["clash"][st["side"]]["revealed"]
        if len(cards) >= 2:
            return False
        s["queue"].pop(0)
        if cards:
            _keep(s, st["side"], cards[0])
        return True
    if name not in _SKIPPABLE:
        if name == "activate" and s["game_over"]:
            s["queue"].pop(0)
            s["queue"].insert(0, {"step": "end_phase"})
            return True
        return False
    if name == "react":
        if _some_reaction(s, st):
            return False
        # ``options`` would list the pass alone, which ``decide`` answers by writing nothing.
        s["queue"].pop(0)
        return True
    if name == "place" and st["kind"] in ("move", "teleport"):
        # Listing every destination (and in version 2 every riskier route) only to see whether
        # there is one beside "stay" cost most of this function (issue 17, P1).
        m = s["models"][st["model"]]
        if m["removed"] or m["hex"] is None or not place_somewhere(s, st, m):
            s["queue"].pop(0)
            return True
        return False
    if _two_options(s, st):
        return False
    opts = options(s, st)
    if name == "place":
        if not opts or (len(opts) == 1 and opts[0].get("hex") is None):
            s["queue"].pop(0)
            return True
        if len(opts) == 1:
            s["queue"].pop(0)
            decide(s, st["seat"], opts[0], popped=st)
            return True
        return False
    if len(opts) <= 1:
        s["queue"].pop(0)
        if opts:
            decide(s, st["seat"], opts[0], popped=st)
        return True
    return False


#: The pack's reaction spells, by pack.
_REACTIONS = content.PerPack(
    lambda pack_id: frozenset(sp for sp, card in content.load(pack_id).spells.items() if card["reaction"])
)


def _some_reaction(s: State, st: dict) -> bool:
    """Does ``options(s, st)`` list a reaction beside the pass, for the react window ``st``? The
    same spells are asked the same questions, but with no sorted list of them or of the seat's
    models, and the first reaction answers: most react windows offer the pass alone and close at
    once (issue 17, P1). ``test_skip_window.py`` holds it to the list at every clash of varied games."""
    seat = st["seat"]
    tgt = s["models"][s["clash"]["target"]]
    if not can_cast(tgt):
        return False  # ``_reaction_caster`` finds no caster
    p = s["players"][seat]
    reactions = _REACTIONS[s["pack"]]
    for sp in p["spellbook"]:
        if sp in reactions and not p["clocks"].get(sp) and _reaction_caster(s, seat, sp, tgt) is not None:
            return True
    # The seat's living models (``state.LIVING``), not every model filtered by seat and removal;
    # most hold no reaction of their own, told in C. The first reaction found answers, so the
    # order of the models does not matter (issue 17, P1).
    models = s["models"]
    for uid in living_of(s)[seat]:
        innate = models[uid]["innate"]
        if innate and not reactions.isdisjoint(innate):
            for sp in innate:
                if sp in reactions and not p["clocks"].get(sp) and _reaction_caster(s, seat, sp, tgt) is not None:
                    return True
    return False


def _two_options(s: State, st: dict) -> bool:
    """True only when ``options(s, st)`` holds two answers or more, told without listing them
    (issue 17, P1): a window with one answer or none is skipped, and most windows were listed
    only to find that they are not. False means "list them and see"."""
    name = st["step"]
    # In about the order of how often they are asked: every clash has its swap and lower-part
    # windows, spells their Empowerment windows (issue 17, P1).
    if name == "swap":
        side = s["clash"][st["side"]]
        # keep_card, and a swap per card in hand unless the model is an Apprentice
        return bool(s["players"][side["seat"]]["hand"]) and "apprentice" not in s["models"][side["model"]]["traits"]
    if name == "early" or name == "late":
        side = s["clash"][st["side"]]
        return _lower_usable(s, side["seat"], side["kept"], name)  # as empower: not lowering, and paid
    if name == "empower":
        c = s["clash"]
        cost, colour = _empower_cost(s, c, st["side"])
        # pass, and at least one paid answer (``_paid`` never lists none)
        return cost is not None and can_pay(s["players"][c[st["side"]]["seat"]], cost, colour)
    if name == "leadership" or name == "dark_lord":
        return True  # peek or pass, dark_lord or pass
    if name == "order":
        return len(s["players"][st["seat"]]["known_top"]) >= 2  # one answer per permutation
    return False


# ====================================================================== movement


def move_points(s: State, m: dict) -> int:
    """WD-78: 3, or Animagus N in Animal Form; Fast +1, Lightning Fast +2, artifacts; Slow -X."""
    # Worked out twice a move: the traits read in place, and the artifacts' passive effects
    # only when the model has artifacts (issue 17, P1).
    base = pack(s).params["animagus"]["move"] if m["animal"] else 3
    traits = m["traits"]
    if "fast" in traits:
        base += 1
    if "lightning_fast" in traits:
        base += 2
    if m["artifacts"]:
        base += _passive_total(s, m, "move")
    base -= m["slow"]
    return base if base > 0 else 0


def _passive_total(s: State, m: dict, op: str) -> int:
    """What the passive effects ``op`` of the model's unlocked artifacts add up to, summed without
    a list of the effects or a generator: a move's points are worked out twice a move (issue 17,
    P1; ``test_passive_totals.py`` holds it to the sum over that list)."""
    n = 0
    arts = m["artifacts"]
    if arts:
        table = pack(s).artifacts
        for a in arts:
            if not a["locked"]:
                for e in table[a["id"]]["passive"]:
                    if e["op"] == op:
                        n += e["n"]
    return n


def _step_rules(s: State, m: dict):
    """``terrain_of(h)``, ``steps(h)``, the memo's ``searches`` and ``entry(n)`` (``_Entries``) for a
    route search of model ``m``. The three functions are pure functions of the board, its
    overlays and the mover's Fly and Scout, and route searches run several times
    an event (listing moves, checking one, making it), so their answers are kept per board and
    overlay set (issue 17, P1); so is each search's own result (``searches``, by kind, start and
    points), which depends on nothing else: only the models in the way, applied after it, do.
    The board and overlay set are named by the state's ``board_key`` (a derived key rewritten by
    every write to them), one text whose hash Python keeps, where a tuple of every overlay's
    fields was built and hashed per call (issue 17, P1)."""
    traits = m["traits"]
    bk = s.get("board_key")
    if bk is None:
        bk = board_key_of(s)  # a state saved before the key was kept
    seen, moves, searches = _step_memo(bk, "fly" in traits, "scout" in traits)
    if not seen:
        # Every space's ``terrain(s, h)`` at once: the printed terrain, except where an overlay
        # lies (a space no overlay names is its printed terrain, or None off the board). Each
        # overlaid space's is worked out here from the key's fields, as ``terrain`` works it out
        # from the first overlay under the board's name of the space, with no call and no search
        # of the overlays per space (issue 17, P1).
        b = board(s)
        printed, names = b.terrain, b.keys
        seen.update(printed)
        first: dict = {}
        for o in map(_OVERLAY_FIELDS, s["overlays"]):
            if o[0] not in first:
                first[o[0]] = o
        # Only a face-up Terrain overlay, or a face-down one on a map with a Mystery rule, makes a
        # space's terrain other than the printed one ``seen`` holds: any other overlay is passed
        # over before its space is worked out (issue 17, P1). An overlay named otherwise than the
        # board names its space is not the one ``terrain`` finds there.
        mystery = _mystery_terrain(s["pack"], s["map"])
        for k, o in first.items():
            if o[2]:  # face up
                if o[1] != "terrain":
                    continue
                t = o[3]
            elif mystery:
                t = mystery
            else:
                continue
            h = _parse(k)
            if h in printed and names[h] == k:
                seen[h] = t
    # A kept step list is read in C; only a space's first ask runs ``_Steps.__missing__``.
    return seen.get, moves.__getitem__, searches, moves.entries.__getitem__


#: What of an overlay can change a space's terrain (``terrain``), as one tuple per overlay.
_OVERLAY_FIELDS = itemgetter("hex", "kind", "face_up", "what")
#: ``geometry.parse``, read with no attribute lookup.
_parse = geometry.parse


#: The six steps of the grid, in ``geometry.neighbours``' order.
_DIRECTIONS = geometry.DIRECTIONS
#: A step into a space whose terrain asks nothing more: one point, not Dangerous.
_OPEN_STEP = (1, 0)


class _Around(dict):
    """The six steps from a space, each with the distance to the goal it leaves, nearest first, by
    the space's offset from the goal (``x - goal`` in each coordinate): a search toward one space
    drops a neighbour the points left cannot bring back, and reads the steps up to the first too
    far, where it worked out each neighbour's distance from its offset (issue 17, P1). The order of
    the steps changes no answer (``_wanted_route_bits`` looks for any route with a wanted count).
    Written out for offsets up to five spaces (``test_nearer_routes.py`` derives them from the
    grid), so that no process works them out; a farther one is worked out on its first ask and
    kept."""

    def __missing__(self, offset):
        oq, o_r = offset
        out = []
        for dq, dr in _DIRECTIONS:
            x, y = oq + dq, o_r + dr
            out.append((dq, dr, (abs(x) + abs(y) + abs(x + y)) // 2))
        out.sort(key=itemgetter(2))
        self[offset] = out = tuple(out)
        return out


_AROUND = _Around(
    {
        (0, 0): ((1, 0, 1), (1, -1, 1), (0, -1, 1), (-1, 0, 1), (-1, 1, 1), (0, 1, 1)),
        (0, -1): ((0, 1, 0), (1, 0, 1), (-1, 1, 1), (1, -1, 2), (0, -1, 2), (-1, 0, 2)),
        (1, -1): ((-1, 1, 0), (-1, 0, 1), (0, 1, 1), (1, 0, 2), (1, -1, 2), (0, -1, 2)),
        (-1, 0): ((1, 0, 0), (1, -1, 1), (0, 1, 1), (0, -1, 2), (-1, 0, 2), (-1, 1, 2)),
        (1, 0): ((-1, 0, 0), (0, -1, 1), (-1, 1, 1), (1, 0, 2), (1, -1, 2), (0, 1, 2)),
        (-1, 1): ((1, -1, 0), (1, 0, 1), (0, -1, 1), (-1, 0, 2), (-1, 1, 2), (0, 1, 2)),
        (0, 1): ((0, -1, 0), (1, -1, 1), (-1, 0, 1), (1, 0, 2), (-1, 1, 2), (0, 1, 2)),
        (0, -2): ((0, 1, 1), (1, 0, 2), (-1, 1, 2), (1, -1, 3), (0, -1, 3), (-1, 0, 3)),
        (1, -2): ((-1, 1, 1), (0, 1, 1), (1, 0, 2), (-1, 0, 2), (1, -1, 3), (0, -1, 3)),
        (2, -2): ((-1, 1, 1), (-1, 0, 2), (0, 1, 2), (1, 0, 3), (1, -1, 3), (0, -1, 3)),
        (-1, -1): ((1, 0, 1), (0, 1, 1), (1, -1, 2), (-1, 1, 2), (0, -1, 3), (-1, 0, 3)),
        (2, -1): ((-1, 0, 1), (-1, 1, 1), (0, -1, 2), (0, 1, 2), (1, 0, 3), (1, -1, 3)),
        (-2, 0): ((1, 0, 1), (1, -1, 2), (0, 1, 2), (0, -1, 3), (-1, 0, 3), (-1, 1, 3)),
        (2, 0): ((-1, 0, 1), (0, -1, 2), (-1, 1, 2), (1, 0, 3), (1, -1, 3), (0, 1, 3)),
        (-2, 1): ((1, 0, 1), (1, -1, 1), (0, -1, 2), (0, 1, 2), (-1, 0, 3), (-1, 1, 3)),
        (1, 1): ((0, -1, 1), (-1, 0, 1), (1, -1, 2), (-1, 1, 2), (1, 0, 3), (0, 1, 3)),
        (-2, 2): ((1, -1, 1), (1, 0, 2), (0, -1, 2), (-1, 0, 3), (-1, 1, 3), (0, 1, 3)),
        (-1, 2): ((1, -1, 1), (0, -1, 1), (1, 0, 2), (-1, 0, 2), (-1, 1, 3), (0, 1, 3)),
        (0, 2): ((0, -1, 1), (1, -1, 2), (-1, 0, 2), (1, 0, 3), (-1, 1, 3), (0, 1, 3)),
        (0, -3): ((0, 1, 2), (1, 0, 3), (-1, 1, 3), (1, -1, 4), (0, -1, 4), (-1, 0, 4)),
        (1, -3): ((-1, 1, 2), (0, 1, 2), (1, 0, 3), (-1, 0, 3), (1, -1, 4), (0, -1, 4)),
        (2, -3): ((-1, 1, 2), (0, 1, 2), (1, 0, 3), (-1, 0, 3), (1, -1, 4), (0, -1, 4)),
        (3, -3): ((-1, 1, 2), (-1, 0, 3), (0, 1, 3), (1, 0, 4), (1, -1, 4), (0, -1, 4)),
        (-1, -2): ((1, 0, 2), (0, 1, 2), (1, -1, 3), (-1, 1, 3), (0, -1, 4), (-1, 0, 4)),
        (3, -2): ((-1, 0, 2), (-1, 1, 2), (0, -1, 3), (0, 1, 3), (1, 0, 4), (1, -1, 4)),
        (-2, -1): ((1, 0, 2), (0, 1, 2), (1, -1, 3), (-1, 1, 3), (0, -1, 4), (-1, 0, 4)),
        (3, -1): ((-1, 0, 2), (-1, 1, 2), (0, -1, 3), (0, 1, 3), (1, 0, 4), (1, -1, 4)),
        (-3, 0): ((1, 0, 2), (1, -1, 3), (0, 1, 3), (0, -1, 4), (-1, 0, 4), (-1, 1, 4)),
        (3, 0): ((-1, 0, 2), (0, -1, 3), (-1, 1, 3), (1, 0, 4), (1, -1, 4), (0, 1, 4)),
        (-3, 1): ((1, 0, 2), (1, -1, 2), (0, -1, 3), (0, 1, 3), (-1, 0, 4), (-1, 1, 4)),
        (2, 1): ((0, -1, 2), (-1, 0, 2), (1, -1, 3), (-1, 1, 3), (1, 0, 4), (0, 1, 4)),
        (-3, 2): ((1, 0, 2), (1, -1, 2), (0, -1, 3), (0, 1, 3), (-1, 0, 4), (-1, 1, 4)),
        (1, 2): ((0, -1, 2), (-1, 0, 2), (1, -1, 3), (-1, 1, 3), (1, 0, 4), (0, 1, 4)),
        (-3, 3): ((1, -1, 2), (1, 0, 3), (0, -1, 3), (-1, 0, 4), (-1, 1, 4), (0, 1, 4)),
        (-2, 3): ((1, -1, 2), (0, -1, 2), (1, 0, 3), (-1, 0, 3), (-1, 1, 4), (0, 1, 4)),
        (-1, 3): ((1, -1, 2), (0, -1, 2), (1, 0, 3), (-1, 0, 3), (-1, 1, 4), (0, 1, 4)),
        (0, 3): ((0, -1, 2), (1, -1, 3), (-1, 0, 3), (1, 0, 4), (-1, 1, 4), (0, 1, 4)),
        (0, -4): ((0, 1, 3), (1, 0, 4), (-1, 1, 4), (1, -1, 5), (0, -1, 5), (-1, 0, 5)),
        (1, -4): ((-1, 1, 3), (0, 1, 3), (1, 0, 4), (-1, 0, 4), (1, -1, 5), (0, -1, 5)),
        (2, -4): ((-1, 1, 3), (0, 1, 3), (1, 0, 4), (-1, 0, 4), (1, -1, 5), (0, -1, 5)),
        (3, -4): ((-1, 1, 3), (0, 1, 3), (1, 0, 4), (-1, 0, 4), (1, -1, 5), (0, -1, 5)),
        (4, -4): ((-1, 1, 3), (-1, 0, 4), (0, 1, 4), (1, 0, 5), (1, -1, 5), (0, -1, 5)),
        (-1, -3): ((1, 0, 3), (0, 1, 3), (1, -1, 4), (-1, 1, 4), (0, -1, 5), (-1, 0, 5)),
        (4, -3): ((-1, 0, 3), (-1, 1, 3), (0, -1, 4), (0, 1, 4), (1, 0, 5), (1, -1, 5)),
        (-2, -2): ((1, 0, 3), (0, 1, 3), (1, -1, 4), (-1, 1, 4), (0, -1, 5), (-1, 0, 5)),
        (4, -2): ((-1, 0, 3), (-1, 1, 3), (0, -1, 4), (0, 1, 4), (1, 0, 5), (1, -1, 5)),
        (-3, -1): ((1, 0, 3), (0, 1, 3), (1, -1, 4), (-1, 1, 4), (0, -1, 5), (-1, 0, 5)),
        (4, -1): ((-1, 0, 3), (-1, 1, 3), (0, -1, 4), (0, 1, 4), (1, 0, 5), (1, -1, 5)),
        (-4, 0): ((1, 0, 3), (1, -1, 4), (0, 1, 4), (0, -1, 5), (-1, 0, 5), (-1, 1, 5)),
        (4, 0): ((-1, 0, 3), (0, -1, 4), (-1, 1, 4), (1, 0, 5), (1, -1, 5), (0, 1, 5)),
        (-4, 1): ((1, 0, 3), (1, -1, 3), (0, -1, 4), (0, 1, 4), (-1, 0, 5), (-1, 1, 5)),
        (3, 1): ((0, -1, 3), (-1, 0, 3), (1, -1, 4), (-1, 1, 4), (1, 0, 5), (0, 1, 5)),
        (-4, 2): ((1, 0, 3), (1, -1, 3), (0, -1, 4), (0, 1, 4), (-1, 0, 5), (-1, 1, 5)),
        (2, 2): ((0, -1, 3), (-1, 0, 3), (1, -1, 4), (-1, 1, 4), (1, 0, 5), (0, 1, 5)),
        (-4, 3): ((1, 0, 3), (1, -1, 3), (0, -1, 4), (0, 1, 4), (-1, 0, 5), (-1, 1, 5)),
        (1, 3): ((0, -1, 3), (-1, 0, 3), (1, -1, 4), (-1, 1, 4), (1, 0, 5), (0, 1, 5)),
        (-4, 4): ((1, -1, 3), (1, 0, 4), (0, -1, 4), (-1, 0, 5), (-1, 1, 5), (0, 1, 5)),
        (-3, 4): ((1, -1, 3), (0, -1, 3), (1, 0, 4), (-1, 0, 4), (-1, 1, 5), (0, 1, 5)),
        (-2, 4): ((1, -1, 3), (0, -1, 3), (1, 0, 4), (-1, 0, 4), (-1, 1, 5), (0, 1, 5)),
        (-1, 4): ((1, -1, 3), (0, -1, 3), (1, 0, 4), (-1, 0, 4), (-1, 1, 5), (0, 1, 5)),
        (0, 4): ((0, -1, 3), (1, -1, 4), (-1, 0, 4), (1, 0, 5), (-1, 1, 5), (0, 1, 5)),
        (0, -5): ((0, 1, 4), (1, 0, 5), (-1, 1, 5), (1, -1, 6), (0, -1, 6), (-1, 0, 6)),
        (1, -5): ((-1, 1, 4), (0, 1, 4), (1, 0, 5), (-1, 0, 5), (1, -1, 6), (0, -1, 6)),
        (2, -5): ((-1, 1, 4), (0, 1, 4), (1, 0, 5), (-1, 0, 5), (1, -1, 6), (0, -1, 6)),
        (3, -5): ((-1, 1, 4), (0, 1, 4), (1, 0, 5), (-1, 0, 5), (1, -1, 6), (0, -1, 6)),
        (4, -5): ((-1, 1, 4), (0, 1, 4), (1, 0, 5), (-1, 0, 5), (1, -1, 6), (0, -1, 6)),
        (5, -5): ((-1, 1, 4), (-1, 0, 5), (0, 1, 5), (1, 0, 6), (1, -1, 6), (0, -1, 6)),
        (-1, -4): ((1, 0, 4), (0, 1, 4), (1, -1, 5), (-1, 1, 5), (0, -1, 6), (-1, 0, 6)),
        (5, -4): ((-1, 0, 4), (-1, 1, 4), (0, -1, 5), (0, 1, 5), (1, 0, 6), (1, -1, 6)),
        (-2, -3): ((1, 0, 4), (0, 1, 4), (1, -1, 5), (-1, 1, 5), (0, -1, 6), (-1, 0, 6)),
        (5, -3): ((-1, 0, 4), (-1, 1, 4), (0, -1, 5), (0, 1, 5), (1, 0, 6), (1, -1, 6)),
        (-3, -2): ((1, 0, 4), (0, 1, 4), (1, -1, 5), (-1, 1, 5), (0, -1, 6), (-1, 0, 6)),
        (5, -2): ((-1, 0, 4), (-1, 1, 4), (0, -1, 5), (0, 1, 5), (1, 0, 6), (1, -1, 6)),
        (-4, -1): ((1, 0, 4), (0, 1, 4), (1, -1, 5), (-1, 1, 5), (0, -1, 6), (-1, 0, 6)),
        (5, -1): ((-1, 0, 4), (-1, 1, 4), (0, -1, 5), (0, 1, 5), (1, 0, 6), (1, -1, 6)),
        (-5, 0): ((1, 0, 4), (1, -1, 5), (0, 1, 5), (0, -1, 6), (-1, 0, 6), (-1, 1, 6)),
        (5, 0): ((-1, 0, 4), (0, -1, 5), (-1, 1, 5), (1, 0, 6), (1, -1, 6), (0, 1, 6)),
        (-5, 1): ((1, 0, 4), (1, -1, 4), (0, -1, 5), (0, 1, 5), (-1, 0, 6), (-1, 1, 6)),
        (4, 1): ((0, -1, 4), (-1, 0, 4), (1, -1, 5), (-1, 1, 5), (1, 0, 6), (0, 1, 6)),
        (-5, 2): ((1, 0, 4), (1, -1, 4), (0, -1, 5), (0, 1, 5), (-1, 0, 6), (-1, 1, 6)),
        (3, 2): ((0, -1, 4), (-1, 0, 4), (1, -1, 5), (-1, 1, 5), (1, 0, 6), (0, 1, 6)),
        (-5, 3): ((1, 0, 4), (1, -1, 4), (0, -1, 5), (0, 1, 5), (-1, 0, 6), (-1, 1, 6)),
        (2, 3): ((0, -1, 4), (-1, 0, 4), (1, -1, 5), (-1, 1, 5), (1, 0, 6), (0, 1, 6)),
        (-5, 4): ((1, 0, 4), (1, -1, 4), (0, -1, 5), (0, 1, 5), (-1, 0, 6), (-1, 1, 6)),
        (1, 4): ((0, -1, 4), (-1, 0, 4), (1, -1, 5), (-1, 1, 5), (1, 0, 6), (0, 1, 6)),
        (-5, 5): ((1, -1, 4), (1, 0, 5), (0, -1, 5), (-1, 0, 6), (-1, 1, 6), (0, 1, 6)),
        (-4, 5): ((1, -1, 4), (0, -1, 4), (1, 0, 5), (-1, 0, 5), (-1, 1, 6), (0, 1, 6)),
        (-3, 5): ((1, -1, 4), (0, -1, 4), (1, 0, 5), (-1, 0, 5), (-1, 1, 6), (0, 1, 6)),
        (-2, 5): ((1, -1, 4), (0, -1, 4), (1, 0, 5), (-1, 0, 5), (-1, 1, 6), (0, 1, 6)),
        (-1, 5): ((1, -1, 4), (0, -1, 4), (1, 0, 5), (-1, 0, 5), (-1, 1, 6), (0, 1, 6)),
        (0, 5): ((0, -1, 4), (1, -1, 5), (-1, 0, 5), (1, 0, 6), (-1, 1, 6), (0, 1, 6)),
    }
)


class _Steps(dict):
    """(neighbour, cost to enter it, 1 if entering it is Dangerous) for each space a step from
    ``h`` may enter, by ``h``, each worked out on its first ask from the memo's terrain."""

    def __init__(self, seen: dict, fly: bool, scout: bool):
        super().__init__()
        self.seen = seen
        # (cost to enter, 1 if entering is Dangerous) by terrain; None: no step may enter it.
        self.enter = {
            "impassable": (1, 0) if fly else None,
            "difficult": (1, 0) if fly or scout else (2, 0),
            "dangerous": (1, 0) if fly else (1, 1),
        }
        self.entries = _Entries(seen, self.enter)

    def __missing__(self, h):
        seen, enter = self.seen, self.enter
        out = []
        # ``geometry.neighbours(h)``, in its order; a step is the neighbour and its entry, one
        # tuple added to another (fewer steps than reading out each field of the entry).
        q, r = h
        for n in ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)):
            t = seen.get(n)
            if t is not None:
                e = enter.get(t, _OPEN_STEP)
                if e is not None:
                    out.append((n,) + e)
        self[h] = out
        return out


class _Entries(dict):
    """(cost to enter, 1 if entering it is Dangerous) for a step into space ``n``, by ``n``, or None
    when no step may enter it: what every ``_Steps`` list that holds ``n`` says of it, since a
    step's cost and danger depend only on the space entered. ``_clear_route`` reads the one or two
    neighbours it may step to here instead of building a space's whole step list (issue 17, P1);
    ``test_route_search.py`` holds the two to each other along playouts."""

    def __init__(self, seen: dict, enter: dict):
        super().__init__()
        self.seen = seen
        self.enter = enter

    def __missing__(self, n):
        t = self.seen.get(n)
        e = self[n] = None if t is None else self.enter.get(t, (1, 0))
        return e


@lru_cache(maxsize=64)
def _step_memo(board_key, fly, scout) -> tuple[dict, _Steps, dict]:
    """Memos (terrain by space, filled by the first ``_step_rules``; steps by space; searches) for
    one board and overlay set (``state.board_key``) and mover kind. Nothing changes what they hold once it is in: callers
    only read it."""
    seen: dict = {}
    return seen, _Steps(seen, fly, scout), {}


def _occupied(s: State) -> set[str]:
    """The spaces holding a model (``occupant(s, h) is not None`` for each of them)."""
    sp = spaces_of(s)
    return {*sp[0], *sp[1]}


def destinations(s: State, m: dict, points: int) -> dict[tuple[int, int], int]:
    """Spaces the model may end a move on, each with the fewest Dangerous spaces entered on a
    route within ``points`` (ruling: the mover takes the safest route)."""
    terrain_of, steps, searches, _entry = _step_rules(s, m)
    start = hex_of(m)
    best = searches.get(("safest", start, points))
    if best is None:
        best = searches[("safest", start, points)] = _safest(steps, start, points)
    out: dict[tuple[int, int], int] = {}
    occupied = _occupied(s)
    for (h, _), d in best.items():
        if h == start or terrain_of(h) == "impassable" or geometry.key(h) in occupied:
            continue
        out[h] = min(out.get(h, 99), d)
    return out


def somewhere_to_move(s: State, m: dict, points: int) -> bool:
    """``bool(destinations(s, m, points))``: the search stops at the first space the model may end
    on, where the whole search (kept or not) works out the safest route to every space in reach
    (asked before each placement by move, issue 17, P1)."""
    terrain_of, steps, _searches, _entry = _step_rules(s, m)
    start = hex_of(m)
    occupied = _occupied(s)
    return _reaches_any(
        steps, start, points, lambda h: terrain_of(h) != "impassable" and geometry.key(h) not in occupied
    )


def _reaches_any(steps, start: tuple[int, int], points: int, may_end) -> bool:
    """Does some route within ``points`` come to a space other than ``start`` for which
    ``may_end(space)`` holds? A space met on any route within the points is in reach, so the first
    one that may be ended on answers; the fewest points to each space met bound the rest."""
    least = {start: 0}
    frontier = [(0, start)]
    while frontier:
        used, h = heappop(frontier)
        if used > least[h]:
            continue
        for n, step, _add in steps(h):
            c = used + step
            if c > points or c >= least.get(n, 99):
                continue
            if n != start and may_end(n):
                return True
            least[n] = c
            heappush(frontier, (c, n))
    return False


def safest_to(s: State, m: dict, points: int, h: tuple[int, int]) -> int | None:
    """``destinations(s, m, points).get(h)`` for the one space ``h``: the fewest Dangerous spaces
    a route there within ``points`` enters, or None when the model may not end a move there. It
    reads the same (kept) search, but only the ``points + 1`` entries of ``h``, not every space's."""
    terrain_of, _, searches, entry = _step_rules(s, m)
    start = hex_of(m)
    if h == start:
        return None
    best = searches.get(("safest", start, points))
    if best is not None:
        d = min((best[(h, used)] for used in range(points + 1) if (h, used) in best), default=None)
    else:
        # Checking or making one move needs only the routes that can still reach ``h``: a search
        # toward it (issue 17, P1), kept like the whole one (None is kept as -1).
        d = searches.get(("safest_to", start, points, h))
        if d is None:
            d = searches[("safest_to", start, points, h)] = _safest_to(entry, start, h, points)
        d = None if d < 0 else d
    if d is None or terrain_of(h) == "impassable" or _holds_model(s, geometry.key(h)):
        return None
    return d


def riskier_routes_to(s: State, m: dict, points: int, h: tuple[int, int], safest: int) -> list[int]:
    """Version 2: the ``dangerous`` counts ``move_choices`` offers for the destination ``h`` (whose
    safest route enters ``safest`` Dangerous spaces): ``route_dangers(s, m, points)[h]`` above it."""
    _terrain_of, steps, searches, entry = _step_rules(s, m)
    start = hex_of(m)
    reach = searches.get(("routes", start, points))
    if reach is not None:
        ds: set[int] = set()
        for used in range(points + 1):
            ds.update(reach.get((h, used), ()))
    else:
        # Only the routes that can still reach ``h`` (issue 17, P1), kept like the whole search.
        ds = searches.get(("routes_to", start, points, h))
        if ds is None:
            ds = searches[("routes_to", start, points, h)] = _routes_to(steps, entry, start, h, points)
    return [k for k in sorted(ds) if k > safest]


def riskier_route_with(s: State, m: dict, points: int, h: tuple[int, int], safest: int, danger: int) -> bool:
    """``danger in riskier_routes_to(s, m, points, h, safest)`` for an int ``danger``: a move that
    names its danger count is checked by a search toward ``h`` that stops at the first route there
    with that count, not one that finds every count (issue 17, P1). A route enters at most one
    Dangerous space a point, so no count is above ``points``. With a search kept, its answer."""
    if danger <= safest or danger > points:
        return False
    _terrain_of, steps, searches, entry = _step_rules(s, m)
    start = hex_of(m)
    if ("routes", start, points) in searches or ("routes_to", start, points, h) in searches:
        return danger in riskier_routes_to(s, m, points, h, safest)
    return _route_bits(steps, entry, start, h, points, 1 << danger) >> danger & 1 == 1


def _routes_to(steps, entry, start: tuple[int, int], goal: tuple[int, int], points: int) -> frozenset[int]:
    """Every number of Dangerous entries some route from ``start`` to ``goal`` within ``points``
    makes: the union of ``_routes(steps, start, points)[(goal, used)]`` over ``used``, by the same
    search over only the pairs (space, points used) from which the goal is still within the points
    left: a step costs at least one point and changes the distance to the goal by at most one, so
    every route to the goal goes through such pairs only. Routes go on from the goal too: one may
    come back to it."""
    out = _route_bits(steps, entry, start, goal, points)
    return frozenset(k for k in range(out.bit_length()) if out >> k & 1)


def _route_bits(steps, entry, start: tuple[int, int], goal: tuple[int, int], points: int, want: int = 0) -> int:
    """``_routes_to``'s counts as an int whose bit k is set when some route makes k entries; with
    ``want`` (bits), it may stop as soon as one of them is set, with only the counts found so far."""
    gq, gr = goal
    dq, dr = start[0] - gq, start[1] - gr
    far = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if far > points:
        return 0
    if want:
        # A route that comes nearer with every step and has a wanted count answers with no search;
        # when the goal is as many spaces away as the points, there is no other route (issue 17,
        # P1: most moves that name their count).
        near = _nearer_bits(entry, start, goal, far, points)
        if near is not None and (near & want or far == points):
            near &= want
            return near & -near
        return _wanted_route_bits(entry, start, goal, points, want)
    # Each pair's counts as an int whose bit k is set when some route there makes k entries:
    # a union is ``|`` and entering a Dangerous space a shift, where sets of ints cost a Python
    # call per count (this search was about 6% of a replay's profile, issue 17, P1).
    layers: list[dict] = [{start: 1}] + [{} for _ in range(points)]
    out = 0
    last = points - 1
    for used in range(last):
        for h, ds in layers[used].items():
            if h == goal:
                out |= ds
            for n, step, add in steps(h):
                c = used + step
                if c > points:
                    continue
                dq, dr = n[0] - gq, n[1] - gr
                if c + (abs(dq) + abs(dr) + abs(dq + dr)) // 2 > points:
                    continue
                layer = layers[c]
                layer[n] = layer.get(n, 0) | (ds << add)
    # With one point left only a step into the goal for one point is in reach: its entry, read
    # once, instead of each space's step list (issue 17, P1).
    if last >= 0:
        e = entry(goal)
        into = e[1] if e is not None and e[0] == 1 else None
        for h, ds in layers[last].items():
            if h == goal:
                out |= ds
            elif into is not None:
                out |= ds << into
    return out | layers[points].get(goal, 0)


def _wanted_route_bits(entry, start: tuple[int, int], goal: tuple[int, int], points: int, want: int) -> int:
    """``_route_bits`` with ``want``: ``1 << k`` for the first count ``k`` of ``want`` that some
    route from ``start`` to ``goal`` within ``points`` makes, found by a search that goes deep first
    and stops at the first such route, or 0 when none makes one. A move naming its danger count is
    legal, so a route with that count is there to find in every replayed move: the layered search
    (``_route_bits``) went through every pair (space, points used) of the layers before the goal's
    (issue 17, P1; ``test_route_search.py`` holds it to ``_routes_to``).

    A state is a space, the points used coming to it and its count so far; a route's count only
    grows, so one above the highest wanted count is dropped, and a space and count met again on
    as many points or more is not gone on from again (the first met can go everywhere it can).
    A neighbour farther from the goal than the points left after a step is dropped before its
    entry (``_Entries``) is read. ``_safest_to`` asks it for each count in turn."""
    if start == goal and want & 1:
        return 1  # the route of no step
    gq, gr = goal
    top = want.bit_length() - 1  # the highest wanted count
    least = {(start, 0): 0}  # the fewest points used coming to (space, count)
    todo = [(start, 0, 0)]
    while todo:
        h, used, k = todo.pop()
        room = points - used - 1
        if room < 0:
            continue
        q, r = h
        for dq, dr, far in _AROUND[(q - gq, r - gr)]:
            if far > room:
                break
            n = (q + dq, r + dr)
            e = entry(n)
            if e is None:
                continue
            c = used + e[0]
            if c + far > points:
                continue
            nk = k + e[1]
            if nk > top:
                continue
            if n == goal and want >> nk & 1:
                return 1 << nk
            if c < least.get((n, nk), 99):
                least[(n, nk)] = c
                todo.append((n, c, nk))
    return 0


def _holds_model(s: State, k: str) -> bool:
    """Does a model on the board stand on space ``k``? (``k in _occupied(s)``, without the set.)"""
    sp = s.get(SPACES) or spaces_of(s)  # ``spaces_of``, with no call once kept
    return k in sp[0] or k in sp[1]


def _safest(steps, start: tuple[int, int], points: int) -> dict[tuple, int]:
    """(space, points used) -> the fewest Dangerous entries of a route there, for every such pair."""
    best: dict[tuple, int] = {(start, 0): 0}
    # Entries (points used, r, q), smallest first: the order in which the search always took
    # them (it sorted the whole frontier before each step), so ``best`` fills in the same order.
    frontier = [(0, start[1], start[0])]
    while frontier:
        used, r, q = heappop(frontier)
        h = (q, r)
        d0 = best[(h, used)]
        for n, step, add in steps(h):
            c = used + step
            if c > points:
                continue
            d = d0 + add
            if d < best.get((n, c), 99):
                best[(n, c)] = d
                heappush(frontier, (c, n[1], n[0]))
    return best


def _safest_to(entry, start: tuple[int, int], goal: tuple[int, int], points: int) -> int:
    """``min(best[(goal, used)] for used ...)`` of ``_safest(steps, start, points)``, or -1 when it has
    no such entry: the fewest Dangerous entries of a route from ``start`` to ``goal`` within
    ``points``, from the routes that come nearer with every step when they settle it, else by
    searches toward the goal alone (``_wanted_route_bits``). ``entry``: the step into a space
    (``_Entries``), read for each neighbour in reach."""
    gq, gr = goal
    dq, dr = start[0] - gq, start[1] - gr
    far = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if far > points:
        return -1
    if _clear_route(entry, start, goal, far, points):
        return 0  # no route enters fewer Dangerous spaces than none
    into = entry(goal)
    if into is None:
        return -1  # no step enters the goal
    # Every route ends by entering the goal, so none enters fewer Dangerous spaces than that step;
    # the routes that come nearer with every step enter no fewer than the safest route. When the
    # two bounds meet, or when the goal is as many spaces away as the points (then every route
    # comes nearer with every step, each for one point), that is the answer, with no search: most
    # moves whose route is not clear (issue 17, P1; ``test_route_search.py``).
    near = _nearer_bits(entry, start, goal, far, points)
    found = (near & -near).bit_length() - 1 if near else 99
    if (far == points and near is not None) or found == into[1]:
        return -1 if found == 99 else found
    # Otherwise a search for each count from the floor up, below the nearer routes' least: one
    # that goes deep first and stops at its first route (``_wanted_route_bits``), where a search
    # by layers of points used went through every pair (space, points used) from which the goal
    # was in reach (issue 17, P1). None of the counts below was found, so the first found is the
    # least; a route enters at most one Dangerous space a point, so no count is above the points.
    floor = into[1]
    for k in range(floor, min(found, points + 1)):
        if _wanted_route_bits(entry, start, goal, points, (2 << k) - (1 << floor)):
            return k
    return -1 if found == 99 else found


def _nearer_bits(entry, start: tuple[int, int], goal: tuple[int, int], far: int, points: int) -> int | None:
    """The Dangerous entries of the routes from ``start`` to ``goal`` (``far`` spaces apart) within
    ``points`` that come one space nearer the goal with every step, as an int whose bit k is set when
    such a route enters k: ``_clear_route``'s routes with their counts, read when it found none
    clear (``_safest_to``) or for a move that names its count (``_route_bits``). Only for a goal one
    to three spaces away (``NEARER_ROUTES``); None for any other, whose routes a search finds."""
    if far == 1:
        e = entry(goal)
        return 1 << e[1] if e is not None and e[0] <= points else 0
    q, r = start
    routes = NEARER_ROUTES.get((goal[0] - q, goal[1] - r))
    if routes is None:
        return None
    bits = 0
    for route in routes:
        used = k = 0
        for dq, dr in route:
            e = entry((q + dq, r + dr))
            if e is None:
                break
            used += e[0]
            k += e[1]
        else:
            if used <= points:
                bits |= 1 << k
    return bits


#: Every route that comes one space nearer with every step to a goal two or three spaces away, as
#: the offsets of the spaces it enters, by the goal's offset (``_clear_route``): constants of the
#: hex grid alone (no board, pack or game), written out so that no process works them out, neither
#: at import nor in a replay (issue 17, P1; ``test_nearer_routes.py`` derives them from the grid).
NEARER_ROUTES: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]] = {
    (0, -2): (((0, -1), (0, -2)),),
    (1, -2): (((1, -1), (1, -2)), ((0, -1), (1, -2))),
    (2, -2): (((1, -1), (2, -2)),),
    (-1, -1): (((0, -1), (-1, -1)), ((-1, 0), (-1, -1))),
    (2, -1): (((1, 0), (2, -1)), ((1, -1), (2, -1))),
    (-2, 0): (((-1, 0), (-2, 0)),),
    (2, 0): (((1, 0), (2, 0)),),
    (-2, 1): (((-1, 0), (-2, 1)), ((-1, 1), (-2, 1))),
    (1, 1): (((1, 0), (1, 1)), ((0, 1), (1, 1))),
    (-2, 2): (((-1, 1), (-2, 2)),),
    (-1, 2): (((-1, 1), (-1, 2)), ((0, 1), (-1, 2))),
    (0, 2): (((0, 1), (0, 2)),),
    (0, -3): (((0, -1), (0, -2), (0, -3)),),
    (1, -3): (((1, -1), (1, -2), (1, -3)), ((0, -1), (1, -2), (1, -3)), ((0, -1), (0, -2), (1, -3))),
    (2, -3): (((1, -1), (2, -2), (2, -3)), ((1, -1), (1, -2), (2, -3)), ((0, -1), (1, -2), (2, -3))),
    (3, -3): (((1, -1), (2, -2), (3, -3)),),
    (-1, -2): (((0, -1), (0, -2), (-1, -2)), ((0, -1), (-1, -1), (-1, -2)), ((-1, 0), (-1, -1), (-1, -2))),
    (3, -2): (((1, 0), (2, -1), (3, -2)), ((1, -1), (2, -1), (3, -2)), ((1, -1), (2, -2), (3, -2))),
    (-2, -1): (((0, -1), (-1, -1), (-2, -1)), ((-1, 0), (-1, -1), (-2, -1)), ((-1, 0), (-2, 0), (-2, -1))),
    (3, -1): (((1, 0), (2, 0), (3, -1)), ((1, 0), (2, -1), (3, -1)), ((1, -1), (2, -1), (3, -1))),
    (-3, 0): (((-1, 0), (-2, 0), (-3, 0)),),
    (3, 0): (((1, 0), (2, 0), (3, 0)),),
    (-3, 1): (((-1, 0), (-2, 0), (-3, 1)), ((-1, 0), (-2, 1), (-3, 1)), ((-1, 1), (-2, 1), (-3, 1))),
    (2, 1): (((1, 0), (2, 0), (2, 1)), ((1, 0), (1, 1), (2, 1)), ((0, 1), (1, 1), (2, 1))),
    (-3, 2): (((-1, 0), (-2, 1), (-3, 2)), ((-1, 1), (-2, 1), (-3, 2)), ((-1, 1), (-2, 2), (-3, 2))),
    (1, 2): (((1, 0), (1, 1), (1, 2)), ((0, 1), (1, 1), (1, 2)), ((0, 1), (0, 2), (1, 2))),
    (-3, 3): (((-1, 1), (-2, 2), (-3, 3)),),
    (-2, 3): (((-1, 1), (-2, 2), (-2, 3)), ((-1, 1), (-1, 2), (-2, 3)), ((0, 1), (-1, 2), (-2, 3))),
    (-1, 3): (((-1, 1), (-1, 2), (-1, 3)), ((0, 1), (-1, 2), (-1, 3)), ((0, 1), (0, 2), (-1, 3))),
    (0, 3): (((0, 1), (0, 2), (0, 3)),),
}


def _clear_route(entry, start: tuple[int, int], goal: tuple[int, int], far: int, points: int) -> bool:
    """Is there a route from ``start`` to ``goal`` (``far`` spaces apart) within ``points`` that
    enters no Dangerous space and comes one space nearer the goal with every step? Most moves have
    one, and it is found among the few spaces between the two ends, where a search toward the goal
    also looks at every space the points left could reach and come back from (issue 17, P1).
    ``entry(n)`` is the step into ``n`` (``_Entries``): only the one or two neighbours nearer the
    goal are read, not a space's whole step list (``steps(h)``), which is built only for a search
    that needs every step (issue 17, P1)."""
    if far == 1:
        e = entry(goal)  # the one route: the step into the goal
        return e is not None and not e[1] and e[0] <= points
    q, r = start
    gq, gr = goal
    routes = NEARER_ROUTES.get((gq - q, gr - r))
    if routes is not None:
        # Near goals: each such route's spaces from the grid's table, read in turn, where the layers
        # below work out every space's one or two nearer neighbours (issue 17, P1;
        # ``test_route_search.py`` holds ``_clear_route`` to the distance of every neighbour).
        for route in routes:
            used = 0
            for dq, dr in route:
                e = entry((q + dq, r + dr))
                if e is None or e[1]:
                    break
                used += e[0]
            else:
                if used <= points:
                    return True
        return False
    # Each space of the layer ``left`` spaces from the goal, with the fewest points used to come
    # to it along such a route.
    layer = {start: 0}
    for left in range(far - 1, -1, -1):
        nearer: dict = {}
        for h, used in layer.items():
            # The one or two neighbours a space nearer the goal, without the distance of all six
            # (issue 17, P1): a step moves two of the cube coordinates (q, r, s = -q-r) by one,
            # and comes nearer only when it moves both toward the goal's, which they are not at.
            q, r = h
            dq, dr = q - gq, r - gr
            ds = -dq - dr
            toward = []
            if dq > 0:
                if dr < 0:
                    toward.append((q - 1, r + 1))
                if ds < 0:
                    toward.append((q - 1, r))
            elif dq < 0:
                if dr > 0:
                    toward.append((q + 1, r - 1))
                if ds > 0:
                    toward.append((q + 1, r))
            if dr > 0 and ds < 0:
                toward.append((q, r - 1))
            elif dr < 0 and ds > 0:
                toward.append((q, r + 1))
            for n in toward:
                e = entry(n)
                if e is None or e[1]:
                    continue
                c = used + e[0]
                if c + left <= points and c < nearer.get(n, 99):
                    nearer[n] = c
        if not nearer:
            return False
        layer = nearer
    return goal in layer


def route_dangers(s: State, m: dict, points: int) -> dict[tuple[int, int], list[int]]:
    """Version 2 (L653-667, L1214-1216): the mover chooses the route. For each space the model may
    end on, every number of Dangerous spaces some route within ``points`` enters (a route may pass
    any model and enter a space more than once; each entry of a Dangerous space is one Impact, A-32)."""
    terrain_of, steps, searches, _entry = _step_rules(s, m)
    start = hex_of(m)
    reach = searches.get(("routes", start, points))
    if reach is None:
        reach = searches[("routes", start, points)] = _routes(steps, start, points)
    out: dict[tuple[int, int], set[int]] = {}
    occupied = _occupied(s)
    for (h, _), ds in reach.items():
        if h == start or terrain_of(h) == "impassable" or geometry.key(h) in occupied:
            continue
        out.setdefault(h, set()).update(ds)
    return {h: sorted(ds) for h, ds in out.items()}


def _routes(steps, start: tuple[int, int], points: int) -> dict[tuple, set[int]]:
    """(space, points used) -> every number of Dangerous entries some route there makes."""
    reach: dict[tuple, set[int]] = {(start, 0): {0}}
    for used in range(points + 1):
        for h, u in sorted(k for k in reach if k[1] == used):
            for n, step, add in steps(h):
                c = used + step
                if c > points:
                    continue
                reach.setdefault((n, c), set()).update(d + add for d in reach[(h, u)])
    return reach


def move_choices(s: State, m: dict, points: int, make) -> list[dict]:
    """Move answers, space by space: ``make(hex)`` is the safest route (the only one in version 1);
    in version 2 each riskier route adds ``dangerous``: how many Dangerous spaces it enters."""
    safest = destinations(s, m, points)
    routes = route_dangers(s, m, points) if rules_version(s) >= 2 else {}
    out = []
    for h in sorted(safest, key=lambda x: (x[1], x[0])):
        out.append(make(geometry.key(h)))
        out += [dict(make(geometry.key(h)), dangerous=k) for k in routes.get(h, []) if k > safest[h]]
    return out


def _move_to(s: State, m: dict, h: tuple[int, int], dangers: int) -> list[dict]:
    """Move; each Dangerous space entered gives 1 Impact (L1214-1216, ruling A-32)."""
    set_space(s, m, geometry.key(h))
    return [{"step": "hit", "model": m["uid"], "n": dangers, "by": None, "resist": False}] if dangers else []


def _place_on(s: State, m: dict, h: tuple[int, int]) -> list[dict]:
    """Placed (teleport): Dangerous gives 1 Impact (L1214-1216), Fly may ignore it."""
    set_space(s, m, geometry.key(h))
    if terrain(s, h) == "dangerous" and not has(m, "fly"):
        return [{"step": "hit", "model": m["uid"], "n": 1, "by": None, "resist": False}]
    return []


def push_options(s: State, m: dict, source: tuple[int, int]) -> list[tuple[int, int]]:
    """WD-S5 (A-33, A-34): strictly further from the source; stop before a model, Impassable or the edge."""
    here = hex_of(m)
    d = geometry.distance(here, source)
    out = []
    for n in geometry.neighbours(here):
        if geometry.distance(n, source) <= d:
            continue
        t = terrain(s, n)
        if t is None or t == "impassable" or occupant(s, n) is not None:
            continue
        out.append(n)
    return out


# ====================================================================== activation actions


def _slot(s: State, cat: str, m: dict, free: str | None = None) -> str | None:
    """Which resource pays for an action of category ``cat``: the activation's own action
    first (WD-71/72), else a once-per-round Free action source (WD-87)."""
    act = s["act"]
    if act["single"]:
        if not act["used_single"]:
            return "single"
    elif act["left"].get(cat, 0) > 0:
        return "slot"
    if free:
        for src in free.split("|"):
            if src and src in m["traits"] and not m["round"].get(src):
                return src
    return None


def unveil(s: State, outcome: list[int]) -> None:
    """The Challenge overlays take their identities (``outcome``: the sorted kinds' indices, in the
    overlays' order) and every overlay is turned up (WD-23); then the step after the unveiling."""
    kinds = sorted(pack(s).challenges)
    # The Challenge overlays in order, the i-th taking the i-th outcome, and every overlay turned
    # up, in one loop: no comprehension's frame (issue 17, P1).
    i, n = 0, len(outcome)
    for o in s["overlays"]:
        if o["kind"] == "challenge" and i < n:
            o["what"] = kinds[outcome[i]]
            i += 1
        o["face_up"] = True
    board_changed(s)
    s["queue"].insert(0, {"step": "after_unveil"})


def _attack_used(s: State, m: dict, prof: dict, artifact: str | None) -> None:
    """What making an attack spends besides its action: the artifact's lock, its once a round and
    its removal, or a once-a-round profile's mark (the act step and ``fast.attack``)."""
    if artifact:
        slot = next(x for x in m["artifacts"] if x["id"] == artifact)
        card = pack(s).artifacts[artifact]
        if card["lock"]:
            slot["locked"] = True
        if prof.get("once_per_round"):
            slot["used"] = True
        if card["remove"]:
            m["artifacts"].remove(slot)
    elif prof.get("once_per_round"):
        m["round"]["atk:" + prof["id"]] = True


def _spend(s: State, cat: str, how: str, m: dict) -> None:
    if how == "single":
        s["act"]["used_single"] = True
    elif how == "slot":
        s["act"]["left"][cat] -= 1
    else:
        m["round"][how] = True


# These three are asked for every cast, potion, attack and reaction checked: the traits, the
# spaces, the Range and the board are read in place, with no call of the small helpers
# (``has``, ``hex_of``, ``geometry.distance``, ``sees``) each (issue 17, P1).
def can_cast(m: dict) -> bool:
    return "muggle_beast" not in m["traits"] and not m["animal"]


def sees(s: State, a: dict, b: dict) -> bool:
    return board(s).los(_parse(a["hex"]), _parse(b["hex"]))


def in_reach(s: State, a: dict, b: dict, rng: int) -> bool:
    ha, hb = _parse(a["hex"]), _parse(b["hex"])
    dq, dr = ha[0] - hb[0], ha[1] - hb[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= rng and board(s).los(ha, hb)


def castable_spells(s: State, m: dict) -> list[tuple[str, str]]:
    """(spell id, source) pairs the model may cast now: 'innate', 'book', 'basic' (WD-81/82)."""
    if not can_cast(m):
        return []
    pk = pack(s)
    p = P(s, m["seat"])
    out = []
    elf = has(m, "elf")
    upkept = {u["spell"] for u in p["upkeep"]}
    if not elf:
        for sp in m["innate"]:
            if sp not in m["innate_clocks"] and not pk.spells[sp]["reaction"]:
                out.append((sp, "innate"))
        if not s["act"]["basic_used"]:
            out.append((pk.basic_spell_id, "basic"))
    room = (len(m["spells"]) < 1) if elf else (len(m["spells"]) < m["mastery"])
    if room:
        for sp in p["spellbook"]:
            card = pk.spells[sp]
            if p["clocks"].get(sp) or card["reaction"] or sp in upkept or (sp, "innate") in out:
                continue
            if card["unforgivable"] and (elf or not has(m, "dark_arts")):
                continue
            out.append((sp, "book"))
    return out


def spell_source(s: State, m: dict, sp) -> str | None:
    """``dict(castable_spells(s, m)).get(sp)``: where the model casts ``sp`` from now, None when it
    may not cast it. Only ``sp``'s own conditions are read: checking and making a cast asked the
    whole list for its one spell (issue 17, P1). A later source in the list wins, as in the dict."""
    if not can_cast(m):
        return None
    pk = pack(s)
    elf = has(m, "elf")
    innate = not elf and sp in m["innate"] and sp not in m["innate_clocks"] and not pk.spells[sp]["reaction"]
    src = "innate" if innate else None
    if not elf and not s["act"]["basic_used"] and sp == pk.basic_spell_id:
        src = "basic"
    p = P(s, m["seat"])
    room = (len(m["spells"]) < 1) if elf else (len(m["spells"]) < m["mastery"])
    if not room or sp not in p["spellbook"]:
        return src
    card = pk.spells[sp]
    if (
        p["clocks"].get(sp)
        or card["reaction"]
        or innate
        or (p["upkeep"] and any(u["spell"] == sp for u in p["upkeep"]))
    ):
        return src
    if card["unforgivable"] and (elf or not has(m, "dark_arts")):
        return src
    return "book"


def places_marker(card: dict) -> bool:
    """A spell that puts a marker on the board is cast at a space, not at a model (L1220-1222)."""
    for e in card["effects"]:  # a loop, not ``any`` over a generator: asked for every cast
        if e["op"] == "marker":
            return True
    return False


def marker_spaces(s: State, m: dict, sp: str) -> list[str]:
    """The spaces a marker spell may be cast at: within its range and in line of sight of the
    caster, never Impassable terrain (WD-99, L1222-1224; L1196: nothing is placed on Impassable)."""
    card = pack(s).spells[sp]
    b = board(s)
    here = hex_of(m)
    return [
        geometry.key(h)
        for h in b.hexes
        if geometry.distance(here, h) <= card["range"]
        and terrain(s, h) != "impassable"
        and (h == here or b.los(here, h))
    ]


def markers_near(s: State, h: tuple[int, int], mark: str, seat: int) -> list[dict]:
    """``seat``'s board markers of kind ``mark`` whose radius reaches space ``h``."""
    return [
        x
        for x in s.get("markers", [])
        if x["mark"] == mark and x["seat"] == seat and geometry.distance(geometry.parse(x["hex"]), h) <= x["radius"]
    ]


def spell_targets(s: State, m: dict, sp: str) -> list[dict]:
    card = pack(s).spells[sp]
    if card["combat"]:
        return [o for o in on_board(s, other(m["seat"])) if in_reach(s, m, o, card["range"])]
    if card["range"] == 0:
        return [m]
    return [o for o in on_board(s, m["seat"]) if in_reach(s, m, o, card["range"])]


def attack_profiles(s: State, m: dict) -> list[tuple[dict, str | None]]:
    """(profile, artifact id or None) pairs usable now (WD-80)."""
    pk = pack(s)
    out = [(a, None) for a in m["attacks"] if not m["round"].get("atk:" + a["id"])]
    if not m["animal"]:
        for a in m["artifacts"]:
            art = pk.artifacts[a["id"]]
            if art["attack"] and not a["locked"] and not a["used"]:
                out.append((art["attack"], a["id"]))
    return out


def potion_offensive(pot: dict) -> bool:
    return any(
        e["op"] in ("impacts", "push", "jinx") or (e["op"] == "status" and e["status"] in ("burning", "poison", "slow"))
        for e in pot["effects"]
    )


def _lower_usable(s: State, seat: int, card: str | None, timing: str) -> bool:
    lo = lower(s, card)
    if not lo or lo["timing"] != timing:
        return False
    return can_pay(s["players"][seat], lo["cost"], lo["colour"])


def options(s: State, st: dict, seat: int | None = None) -> list[dict]:
    """Every legal answer to the decision step ``st`` (the front step). Checking one answer
    need not list them all: ``legal.allowed`` says whether it is among them."""
    name = st["step"]
    pk = pack(s)
    # Read by the clash's windows, which are listed most often and so come first (issue 17, P1).
    c = s.get("clash")
    if name in ("pick", "brave_pick"):
        cards = c[st["side"]]["revealed"] if name == "pick" else s["brave"]["cards"]
        if st.get("worst"):
            low = min(rank(s, x) for x in cards)
            cards = [x for x in cards if rank(s, x) == low]
        return [{"type": "keep", "card": x} for x in cards]
    if name == "swap":
        side = c[st["side"]]
        out = [{"type": "keep_card"}]
        if not has(M(s, side["model"]), "apprentice"):
            out += [{"type": "swap", "card": x} for x in sorted(P(s, side["seat"])["hand"])]
        return out
    if name == "empower":
        side = c[st["side"]]
        cost, colour = _empower_cost(s, c, st["side"])
        out = [{"type": "pass"}]
        if cost is not None and can_pay(P(s, side["seat"]), cost, colour):
            out[0:0] = _paid(s, P(s, side["seat"]), cost, colour, {"type": "empower"})
        return out
    if name in ("early", "late"):
        side = c[st["side"]]
        out = [{"type": "lower", "use": False}]
        if _lower_usable(s, side["seat"], side["kept"], name):
            lo = lower(s, side["kept"])
            out[0:0] = _paid(s, P(s, side["seat"]), lo["cost"], lo["colour"], {"type": "lower", "use": True})
        return out
    if name == "leadership":
        return [{"type": "peek"}, {"type": "pass"}]
    if name == "react":
        p = P(s, st["seat"])
        out = [{"type": "pass"}]
        tgt = M(s, c["target"])
        for sp in sorted(set(p["spellbook"]) | set(sp for m in alive(s, st["seat"]) for sp in m["innate"])):
            card = pk.spells[sp]
            if not card["reaction"] or p["clocks"].get(sp):
                continue
            caster = _reaction_caster(s, st["seat"], sp, tgt)
            if caster is not None:
                out.append({"type": "react", "spell": sp})
        return out
    if name == "dark_lord":
        return [{"type": "pass"}, {"type": "dark_lord"}]
    if name == "order":
        from itertools import permutations

        return [{"type": "order", "cards": list(x)} for x in permutations(P(s, st["seat"])["known_top"])]
    if name == "upkeep":
        p = P(s, st["seat"])
        u = next((u for u in p["upkeep"] if u["spell"] == st["spell"]), None)
        if u is None:
            return []
        cost = pk.spells[u["spell"]]["upkeep"]
        colour = pk.spells[u["spell"]]["empower"]["colour"] if pk.spells[u["spell"]]["empower"] else "neutral"
        out = [{"type": "upkeep", "keep": False}]
        if u["paid"]:
            out.insert(0, {"type": "upkeep", "keep": True})
        elif can_pay(p, cost, colour):
            out[0:0] = _paid(s, p, cost, colour, {"type": "upkeep", "keep": True})
        return out
    if name == "act":
        return act_options(s)
    if name == "activate":
        out = []
        for m in on_board(s, st["seat"]):
            out.append({"type": "activate", "model": m["uid"]})
            if has(m, "animagus") and not m["animal"]:
                out.append({"type": "activate", "model": m["uid"], "animal": True})
        return out
    if name == "place":
        return place_options(s, st)
    if name == "resist":
        hand = sorted(P(s, st["seat"])["hand"])
        most = min(st["max"], st["n"], len(hand))
        out = [{"type": "resist", "discard": []}]
        for k in range(1, most + 1):
            out += [{"type": "resist", "discard": list(x)} for x in combinations(hand, k)]
        return out
    if name == "instinctive":
        return [{"type": "instinctive", "spell": x} for x in _instinctive_spells(s, M(s, st["model"]))]
    if name == "horcrux_lose":
        return [{"type": "horcrux_lose", "index": i} for i in range(len(_live_horcruxes(s, M(s, st["model"]))))]
    if name == "deploy":
        b = board(s)
        half = s["zone_half"][st["seat"]]
        free = [h for h in b.arrival[half] if occupant(s, h) is None]
        return [
            {"type": "deploy", "model": m["uid"], "hex": geometry.key(h)}
            for m in alive(s, st["seat"])
            if m["hex"] is None
            for h in free
        ]
    if name == "neutral":
        n = sum(m["cunning"]["neutral"] for m in alive(s, seat))
        return [{"type": "neutral", "light": k} for k in range(n + 1)]
    if name == "horcrux_pick":
        out = []
        for k in range(st["limit"], 0, -1):
            for combo in combinations(st["candidates"], k):
                out.append({"type": "horcrux", "models": list(combo)})
        return out + [{"type": "horcrux", "models": []}]
    if name == "place_challenge":
        return [{"type": "place_challenge", "hex": geometry.key(h)} for h in _challenge_hexes(s)]
    if name == "place_terrain":
        return [
            {"type": "place_terrain", "hex": geometry.key(h), "terrain": t}
            for h in _terrain_hexes(s)
            for t in ("difficult", "obscuring", "dangerous")
        ]
    if name == "choose_map":
        return [{"type": "choose_map", "map": mid} for mid in sorted(pk.maps)]
    if name == "choose_joining":
        mp = pk.maps[s["map"]]
        colours = sorted(set(mp["halves"][0]["nexus"]) & set(mp["halves"][1]["nexus"]))
        return [{"type": "choose_joining", "nexus": c, "half": h} for c in colours for h in (0, 1)]
    return []


def _paid(s: State, p: dict, cost: int, colour: str, action: dict) -> list[dict]:
    """The answers that pay ``cost``: in version 2 one per split of white and black markers when the
    rulebook leaves the colour to the payer (L1065, L983-985 with A-18, L1104), else ``action`` alone."""
    splits = pay_splits(p, cost, colour) if rules_version(s) >= 2 else []
    if not splits:
        return [action]
    return [dict(action, light=k) for k in splits]


def _reaction_caster(s: State, seat: int, sp: str, target: dict) -> dict | None:
    """Ruling A-60: the targeted model casts its reaction, if it could hold the spell."""
    p = s["players"][seat]
    if not can_cast(target):
        return None
    if sp in target["innate"] and sp not in target["innate_clocks"]:
        return target
    if sp in p["spellbook"]:
        room = (len(target["spells"]) < 1) if "elf" in target["traits"] else (len(target["spells"]) < target["mastery"])
        if room:
            return target
    return None


def place_somewhere(s: State, st: dict, m: dict) -> bool:
    """Whether a "move" or "teleport" placement of the model ``m`` (on the board) has a space to
    go to: ``len(place_options(s, st)) >= 2``, stopping at the first space."""
    n = st["n"]
    if st["kind"] == "move":
        return somewhere_to_move(s, m, n)
    b = board(s)
    hq, hr = hex_of(m)
    spaces = b.keys  # the board's spaces, each with its name
    # The spaces within ``n``, by their offsets from the model's, where every space of the board
    # had its distance worked out by a call: asked at every teleport an effect makes (issue 17,
    # P1). Which space answers first changes no answer (``any``).
    if 3 * n * (n + 1) < len(spaces):
        near = [(hq + dq, hr + dr) for dq in range(-n, n + 1) for dr in range(max(-n, -dq - n), min(n, n - dq) + 1)]
    else:
        near = b.hexes
    for h in near:
        k = spaces.get(h)
        if k is not None:
            dq, dr = h[0] - hq, h[1] - hr
            if (
                0 < (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= n
                and terrain(s, h) != "impassable"
                and not _holds_model(s, k)
            ):
                return True
    return False


def place_options(s: State, st: dict) -> list[dict]:
    kind = st["kind"]
    if kind == "gryffindor":
        out = [{"type": "place", "model": None, "hex": None}]
        for m in on_board(s, st["seat"]):
            if has(m, "gryffindor"):
                out += move_choices(s, m, st["n"], lambda k, u=m["uid"]: {"type": "place", "model": u, "hex": k})
        return out
    m = M(s, st["model"])
    if m["removed"] or m["hex"] is None:
        return []
    if kind == "move":
        return [{"type": "place", "hex": None}] + move_choices(s, m, st["n"], lambda k: {"type": "place", "hex": k})
    if kind == "teleport":
        b = board(s)
        here = hex_of(m)
        hs = [
            h
            for h in b.hexes
            if 0 < geometry.distance(here, h) <= st["n"] and terrain(s, h) != "impassable" and occupant(s, h) is None
        ]
        return [{"type": "place", "hex": None}] + [{"type": "place", "hex": geometry.key(h)} for h in hs]
    if kind == "push":
        hs = push_options(s, m, geometry.parse(st["source"]))
        return [{"type": "place", "hex": geometry.key(h)} for h in sorted(hs, key=lambda x: (x[1], x[0]))]
    return []


def act_options(s: State) -> list[dict]:
    """Every legal action of the acting model."""
    pk = pack(s)
    act = s["act"]
    m = M(s, act["model"])
    out: list[dict] = [{"type": "end"}]
    if m["removed"] or m["hex"] is None or s["game_over"]:
        return out
    p = P(s, m["seat"])
    if _slot(s, "move", m):
        out += move_choices(s, m, move_points(s, m), lambda k: {"type": "move", "to": k})
    if _slot(s, "advanced", m, "elite_fighter"):
        for prof, art in attack_profiles(s, m):
            for o in on_board(s, other(m["seat"])):
                if in_reach(s, m, o, prof["range"]):
                    a = {"type": "attack", "attack": prof["id"], "target": o["uid"]}
                    if art:
                        a["artifact"] = art
                    out.append(a)
    if _slot(s, "advanced", m, "expert_wizard|master_wizard"):
        for sp, _src in castable_spells(s, m):
            if places_marker(pk.spells[sp]):
                out += [{"type": "cast", "spell": sp, "target": h} for h in marker_spaces(s, m, sp)]
                continue
            for t in spell_targets(s, m, sp):
                out.append({"type": "cast", "spell": sp, "target": t["uid"]})
    ravenclaw = "ravenclaw" if controls(s, m, "challenge") else ""
    if p["active"] and _slot(s, "advanced", m, "tactician|" + ravenclaw):
        for q in sorted(p["active"]):
            out.append({"type": "draw_quest", "discard": q})
    if len(p["hand"]) < HAND_SIZE and _slot(s, "advanced", m):
        out.append({"type": "draw_clash"})
    if not m["animal"]:
        seen = set()
        for i, pot in enumerate(p["potions"]):
            if pot["spent"] or pot["id"] in seen:
                continue
            seen.add(pot["id"])
            card = pk.potions[pot["id"]]
            pm = "potion_mastery" if m["traits"].get("potion_mastery", -1) >= card["level"] else ""
            if not _slot(s, "quick", m, pm):
                continue
            if card["range"] == 0:
                targets = [m]
            elif potion_offensive(card):
                targets = [o for o in on_board(s, other(m["seat"])) if in_reach(s, m, o, card["range"])]
            else:
                targets = [o for o in on_board(s, m["seat"]) if in_reach(s, m, o, card["range"])]
            for t in targets:
                out.append({"type": "potion", "index": i, "target": t["uid"]})
    if _slot(s, "quick", m):
        here = hex_of(m)
        for o in s["overlays"]:
            if geometry.distance(here, geometry.parse(o["hex"])) <= 1:
                out.append({"type": "flip", "hex": o["hex"]})
        for a in m["artifacts"]:
            art = pk.artifacts[a["id"]]
            if art["use"] and not a["locked"] and not a["used"]:
                out.append({"type": "use_artifact", "artifact": a["id"]})
        if has(m, "slytherin") and controls(s, m) and not act["slytherin"]:
            out.append({"type": "slytherin"})
    if has(m, "dark_lord") and not m.get("dark_lord_swap_used"):
        # WD-T6 (a), ruling A-11: a Free action, an unassigned Spellbook spell with no clock.
        book = [sp for sp in p["spellbook"] if not p["clocks"].get(sp)]
        new = sorted(
            sp
            for sp in pk.spells
            if sp != pk.basic_spell_id
            and sp not in p["spellbook"]
            and not any(sp in x["spells"] for x in s["models"].values() if x["seat"] == m["seat"])
        )
        for give in book:
            for take in new:
                out.append({"type": "dark_lord_swap", "give": give, "take": take})
    if has(m, "herbology_expert") and not m.get("herbology_used"):
        # WD-T14, ruling A-71: a Free action, once per game, same level, from the whole pack.
        done = set()
        for i, pot in enumerate(p["potions"]):
            if pot["spent"] or pot["id"] in done:
                continue
            done.add(pot["id"])
            lv = pk.potions[pot["id"]]["level"]
            for other_id in sorted(x for x in pk.potions if pk.potions[x]["level"] == lv and x != pot["id"]):
                out.append({"type": "herbology", "index": i, "potion": other_id})
    return out


# ====================================================================== decisions


def decide(s: State, seat: int, action: dict, popped: dict | None = None, safest: int | None = None) -> None:
    """Apply a legal answer. The caller has checked legality (``options``). The windows are
    tested in about the order of how often they are answered (issue 17, P1); each is its own.
    ``safest``: for a move by the safest route, what ``safest_to`` says of it, when the check
    found it (``legal.allowed``'s ``found``); None asks ``safest_to``."""
    st = popped if popped is not None else s["queue"][0]
    name = st["step"]
    if popped is None and name not in _SIMULTANEOUS:
        s["queue"].pop(0)
    t = action["type"]
    if name in _SIMULTANEOUS:
        answers = st["answers"]
        answers[str(seat)] = action
        # Loops, not a generator and a comprehension (a frame each; issue 17, P1).
        for x in st["seats"]:
            if answers[str(x)] is None:
                return
        s["queue"].pop(0)
        for x in st["seats"]:
            ans = answers[str(x)]
            if name == "build":
                _install_group(s, x, ans)
            elif name == "stock":
                stock = P(s, x)["potions"] = []
                for pid in ans["potions"]:
                    stock.append({"id": pid, "spent": False})
            elif name == "neutral":
                P(s, x)["neutral_light"] = ans["light"]
            else:
                p = P(s, x)
                for q in ans["discard"]:
                    p["qhand"].remove(q)
                    p["quest_discard"].append(q)
                p["active"] = p["qhand"]
                p["qhand"] = []
        if name == "build":
            s["queue"].insert(0, {"step": "reveal_groups"})
        elif name == "stock":
            s["queue"].insert(0, {"step": "after_stock"})
        elif name == "mulligan":
            w = s["coin_winner"]
            o = other(w)
            # Both refills written out: no comprehension's frame (issue 17, P1).
            push_front(
                s,
                {
                    "step": "draw",
                    "seat": w,
                    "pile": "quest",
                    "n": ACTIVE_QUESTS - len(P(s, w)["active"]),
                    "dest": "active",
                    "vis": "all",
                },
                {
                    "step": "draw",
                    "seat": o,
                    "pile": "quest",
                    "n": ACTIVE_QUESTS - len(P(s, o)["active"]),
                    "dest": "active",
                    "vis": "all",
                },
            )
        return
    if name == "act":
        _act(s, seat, action, safest)
    elif name == "activate":
        m = M(s, action["model"])
        m["animal"] = bool(action.get("animal")) or m["animal"]
        single = m["markers"] > 0  # WD-72 (EX-19)
        s["act"] = {
            "model": m["uid"],
            "single": single,
            "used_single": False,
            "left": dict(m["actions"]),
            "basic_used": False,
            "slytherin": False,
        }
        s["queue"].insert(0, {"step": "act", "seat": seat})
    elif name == "swap":
        if t == "swap":
            side = s["clash"][st["side"]]
            P(s, side["seat"])["hand"].remove(action["card"])
            side["swap"] = action["card"]
            side["swap_up"] = st.get("face_up", False)
    elif name == "empower":
        if t == "empower":
            c = s["clash"]
            cost, colour = _empower_cost(s, c, st["side"])
            empower(s, c, st["side"], cost, colour, action.get("light"))
    elif name in ("early", "late"):
        if action["use"]:
            _use_lower(s, st["side"], name, action.get("light"))
    elif name == "deploy":
        set_space(s, M(s, action["model"]), action["hex"])
        _after_deploy(s)
    elif name == "leadership":
        if t == "peek":
            M(s, st["model"])["round"]["leadership"] = True
            push_front(
                s,
                {"step": "draw", "seat": seat, "pile": "clash", "n": 3, "dest": "known_top", "vis": "owner"},
                {"step": "order", "seat": seat},
            )
    elif name == "dark_lord":
        if t == "dark_lord":
            side = s["clash"][st["side"]]
            M(s, side["model"])["dark_lord_used"] = True
            side["dark_lord"] = True
            side["adv"] = 0  # A-10 (3): Advantage and Disadvantage are ignored for this clash
    elif name == "order":
        P(s, seat)["known_top"] = list(action["cards"])
    elif name == "place":
        if action.get("hex") is not None:
            uid = action.get("model") or st["model"]
            m = M(s, uid)
            h = geometry.parse(action["hex"])
            if st["kind"] in ("move", "gryffindor"):
                if "dangerous" in action:
                    dangers = action["dangerous"]
                else:
                    dangers = safest if safest is not None else safest_to(s, m, st["n"], h)
                push_front(s, *_move_to(s, m, h, dangers))
            elif st["kind"] == "teleport":
                push_front(s, *_place_on(s, m, h))
            elif st["kind"] == "push":
                set_space(s, m, action["hex"])
                steps = []
                if terrain(s, h) == "dangerous" and not has(m, "fly"):
                    steps.append({"step": "hit", "model": m["uid"], "n": 1, "by": None, "resist": False})
                if st["n"] > 1:
                    steps.append(dict(st, n=st["n"] - 1))
                push_front(s, *steps)

    elif name == "react":
        if t == "react":
            c = s["clash"]
            tgt = M(s, c["target"])
            card = pack(s).spells[action["spell"]]
            p = P(s, seat)
            if action["spell"] in tgt["innate"]:
                tgt["innate_clocks"][action["spell"]] = card["cooldown"]
            else:
                p["spellbook"].remove(action["spell"])
                tgt["spells"].append(action["spell"])
                p["clocks"][action["spell"]] = card["cooldown"]
            c["react"] += sum(e["n"] for e in card["effects"] if e["op"] == "defense_bonus")
            c["reactions"].append(action["spell"])
    elif name == "pick":
        _keep(s, st["side"], action["card"])
    elif name == "brave_pick":
        b = s["brave"]
        for x in b["cards"]:
            if x != action["card"] and not x.startswith("blank"):
                P(s, b["seat"])["discard"].append(x)
        b["cards"] = [action["card"]]
        if is_two_plus(s, action["card"]):
            push_front(
                s, {"step": "draw", "seat": b["seat"], "pile": "clash", "n": 1, "dest": "brave_extra", "vis": "all"}
            )
    elif name == "upkeep":
        _upkeep_answer(s, seat, st["spell"], action["keep"], action.get("light"))
    elif name == "place_challenge":
        s["overlays"].append({"kind": "challenge", "hex": action["hex"], "face_up": False, "what": None, "owner": seat})
        board_changed(s)
    elif name == "place_terrain":
        s["overlays"].append(
            {"kind": "terrain", "hex": action["hex"], "face_up": False, "what": action["terrain"], "owner": seat}
        )
        board_changed(s)
    elif name == "horcrux_pick":
        if action["models"]:
            push_front(s, {"step": "horcrux_deal", "seat": seat, "maker": st["model"], "models": action["models"]})
    elif name == "instinctive":
        s.setdefault("ic_bonus", [[], []])[seat].append(action["spell"])
    elif name == "horcrux_lose":
        m = M(s, st["model"])
        _lose_horcrux(s, m, _live_horcruxes(s, m)[action["index"]], st["by"])
    elif name == "resist":
        p = P(s, seat)
        for x in action["discard"]:
            p["hand"].remove(x)
            p["discard"].append(x)
        push_front(
            s, {"step": "impacts", "model": st["model"], "n": max(0, st["n"] - len(action["discard"])), "by": st["by"]}
        )
    elif name == "choose_map":
        s["map"] = action["map"]
        board_changed(s)
        s["queue"].insert(0, {"step": "choose_joining", "seat": other(seat)})
    elif name == "choose_joining":
        s["nexus"] = action["nexus"]
        board_changed(s)
        s["zone_half"] = [1 - action["half"], action["half"]] if seat == 1 else [action["half"], 1 - action["half"]]
        s["queue"].insert(0, {"step": "overlays"})


def _upkeep_answer(s: State, seat: int, spell: str, keep: bool, light: int | None = None) -> None:
    """WD-61/62 (L1097-1114): keep (pay once; markers stay on the spell) or disable."""
    pk = pack(s)
    p = s["players"][seat]
    u = next((u for u in p["upkeep"] if u["spell"] == spell), None)
    if u is None:
        return
    card = pk.spells[spell]
    colour = card["empower"]["colour"] if card["empower"] else "neutral"
    if keep:
        if not u["paid"]:
            pay(p, card["upkeep"], colour, dest=u["markers"], light=light)
            u["paid"] = True
        return
    disable_upkeep(s, seat, spell)


def disable_upkeep(s: State, seat: int, spell: str) -> None:
    pk = pack(s)
    p = s["players"][seat]
    u = next((u for u in p["upkeep"] if u["spell"] == spell), None)
    if u is None:
        return
    p["upkeep"].remove(u)
    for c in ("light", "dark"):
        p["spent"][c] += u["markers"][c]
    if s.get("markers"):
        s["markers"] = [x for x in s["markers"] if x["spell"] != spell or x["seat"] != seat]
    for m in s["models"].values():
        # As in ``_h_end_statuses``: only a non-empty list is filtered.
        if m["ward"]:
            m["ward"] = [w for w in m["ward"] if w.get("src") != spell or w.get("seat") != seat]
        if m["conceal"]:
            m["conceal"] = [w for w in m["conceal"] if w.get("src") != spell or w.get("seat") != seat]
    p["clocks"][spell] = pk.spells[spell]["cooldown"]
    if p["clocks"][spell] <= 0:
        del p["clocks"][spell]
        _return_spell(s, seat, spell)


# ====================================================================== the actions (WD-78..88)


def _act(s: State, seat: int, a: dict, safest: int | None = None) -> None:
    m = s["models"][s["act"]["model"]]
    t = a["type"]
    if t == "end":
        s["queue"].insert(0, {"step": "activation_end", "model": m["uid"]})
        return
    pk = pack(s)
    p = s["players"][seat]
    steps: list[dict] = []
    if t == "move":
        how = _slot(s, "move", m)
        _spend(s, "move", how, m)
        pts = move_points(s, m)
        h = geometry.parse(a["to"])
        if "dangerous" in a:
            dangers = a["dangerous"]
        else:
            dangers = safest if safest is not None else safest_to(s, m, pts, h)
        steps += _move_to(s, m, h, dangers)
        steps.append({"step": "action_end"})
    elif t == "attack":
        how = _slot(s, "advanced", m, "elite_fighter")
        _spend(s, "advanced", how, m)
        prof = next(pr for pr, art in attack_profiles(s, m) if pr["id"] == a["attack"] and art == a.get("artifact"))
        _attack_used(s, m, prof, a.get("artifact"))
        steps += open_clash(s, "attack", m, s["models"][a["target"]], prof=prof)
    elif t == "cast":
        how = _slot(s, "advanced", m, "expert_wizard|master_wizard")
        _spend(s, "advanced", how, m)
        src = spell_source(s, m, a["spell"])
        if src == "book":
            # WD-53: casting a Spellbook spell assigns it to the caster.
            p["spellbook"].remove(a["spell"])
            m["spells"].append(a["spell"])
        if src == "basic":
            s["act"]["basic_used"] = True
        if places_marker(pk.spells[a["spell"]]):
            # Cast at a space: an Individual Clash of the caster; the marker goes there on success.
            steps += open_clash(s, "spell", m, m, spell=a["spell"], source=src, space=a["target"])
        else:
            steps += open_clash(s, "spell", m, s["models"][a["target"]], spell=a["spell"], source=src)
    elif t == "draw_quest":
        ravenclaw = "ravenclaw" if controls(s, m, "challenge") else ""
        how = _slot(s, "advanced", m, "tactician|" + ravenclaw)
        _spend(s, "advanced", how, m)
        p["active"].remove(a["discard"])
        p["quest_discard"].append(a["discard"])
        steps.append({"step": "draw", "seat": seat, "pile": "quest", "n": 1, "dest": "active", "vis": "all"})
        steps.append({"step": "action_end"})
    elif t == "draw_clash":
        _spend(s, "advanced", _slot(s, "advanced", m), m)
        steps.append({"step": "draw", "seat": seat, "pile": "clash", "n": 1, "dest": "hand", "vis": "owner"})
        steps.append({"step": "action_end"})
    elif t == "potion":
        card = pk.potions[p["potions"][a["index"]]["id"]]
        pm = "potion_mastery" if m["traits"].get("potion_mastery", -1) >= card["level"] else ""
        _spend(s, "quick", _slot(s, "quick", m, pm), m)
        p["potions"][a["index"]]["spent"] = True
        s["stats"]["potions"][seat] += 1
        tgt = s["models"][a["target"]]
        if tgt["seat"] != seat:
            steps += open_clash(s, "potion", m, tgt, potion=card["id"])
        else:
            steps += effect_steps(s, card["effects"], m, tgt, seat, x=m["traits"].get("potioneer", 0))
            steps.append({"step": "action_end"})
    elif t == "flip":
        _spend(s, "quick", _slot(s, "quick", m), m)
        o = overlay_at(s, a["hex"])
        o["face_up"] = not o["face_up"]  # WD-86, ruling A-27
        board_changed(s)
        steps.append({"step": "action_end"})
    elif t == "use_artifact":
        _spend(s, "quick", _slot(s, "quick", m), m)
        slot = next(x for x in m["artifacts"] if x["id"] == a["artifact"])
        art = pk.artifacts[a["artifact"]]
        if art["lock"]:
            slot["locked"] = True
        slot["used"] = True
        if art["remove"]:
            m["artifacts"].remove(slot)
        steps += effect_steps(s, art["use"], m, m, seat)
        steps.append({"step": "action_end"})
    elif t == "dark_lord_swap":
        m["dark_lord_swap_used"] = True
        p["spellbook"] = sorted([x for x in p["spellbook"] if x != a["give"]] + [a["take"]])
    elif t == "herbology":
        m["herbology_used"] = True
        p["potions"][a["index"]] = {"id": a["potion"], "spent": False}
    elif t == "slytherin":
        _spend(s, "quick", _slot(s, "quick", m), m)
        s["act"]["slytherin"] = True
        m["next_adv"] += 1
        steps.append({"step": "action_end"})
    steps.append({"step": "act", "seat": seat})
    push_new(s, steps)  # each made here, by ``open_clash``, ``effect_steps`` or ``_move_to``


# ====================================================================== clashes (WD-89..92, FC-1..14)


def _side(seat: int, model: str, known: bool) -> dict:
    """A clash's side as it opens; ``known``: version 2's list of the Empowerment cards its owner
    saw (``emp_known``)."""
    side = {
        "seat": seat,
        "model": model,
        "revealed": [],
        "kept": None,
        "extra": [],
        "swap": None,
        "swap_up": False,
        "emp": 0,
        "emp_fixed": [],
        "emp_cards": [],
        "early": 0,
        "adv": 0,
        "total": None,
    }
    if known:
        side["emp_known"] = []
    return side


def open_clash(
    s: State,
    what: str,
    att: dict,
    target: dict,
    prof=None,
    spell=None,
    source=None,
    potion=None,
    space: str | None = None,
) -> list[dict]:
    """Open a clash and return its steps in the spec's order (FC-1..FC-14)."""
    # The pack is read only for a spell, and traits and the version without a call each: a clash
    # opens every few events (issue 17, P1).
    faced = what in ("attack", "potion") or (what == "spell" and pack(s).spells[spell]["combat"])
    known = s.get("rules", 1) >= 2  # ``rules_version``
    a_seat = att["seat"]
    t_seat = target["seat"]
    c = {
        "what": what,
        "faced": faced,
        "target": target["uid"],
        "att": _side(a_seat, att["uid"], known),
        "def": _side(t_seat, target["uid"], known) if faced else None,
        "prof": prof,
        "spell": spell,
        "source": source,
        "potion": potion,
        "react": 0,
        "reactions": [],
        "dmg_bonus": 0,
        "net": None,
        "success": None,
    }
    if space is not None:
        c["space"] = space
    s["clash"] = c
    _set_advantage(s, c)
    # The steps of each of the three shapes of clash in one list each, not appended one by one
    # (issue 17, P1).
    if not faced:
        # Not faced: a spell not a combat spell (an attack or a potion at a foe always is).
        return [
            {"step": "fc2"},  # FC-2: Leadership, then Dark Lord
            {"step": "empower", "seat": a_seat, "side": "att"},  # FC-3
            {"step": "reveal", "side": "att"},  # FC-4
            {"step": "swap", "seat": a_seat, "side": "att"},  # FC-6
            {"step": "flip"},  # FC-7
            {"step": "emp_draw"},  # FC-9..11
            {"step": "total"},
            {"step": "clash_effects"},
            {"step": "clash_discard"},  # FC-13, FC-14
            {"step": "action_end"},
        ]
    if what == "spell":
        steps = [
            {"step": "react", "seat": t_seat},  # FC-1
            {"step": "fc2"},  # FC-2
            {"step": "empower", "seat": t_seat, "side": "def"},  # FC-3, defender first
            {"step": "empower", "seat": a_seat, "side": "att"},
            {"step": "reveal", "side": "att"},  # FC-4
            {"step": "reveal", "side": "def"},  # FC-5
        ]
    else:
        steps = [{"step": "fc2"}, {"step": "reveal", "side": "att"}, {"step": "reveal", "side": "def"}]
    # FC-6: defender first, unless the defending model has Duelling (WD-T7, A-25).
    d_swap = {"step": "swap", "seat": t_seat, "side": "def"}
    if "duelling" in att["traits"]:
        d_swap["face_up"] = True
    a_swap = {"step": "swap", "seat": a_seat, "side": "att"}
    if "duelling" not in target["traits"]:
        steps.append(d_swap)
        steps.append(a_swap)
    else:
        steps.append(a_swap)
        steps.append(d_swap)
    steps += [
        {"step": "flip"},  # FC-7
        {"step": "early", "seat": t_seat, "side": "def"},  # FC-8
        {"step": "early", "seat": a_seat, "side": "att"},
        {"step": "emp_draw"},  # FC-9..11
        {"step": "total"},
        {"step": "clash_effects"},
        {"step": "late", "seat": t_seat, "side": "def"},  # FC-12
        {"step": "late", "seat": a_seat, "side": "att"},
        {"step": "clash_discard"},  # FC-13, FC-14
        {"step": "action_end"},
    ]
    return steps


def _set_advantage(s: State, c: dict) -> None:
    """WD-92 (L832-846, A-10): sources add up, Hufflepuff drops opponent Disadvantage, then net."""
    att = s["models"][c["att"]["model"]]
    tgt = s["models"][c["target"]]
    adv, dis_opp = 0, 0
    casting = c["what"] == "spell"
    traits = att["traits"]
    if casting and "magical_mastery" in traits:
        adv += 1
    if casting and "apprentice" in traits:
        for o in on_board(s, att["seat"]):
            if has(o, "professor") and geometry.distance(hex_of(o), hex_of(att)) <= 2:
                adv += 1
                break
    # ``_once_adv`` only for a model holding a one-off Advantage: most hold none (issue 17, P1).
    if att.get("next_adv") or att["round"].get("huff"):
        adv += _once_adv(att)
    if casting and c["faced"] and "magical_immunity" in tgt["traits"]:
        dis_opp += tgt["traits"]["magical_immunity"]
    if "hufflepuff" in traits:
        dis_opp = 0
    c["att"]["adv"] = adv - dis_opp
    if c["faced"]:
        dadv = 1 if "chosen_one" in tgt["traits"] else 0
        if tgt.get("next_adv") or tgt["round"].get("huff"):
            dadv += _once_adv(tgt)
        c["def"]["adv"] = dadv


def _once_adv(m: dict) -> int:
    n = 0
    if m["round"].get("huff"):
        m["round"]["huff"] = False
        m["round"]["huff_used"] = True
        n += 1
    if m.get("next_adv"):
        n += m["next_adv"]
        m["next_adv"] = 0
    return n


#: The pack's characters with Leadership, by pack. A model's traits are its character's
#: (``_install_group`` copies them, and nothing writes them), so a Group none of whose characters
#: is here holds no model with Leadership.
_LEADERSHIP_CHARS = content.PerPack(
    lambda pack_id: frozenset(
        cid for cid, c in content.load(pack_id).characters.items() for t in c["traits"] if t["id"] == "leadership"
    )
)


def _h_fc2(s: State, st: dict) -> None:
    """FC-2 (A-51, A-11): Leadership peeks, attacker's side first; then Dark Lord declarations."""
    c = s["clash"]
    models = s["models"]
    players = s["players"]
    steps = []
    dark = None  # the Dark Lord's windows, queued after every Leadership one
    lead = _LEADERSHIP_CHARS[s["pack"]]
    # One pass over the sides for both windows (issue 17, P1).
    for name in _SIDES:
        side = c[name]  # both keys are in every clash (``open_clash``)
        if not side:
            continue
        seat = side["seat"]
        me = models[side["model"]]
        if "dark_lord" in me["traits"] and not me.get("dark_lord_used"):
            dark = dark or []
            dark.append({"step": "dark_lord", "seat": seat, "side": name})
        p = players[seat]
        g = p["group"]
        # A side's Group with no character of Leadership (most Groups) is passed over with one
        # test in C, where every model of the game was looked through each clash (issue 17, P1).
        if g is not None and lead.isdisjoint(g["models"]):
            continue
        # The first such model of ``on_board(s, seat)`` (uid order), from the seat's kept living
        # uids (``state.LIVING``), which are in uid order.
        leader = None
        if me["hex"]:
            here = hex_of(me)
            for uid in living_of(s)[seat]:
                m = models[uid]
                if (
                    "leadership" in m["traits"]
                    and m["hex"] is not None
                    and not m["round"].get("leadership")
                    and geometry.distance(hex_of(m), here) <= 2
                ):
                    leader = m
                    break
        if leader and not p["known_top"] and len(p["deck"]) - _reserved(s, seat) > 0:
            steps.append({"step": "leadership", "seat": seat, "model": leader["uid"]})
    if dark:
        steps += dark
    if steps:  # most clashes ask neither
        push_new(s, steps)


def empower(s: State, c: dict, side_name: str, cost: int, colour: str, light: int | None) -> None:
    """FC-3, an Empowerment paid for (``cost`` and ``colour``: ``_empower_cost``'s; ``light``: the
    answer's white markers, or None)."""
    side = c[side_name]
    p = s["players"][side["seat"]]
    pay(p, cost, colour, light=light)
    m = s["models"][side["model"]]
    n = 2 if (side_name == "att" and "elf" in m["traits"] and c["what"] == "spell") else 1
    side["emp"] += n
    # Cards the owner saw with Leadership: in version 2 they stay known to their owner
    # (emp_known); version 1 kept them with the unseen ones (emp_fixed).
    into = side.setdefault("emp_known", []) if rules_version(s) >= 2 else side["emp_fixed"]
    while p["known_top"] and _emp_set(side) < side["emp"]:
        into.append(p["known_top"].pop(0))


def _empower_cost(s: State, c: dict, side: str) -> tuple[int | None, str]:
    """WD-58 (A-19, A-20): the spell's cost; the caster pays its colour (Apprentice in its own
    activation and Supreme Mugwump 1 less each, never below 0); the defender any colour."""
    pk = pack(s)
    card = pk.spells[c["spell"]]
    if not card["empower"]:
        return None, "neutral"
    if c[side]["emp"] > 0:
        return None, "neutral"
    cost = card["empower"]["cost"]
    if side == "def":
        return cost, "neutral"
    m = s["models"][c["att"]["model"]]
    traits = m["traits"]
    if "elf" in traits:
        return 0, "neutral"
    if "apprentice" in traits and s.get("act") and s["act"]["model"] == m["uid"]:
        cost -= 1
    if "supreme_mugwump" in traits:
        cost -= 1
    return max(0, cost), card["empower"]["colour"]


def _h_reveal(s: State, st: dict) -> None:
    c = s["clash"]
    side = c[st["side"]]
    n = abs(side["adv"])
    push_new(
        s,
        [
            {
                "step": "draw",
                "seat": side["seat"],
                "pile": "clash",
                "n": 1 + n,
                "dest": "reveal",
                "vis": "all",
                "side": st["side"],
            },
            {"step": "pick", "seat": side["seat"], "side": st["side"], "worst": side["adv"] < 0},
            {"step": "after_pick", "side": st["side"]},
        ],
    )


def _keep(s: State, side_name: str, card: str) -> None:
    c = s["clash"]
    side = c[side_name]
    for x in side["revealed"]:
        if x != card and not x.startswith("blank"):
            s["players"][side["seat"]]["discard"].append(x)  # WD-92: the others go to the discard pile
    side["revealed"] = [card]
    side["kept"] = card


def _h_after_pick(s: State, st: dict) -> None:
    c = s["clash"]
    side = c[st["side"]]
    if side["kept"] is None:
        _keep(s, st["side"], side["revealed"][0])
    if is_two_plus(s, side["kept"]) and not side.get("dark_lord"):
        push_front(s, extra_draw(side, st["side"]))


def extra_draw(side: dict, name: str) -> dict:
    """WD-36: a 2+ kept reveals one more card, whose upper value is added: the draw step for
    ``side`` (the clash's side ``name``), which ``_h_after_pick`` and the fold's shortcut push."""
    return {"step": "draw", "seat": side["seat"], "pile": "clash", "n": 1, "dest": "extra", "vis": "all", "side": name}


def _h_flip(s: State, st: dict) -> None:
    """FC-7: swapped cards turn face up; a swapped-away 2+ takes its extra card with it (A-08);
    a 2+ played from hand now reveals its extra card."""
    c = s["clash"]
    steps = []
    for name in ("def", "att"):
        side = c[name]  # both keys are in every clash (``open_clash``)
        if not side or side["swap"] is None:
            continue
        # The cards swapped away, in a loop, not a comprehension (a function and a frame each;
        # issue 17, P1).
        discard = s["players"][side["seat"]]["discard"]
        x = side["kept"]
        if x and not x.startswith("blank"):
            discard.append(x)
        for x in side["extra"]:
            if x and not x.startswith("blank"):
                discard.append(x)
        if s.get("rules", 1) >= 2:  # ``rules_version``
            side["swap_up"] = True  # face up now (FC-7): the view shows the card to everyone
        side["kept"] = side["swap"]
        side["revealed"] = [side["swap"]]
        side["extra"] = []
        if is_two_plus(s, side["kept"]):
            steps.append(
                {
                    "step": "draw",
                    "seat": side["seat"],
                    "pile": "clash",
                    "n": 1,
                    "dest": "extra",
                    "vis": "all",
                    "side": name,
                }
            )
    if steps:
        push_new(s, steps)


def _h_emp_draw(s: State, st: dict) -> None:
    """FC-9: the face-down Empowerment cards turn up (drawn now: nobody saw them before)."""
    c = s["clash"]
    steps = []
    for name in ("def", "att"):
        side = c.get(name)
        if side and side["emp"]:
            side["emp_cards"] += side.get("emp_known", []) + side["emp_fixed"]
            n = side["emp"] - _emp_set(side)
            side["emp_fixed"] = []
            if "emp_known" in side:
                side["emp_known"] = []
            side["emp"] = 0
            if n > 0:
                steps.append(
                    {
                        "step": "draw",
                        "seat": side["seat"],
                        "pile": "clash",
                        "n": n,
                        "dest": "emp",
                        "vis": "all",
                        "side": name,
                    }
                )
    if steps:
        push_new(s, steps)


def _obscured(s: State, m: dict) -> bool:
    return m["hex"] is not None and terrain(s, hex_of(m)) == "obscuring"


def _card_lines(s: State, side: dict) -> list[list]:
    """The card part of a total, line by line: the kept card plus a 2+'s extra (under Dark Lord,
    A-11, the revealed card counts as the pack's value unless it was swapped away), then the
    Empowerment cards."""
    # Loops, not comprehensions: each comprehension made a function and a frame per total, and
    # most sides have no extra card and no Empowerment card (issue 17, P1).
    if side.get("dark_lord") and side["swap"] is None:
        lines = [["Dark Lord", pack(s).params["dark_lord_value"]]]
    else:
        lines = [["Card", card_value(s, side["kept"])]]
        for x in side["extra"]:
            lines.append(["2+ extra card", card_value(s, x)])
    for x in side["emp_cards"]:
        lines.append(["Empowerment card", card_value(s, x)])
    return lines


#: A total line's amount (lines are ``[label, amount]``), summed in C (issue 17, P1).
_AMOUNT = itemgetter(1)


def defense_lines(s: State, c: dict) -> list[list]:
    """FC-9, the defender's total line by line ([label, amount]); the amounts add up to the total."""
    pk = pack(s)
    side = c["def"]
    # Models and traits read in place, not through ``M`` and ``has``: here, in ``attack_lines``,
    # ``_h_total`` and ``_h_clash_effects`` (a call fewer each, every clash; issue 17, P1).
    d = s["models"][side["model"]]
    a = s["models"][c["att"]["model"]]
    lines = _card_lines(s, side) + [["Defense", d["defense"]]]
    if side["early"]:
        lines.append(["Lower part", side["early"]])
    if c["react"]:
        lines.append([" + ".join(pk.spells[x]["name"] for x in c.get("reactions", [])) or "Reaction", c["react"]])
    arts = _passive_total(s, d, "defense")
    if arts:
        lines.append(["Artifacts", arts])
    if c["what"] == "attack" and c["prof"]["type"] == "physical" and d["traits"].get("physical_resistance", 0):
        lines.append(["Physical Resistance", d["traits"]["physical_resistance"]])  # WD-T28
    if c["what"] == "spell":
        if "master_wizard" in d["traits"]:
            lines.append(["Master Wizard", 1])  # WD-T25
        if "chosen_one" in d["traits"] and a["name"] == pk.params["chosen_one_nemesis"]:
            lines.append(["Chosen One", 1])  # WD-T4
    # Concealment first: most defenders have none, and then the spaces are not read (issue 17, P1).
    if d["conceal"] and a["hex"] and d["hex"] and geometry.distance(hex_of(a), hex_of(d)) > 1:
        lines.append(["Concealment", max(x["x"] for x in d["conceal"])])  # WD-S2
    if _obscured(s, d):
        lines.append(["Obscuring terrain", pk.params["obscuring_defense"]])  # WD-98, ruling A-12
    if d["animal"]:
        lines.append(["Animal Form", pk.params["animagus"]["defense_bonus"]])  # WD-T1, ruling A-12
    if d["ward"]:
        lines.append(["Ward", max(w["n"] for w in d["ward"])])
    if s.get("markers") and d["hex"]:
        guard = max(
            (x["n"] for x in markers_near(s, hex_of(d), "guard", d["seat"])), default=0
        )  # a guard marker (WD-99)
        if guard:
            lines.append(["Guard marker", guard])
    if d["burning"]:
        lines.append(["Burning", -1])  # WD-S1
    raw = sum(map(_AMOUNT, lines))
    if raw < 0:
        lines.append(["Defense is never below 0", -raw])  # ruling A-72
    return lines


def defense_total(s: State, c: dict) -> int:
    return sum(map(_AMOUNT, defense_lines(s, c)))


def attack_lines(s: State, c: dict) -> list[list]:
    """FC-9, the attacker's (or the actor's) total line by line ([label, amount])."""
    pk = pack(s)
    side = c["att"]
    a = s["models"][side["model"]]
    lines = _card_lines(s, side)
    if c["what"] == "spell" and "elf" in a["traits"]:
        card = pk.spells[c["spell"]]
        return lines + [[f"{card['name']} (Elf: a positive modifier only)", max(0, card["modifier"])]]  # WD-T8, A-53
    if side["early"]:
        lines.append(["Lower part", side["early"]])
    if c["what"] == "spell":
        card = pk.spells[c["spell"]]
        lines += [["Mastery", a["mastery"]], [f"{card['name']} modifier", card["modifier"]]]
        if "master_wizard" in a["traits"] and s["config"]["master_wizard_casting_bonus"]:
            lines.append(["Master Wizard", 1])  # ruling A-01 (EX-5)
        arts = _passive_total(s, a, "cast_bonus")
        if arts:
            lines.append(["Artifacts", arts])
    elif c["what"] == "attack":
        lines.append(["Attack Bonus", c["prof"]["bonus"]])
    elif c["what"] == "potion" and a["traits"].get("potioneer", 0):
        lines.append(["Potioneer", a["traits"]["potioneer"]])  # WD-85, A-58
    return lines


def _h_total(s: State, st: dict) -> None:
    c = s["clash"]
    lines = attack_lines(s, c)
    att = sum(map(_AMOUNT, lines))
    c["att"]["total"] = att
    v2 = s.get("rules", 1) >= 2  # ``rules_version``, read once
    if v2:
        c["att"]["lines"] = lines  # version 2: the total line by line, for the page (spec section 7)
    if c["faced"]:
        lines = defense_lines(s, c)
        d = sum(map(_AMOUNT, lines))
        c["def"]["total"] = d
        if v2:
            c["def"]["lines"] = lines
        c["net"] = att - d
    else:
        c["net"] = att
    c["success"] = c["net"] >= 1
    # FC-10: the clock goes on now, success or failure, unless an upkeep spell succeeded.
    if c["what"] == "spell" and c["source"] != "basic":
        card = pack(s).spells[c["spell"]]
        m = s["models"][c["att"]["model"]]
        p = s["players"][m["seat"]]
        if c["success"] and card["upkeep"]:
            pass
        elif c["source"] == "innate":
            if card["cooldown"] > 0:
                m["innate_clocks"][c["spell"]] = card["cooldown"]
        else:
            if card["cooldown"] > 0:
                p["clocks"][c["spell"]] = card["cooldown"]
            else:
                _return_spell(s, m["seat"], c["spell"])
        if c["success"]:
            s["stats"]["spells"][m["seat"]] += 1


def _spell_counted(c: dict) -> bool:
    """Did ``_h_total`` count this clash in the round's spells cast?"""
    return c["what"] == "spell" and c["source"] != "basic" and c["success"]


def _h_clash_effects(s: State, st: dict) -> None:
    """FC-11: on success the target takes the Impacts, then statuses and other effects."""
    c = s["clash"]
    if not c["success"]:
        return
    a = s["models"][c["att"]["model"]]
    t = s["models"][c["target"]]
    what = c["what"]
    upkeep = False
    if what == "attack":
        prof = c["prof"]
        n = prof["damage"] + c["dmg_bonus"]
        effects = [{"op": "impacts", "n": n}] if n > 0 else []
        effects += prof["effects"]
        x = 0
    elif what == "potion":
        effects, x = pack(s).potions[c["potion"]]["effects"], a["traits"].get("potioneer", 0)
    else:
        # The spell's card read once, not three times (issue 17, P1).
        card = pack(s).spells[c["spell"]]
        effects, x = card["effects"], 0
        if c["dmg_bonus"]:
            effects = [dict(e, n=e["n"] + c["dmg_bonus"]) if e["op"] == "impacts" else e for e in effects]
        upkeep = card["upkeep"]
        if upkeep:
            u = {
                "spell": c["spell"],
                "caster": a["uid"],
                "target": t["uid"],
                "markers": {"light": 0, "dark": 0},
                "paid": False,
            }
            if c.get("space"):
                u["space"] = c["space"]
            s["players"][a["seat"]]["upkeep"].append(u)
    push_new(s, effect_steps(s, effects, a, t, a["seat"], x, upkeep, c["spell"], c["faced"], c.get("space")))


def effect_steps(
    s: State,
    effects: list[dict],
    src: dict,
    tgt: dict,
    seat: int,
    x: int = 0,
    upkeep=None,
    spell=None,
    hostile: bool = False,
    space: str | None = None,
) -> list[dict]:
    """Steps applying ``effects`` (impacts first, then statuses, then the rest; WD-S0)."""
    steps: list[dict] = []
    imp = 0
    rest = []
    for e in effects:  # one loop, not a generator and a comprehension (issue 17, P1)
        if e["op"] == "impacts":
            imp += e["n"]
        else:
            rest.append(e)
    if imp:
        steps.append({"step": "hit", "model": tgt["uid"], "n": imp, "by": seat, "resist": True})
    if rest:
        st = {
            "step": "apply_effects",
            "effects": rest,
            "src": src["uid"],
            "tgt": tgt["uid"],
            "seat": seat,
            "x": x,
            "upkeep": bool(upkeep),
            "spell": spell,
            "source_hex": src["hex"],
        }
        if space is not None:
            st["space"] = space
        steps.append(st)
    return steps


def _h_apply_effects(s: State, st: dict) -> None:
    t = s["models"][st["tgt"]]
    src = s["models"][st["src"]]
    seat = st["seat"]
    steps = []
    for e in st["effects"]:
        op = e["op"]
        if op == "status":
            if t["removed"]:
                continue
            if e["status"] == "burning":
                t["burning"] = 1  # WD-S1, capped at 1 (A-40)
            elif e["status"] == "poison":
                t["poison"] = max(t["poison"], e["x"])  # WD-S0, EX-17
            elif e["status"] == "slow":
                t["slow"] = max(t["slow"], e["x"])
            elif e["status"] == "concealment":
                entry = {"x": e["x"], "src": st["spell"], "seat": seat}
                if st["upkeep"]:
                    entry["upkeep"] = True
                t["conceal"].append(entry)
        elif op == "ward":
            if not t["removed"]:
                entry = {"n": e["n"], "src": st["spell"], "seat": seat}
                if st["upkeep"]:
                    entry["upkeep"] = True
                t["ward"].append(entry)
        elif op == "heal":
            if not t["removed"]:
                t["impacts"] = max(0, t["impacts"] - e["n"] - (st["x"] if e.get("plus_x") else 0))
        elif op == "cleanse":
            t["burning"] = t["poison"] = t["slow"] = 0
        elif op == "push":
            if not t["removed"] and t["hex"] and st["source_hex"]:
                steps.append(
                    {
                        "step": "place",
                        "seat": seat,
                        "model": t["uid"],
                        "kind": "push",
                        "n": e["x"],
                        "source": st["source_hex"],
                    }
                )
        elif op == "teleport":
            if not t["removed"] and t["hex"]:
                steps.append({"step": "place", "seat": seat, "model": t["uid"], "kind": "teleport", "n": e["n"]})
        elif op == "move":
            if not src["removed"] and src["hex"]:
                steps.append({"step": "place", "seat": seat, "model": src["uid"], "kind": "move", "n": e["n"]})
        elif op == "regain_power":
            regain(s["players"][seat], e["n"])
        elif op == "draw_clash":
            steps.append({"step": "draw", "seat": seat, "pile": "clash", "n": e["n"], "dest": "hand", "vis": "owner"})
        elif op == "jinx":
            _add_card(s, other(seat), "jinxed")
        elif op == "luck":
            _add_card(s, seat, "lucky")
        elif op == "marker":
            # WD-99 (L1218-1224): a marker on the board, where the spell was cast; it may share the
            # space with models and other markers, and stays while the spell is upkept (L1087, A-68).
            if st.get("space") and terrain(s, geometry.parse(st["space"])) != "impassable":
                s.setdefault("markers", []).append(
                    {
                        "hex": st["space"],
                        "mark": e["mark"],
                        "seat": seat,
                        "spell": st["spell"],
                        "n": e["n"],
                        "radius": e["radius"],
                    }
                )
        elif op == "aura" or op == "defense_bonus":
            pass  # auras act in 3a while upkept; defense_bonus is a reaction's
    if steps:  # each made here
        push_new(s, steps)


def _add_card(s: State, seat: int, kind: str) -> None:
    """WD-37 (A-21): a Lucky or Jinxed card is shuffled into that deck (with lazy draws it simply
    joins the unknown pool)."""
    s["serial"] += 1
    uid = f"{seat}-{'L' if kind == 'lucky' else 'J'}{s['serial']:03d}"
    s["cards"][uid] = kind
    p = s["players"][seat]
    p["deck"] = sorted(p["deck"] + p["known_top"] + [uid])
    p["known_top"] = []


def _use_lower(s: State, side_name: str, timing: str, light: int | None = None) -> None:
    """FC-8 / FC-12 (A-24): a card's lower part, paid from the pool."""
    c = s["clash"]
    side = c[side_name]
    lo = lower(s, side["kept"])
    p = s["players"][side["seat"]]
    pay(p, lo["cost"], lo["colour"], light=light)
    me = s["models"][side["model"]]
    foe = s["models"][c["def"]["model"] if side_name == "att" else c["att"]["model"]]

    def effect_on(e: dict, tgt: dict) -> dict:
        # The lower part's own effect, from its owner's model, on ``tgt`` (no X, no upkeep).
        return {
            "step": "apply_effects",
            "effects": [e],
            "src": me["uid"],
            "tgt": tgt["uid"],
            "seat": side["seat"],
            "x": 0,
            "upkeep": False,
            "spell": None,
            "source_hex": me["hex"],
        }

    steps = []
    for e in lo["effects"]:
        op = e["op"]
        if op == "clash_bonus":
            side["early"] += e["n"]
        elif op == "damage_bonus":
            c["dmg_bonus"] += e["n"]
        elif op in ("regain_power", "draw_clash", "luck", "heal"):
            steps.append(effect_on(e, me))
        elif op == "move":
            steps.append({"step": "place", "seat": side["seat"], "model": me["uid"], "kind": "move", "n": e["n"]})
        elif op == "jinx":
            _add_card(s, other(side["seat"]), "jinxed")
        else:
            steps.append(effect_on(e, foe))
    push_front(s, *steps)


#: What of a clash stays as ``last_clash`` once it is over, in this order; read in C (issue 17, P1).
_LAST_CLASH_KEYS = ("what", "att", "def", "net", "success", "target", "spell", "prof", "potion")
_LAST_CLASH = itemgetter(*_LAST_CLASH_KEYS)


#: The cards that leave the game once they added their value (WD-37, A-22).
_LUCK = frozenset(("lucky", "jinxed"))


def _h_clash_discard(s: State, st: dict) -> None:
    """FC-13: used cards go to their owner's discard; a Lucky or Jinxed card that added its value
    leaves the game (WD-37, A-22)."""
    c = s["clash"]
    cards = s["cards"]
    players = s["players"]
    for side in (c["att"], c["def"]):  # both keys are in every clash (``open_clash``)
        if not side:
            continue
        p = players[side["seat"]]
        # The kept card, then the extra and Empowerment cards, which most sides have none of: then
        # no tuple of them is made (issue 17, P1).
        if side["extra"] or side["emp_cards"]:
            used = (side["kept"], *side["extra"], *side["emp_cards"])
        else:
            used = (side["kept"],)
        for x in used:
            if x is None or x.startswith("blank"):
                continue
            if cards[x] in _LUCK:
                p["gone"].append(x)
            else:
                p["discard"].append(x)
    s["last_clash"] = dict(zip(_LAST_CLASH_KEYS, _LAST_CLASH(c)))
    s["clash"] = None
    # The clash's "action_end" (FC-14) follows at once (``open_clash`` queues the two together,
    # and what the windows before them queue goes in front of both): ``run`` would take it next,
    # quiet like this step, so it is taken here (issue 17, P1).
    queue = s["queue"]
    if queue and queue[0]["step"] == "action_end":
        del queue[0]
        _h_power_refills(s, None)


def _h_action_end(s: State, st: dict) -> None:
    """FC-14 / WD-56: a seat whose opponent refilled a Clash deck checks upkeep, then refills its pool.
    The "power_refills" step it queued was always the next one ``run`` took, at once and quiet
    like this one, so it runs here (issue 17, P1)."""
    _h_power_refills(s, st)


def _h_power_refills(s: State, st: dict) -> None:
    players = s["players"]
    if not players[0]["refill_due"] and not players[1]["refill_due"]:
        return  # after most actions: nothing to queue
    sp = s["starting"] if s["starting"] is not None else 0
    steps = []
    for seat in (sp, other(sp)):
        if s["players"][seat]["refill_due"]:
            s["players"][seat]["refill_due"] = False
            steps += _upkeep_steps(s, [seat], checkpoint="refill")
            steps.append({"step": "pool_refill", "seat": seat})
    push_front(s, *steps)


def _h_pool_refill(s: State, st: dict) -> None:
    p = s["players"][st["seat"]]
    for c in ("light", "dark"):
        p["pool"][c] += p["spent"][c]
        p["spent"][c] = 0


# ====================================================================== impacts and removal


def _h_hit(s: State, st: dict) -> None:
    m = s["models"][st["model"]]
    if m["removed"] or st["n"] <= 0:
        return
    rx = m["traits"].get("resistance", 0)
    if st["resist"] and rx and s["players"][m["seat"]]["hand"]:
        # WD-T33 (A-44): discard up to X hand cards, 1 Impact less each.
        push_new(s, [{"step": "resist", "seat": m["seat"], "model": m["uid"], "n": st["n"], "max": rx, "by": st["by"]}])
        return
    push_new(s, [{"step": "impacts", "model": m["uid"], "n": st["n"], "by": st["by"]}])


def _h_impacts(s: State, st: dict) -> None:
    m = s["models"][st["model"]]
    if m["removed"] or st["n"] <= 0:
        return
    m["impacts"] += st["n"]
    if st["by"] is not None and st["by"] != m["seat"]:
        s["stats"]["impacts"][st["by"]] += st["n"]
    if m["impacts"] > capacity(m):
        if "brave" in m["traits"]:
            push_front(s, *brave_steps(s, m), {"step": "removal", "model": m["uid"], "by": st["by"]})
        else:
            push_front(s, {"step": "removal", "model": m["uid"], "by": st["by"]})


def brave_steps(s: State, m: dict) -> list[dict]:
    """WD-T3 (A-45): an Individual-style Defense test, no swap; 3 or more keeps it in play."""
    adv = 1 if "chosen_one" in m["traits"] else 0
    s["brave"] = {"seat": m["seat"], "model": m["uid"], "cards": [], "extra": [], "adv": adv}
    return [
        {"step": "draw", "seat": m["seat"], "pile": "clash", "n": 1 + adv, "dest": "brave", "vis": "all"},
        {"step": "brave_pick", "seat": m["seat"], "side": None},
        {"step": "brave_total"},
    ]


def _h_brave_total(s: State, st: dict) -> None:
    b = s["brave"]
    m = s["models"][b["model"]]
    if len(b["cards"]) > 1:
        best = max(b["cards"], key=lambda x: (rank(s, x), x))
        for x in b["cards"]:
            if x != best and not x.startswith("blank"):
                s["players"][b["seat"]]["discard"].append(x)
        b["cards"] = [best]
    total = sum(card_value(s, x) for x in b["cards"] + b["extra"]) + m["defense"]
    if _obscured(s, m):
        total += pack(s).params["obscuring_defense"]
    if m["burning"]:
        total -= 1
    p = s["players"][b["seat"]]
    for x in b["cards"] + b["extra"]:
        if x.startswith("blank"):
            continue
        (p["gone"] if s["cards"][x] in ("lucky", "jinxed") else p["discard"]).append(x)
    if total >= 3:
        m["impacts"] = capacity(m)
    s["last_brave"] = {"model": m["uid"], "total": total, "stays": total >= 3}
    s["brave"] = None


def _h_removal(s: State, st: dict) -> None:
    """WD-93/94, Horcrux Maker (WD-T16, A-46), then removal (A-69) and Gryffindor (WD-T13)."""
    m = s["models"][st["model"]]
    if m["removed"] or m["impacts"] <= capacity(m):
        return
    if "horcrux_maker" in m["traits"]:
        live = _live_horcruxes(s, m)
        if len(live) > 1:
            # A-46: the owner picks which Horcrux goes.
            push_front(s, {"step": "horcrux_lose", "seat": m["seat"], "model": m["uid"], "by": st["by"]})
            return
        if live:
            _lose_horcrux(s, m, live[0], st["by"])
            return
    remove_model(s, m, st["by"])


def _live_horcruxes(s: State, m: dict) -> list[dict]:
    return [
        h
        for h in m["horcruxes"]
        if not M(s, h["model"])["removed"]
        and (h["kind"] == "model" or any(a["id"] == h["id"] for a in M(s, h["model"])["artifacts"]))
    ]


def _lose_horcrux(s: State, m: dict, h: dict, by) -> None:
    """Instead of removal: all Impacts go and the Horcrux leaves the game (for a model, the model
    is removed with the full cascade)."""
    m["horcruxes"].remove(h)
    m["impacts"] = 0
    holder = M(s, h["model"])
    if h["kind"] == "model":
        holder["impacts"] = capacity(holder) + 1
        push_front(s, {"step": "removal", "model": holder["uid"], "by": by})
    else:
        holder["artifacts"] = [a for a in holder["artifacts"] if a["id"] != h["id"]]


def remove_model(s: State, m: dict, by: int | None) -> None:
    seat = m["seat"]
    p = s["players"][seat]
    set_space(s, m, None)
    m["removed"] = True
    living_changed(s)  # the derived ``living`` (``state.DERIVED_KEYS``)
    m["artifacts"] = []
    m["burning"] = m["poison"] = m["slow"] = 0
    for u in list(p["upkeep"]):
        if u["caster"] == m["uid"]:
            disable_upkeep(s, seat, u["spell"])  # WD-63
    for sp in list(m["spells"]):
        # WD-94 (EX-18): assigned spells go back to the Spellbook, still carrying their clocks.
        m["spells"].remove(sp)
        if sp not in p["spellbook"]:
            p["spellbook"].append(sp)
            p["spellbook"].sort()
    if by is not None and by != seat:
        s["stats"]["removed"][by] += 1
    if not any_alive(s, seat):
        s["game_over"] = True  # WD-94, A-42
    gry = [o for o in on_board(s, seat) if "gryffindor" in o["traits"]]
    if gry:
        push_front(
            s,
            {
                "step": "place",
                "seat": seat,
                "model": None,
                "kind": "gryffindor",
                "n": pack(s).params["gryffindor_move"],
            },
        )


# ====================================================================== quests (WD-42..48)


#: ``_board_marks``' tables by ``board_key``; emptied when full, so a long-lived process (a
#: verifier) keeps those of its recent games only.
_MARKS: dict[str, _Marks] = {}


class _Marks:
    """What the quest conditions read of the board and its overlays (``_board_marks``): sets of
    spaces by name, so a condition asks one set per model where it worked out each model's
    terrain or searched the overlays for its space after most events (issue 17, P1).

    ``rough``: the spaces whose terrain (``terrain``) is neither Open nor off the board;
    ``kinds``: the spaces whose first overlay (``overlay_at``) is a face-up Challenge, each with
    its kind; ``chal_zone[half]``: those of them in the Zone of that half."""

    __slots__ = ("rough", "kinds", "chal_zone")

    def __init__(self, s: State):
        b = board(s)
        printed = b.terrain_by_key
        rough = set(b.rough_keys)
        kinds: dict[str, str] = {}
        first: dict[str, dict] = {}
        for o in s["overlays"]:
            first.setdefault(o["hex"], o)
        for k, o in first.items():
            t = printed.get(k)
            if t is None:
                continue  # off the board: no model stands there
            if o["face_up"]:
                if o["kind"] == "terrain":
                    t = o["what"]
                elif o["kind"] == "challenge":
                    kinds[k] = o["what"]
            else:
                t = _mystery_terrain(s["pack"], s["map"]) or t
            if t in ("open", None):
                rough.discard(k)
            else:
                rough.add(k)
        zones = b.zones_by_key
        self.rough = frozenset(rough)
        self.kinds = kinds
        self.chal_zone = [frozenset(k for k in kinds if half in zones.get(k, ())) for half in (0, 1)]


def _board_marks(s: State) -> _Marks:
    """The quest conditions' tables of the state's board and overlays (``_Marks``): pure functions
    of the board and the overlays' public side, so kept by the state's ``board_key``
    (``test_quest_conditions.py`` holds the conditions to the state's helpers along playouts)."""
    bk = s.get("board_key")
    if bk is None:
        bk = board_key_of(s)  # a state saved before the key was kept
    found = _MARKS.get(bk)
    if found is None:
        if len(_MARKS) >= 256:
            _MARKS.clear()
        found = _MARKS[bk] = _Marks(s)
    return found


class _QuestLook:
    """What the quest conditions of one seat read, worked out once per scoring instead of once
    per condition and model (the lightning quests are checked after every event, issue 17, P1):
    the seat's models on the board. What the overlays hold for the conditions is kept per board and
    overlay set (``_board_marks``)."""

    def __init__(self, s: State, seat: int):
        self.s = s
        self.seat = seat
        self._mine: list[tuple[str, dict]] | None = None

    def mine(self) -> list[tuple[str, dict]]:
        """(uid, model) for the seat's living models on the board. In no particular order: the
        conditions count them, and the one that names a model (the leader) takes the least uid."""
        if self._mine is None:
            # The seat's kept living uids (``state.LIVING``), not every model filtered by seat and
            # removal (issue 17, P1).
            models = self.s["models"]
            mine = self._mine = []
            for uid in living_of(self.s)[self.seat]:
                m = models[uid]
                if m["hex"] is not None:
                    mine.append((uid, m))
        return self._mine

    def in_zone(self, m: dict, seat: int) -> bool:
        s = self.s
        return s["zone_half"][seat] in board(s).zones_by_key.get(m["hex"], ())


def condition_holds(s: State, seat: int, cond: dict, look: _QuestLook | None = None) -> bool:
    """Does ``cond`` hold for ``seat``? Any condition dict, compiled each call; a pack's quests
    are compiled once (``quest_test``)."""
    return _compile(cond)(s, seat, look if look is not None else _QuestLook(s, seat))


def _compile(cond: dict):
    """The condition as one function of ``(s, seat, look)``, its keys read once: a lightning
    quest's condition is checked after every event (issue 17, P1). Every part only reads, so the
    first part that fails decides."""
    if "all" in cond:
        return _every([_compile(c) for c in cond["all"]])
    if "any" in cond:
        return _some([_compile(c) for c in cond["any"]])
    tests = []
    if "challenges" in cond:
        n_held, zone = cond["challenges"], cond.get("zone")

        def challenges(s, seat, look):
            # Each of the seat's models asks the board's kept table of face-up Challenges (in the
            # Zone asked for; ``_Marks``) with its space first, the one field that tells most of
            # them apart, where its overlay was searched for (issue 17, P1).
            marks = _MARKS.get(s.get("board_key"))  # ``_board_marks``, with no call once kept
            if marks is None:
                marks = _board_marks(s)
            if zone == "enemy":
                table = marks.chal_zone[s["zone_half"][1 - seat]]
            elif zone == "own":
                table = marks.chal_zone[s["zone_half"][seat]]
            else:
                table = marks.kinds
            if not table:
                return n_held <= 0  # none face up (before the unveiling), or none in that Zone
            # The seat's models by space (``state.SPACES``): those on a table's space, counted in C.
            sp = s.get(SPACES) or spaces_of(s)
            return len(sp[seat].keys() & table) >= n_held

        tests.append(challenges)
    if "challenge_kinds" in cond:
        wanted, n_kinds = set(cond["challenge_kinds"]), cond.get("min", 1)

        def challenge_kinds(s, seat, look):
            table = _board_marks(s).kinds
            sp = s.get(SPACES) or spaces_of(s)  # the seat's models by space (``state.SPACES``)
            kinds = {table[k] for k in sp[seat] if k in table}
            return len(kinds & wanted) >= n_kinds

        tests.append(challenge_kinds)
    if "leader" in cond:
        where = cond["leader"]

        def leader(s, seat, look):
            if where == "challenge" and not _board_marks(s).kinds:
                return False  # no Challenge face up (before the unveiling): no leader on one
            # The seat's leader: the least uid of its living leaders on the board, the first met in
            # the seat's living uids (``state.LIVING``, in uid order).
            lead = None
            models = s["models"]
            for uid in living_of(s)[seat]:
                m = models[uid]
                if m["leader"] and m["hex"] is not None:
                    lead = m
                    break
            if lead is None:
                return False
            if where == "enemy_zone":
                return s["zone_half"][1 - seat] in board(s).zones_by_key.get(lead["hex"], ())
            if where == "challenge":
                return lead["hex"] in _board_marks(s).kinds
            return True

        tests.append(leader)
    if "arrival_spaces" in cond:
        n_arrival = cond["arrival_spaces"]

        def arrival_spaces(s, seat, look):
            arr = board(s).arrival_keys[s["zone_half"][other(seat)]]
            return sum(1 for _, m in look.mine() if m["hex"] in arr) >= n_arrival

        tests.append(arrival_spaces)
    if "models_in_enemy_zone" in cond:
        n_enemy_zone = cond["models_in_enemy_zone"]

        def models_in_enemy_zone(s, seat, look):
            foe = other(seat)
            return sum(1 for _, m in look.mine() if look.in_zone(m, foe)) >= n_enemy_zone

        tests.append(models_in_enemy_zone)
    if "models_alive" in cond:
        n_alive = cond["models_alive"]
        tests.append(lambda s, seat, look: len(look.mine()) >= n_alive)
    if "terrain" in cond:
        n_terrain = cond["terrain"]

        def on_terrain(s, seat, look):
            # Each of the seat's models asks the board's kept table of spaces not Open (``_Marks``)
            # with its space first, where each overlaid space's terrain was worked out per model
            # per check (issue 17, P1).
            marks = _MARKS.get(s.get("board_key"))  # ``_board_marks``, with no call once kept
            if marks is None:
                marks = _board_marks(s)
            # The seat's models by space (``state.SPACES``): those on a space not Open, counted in C.
            sp = s.get(SPACES) or spaces_of(s)
            return len(marks.rough.intersection(sp[seat])) >= n_terrain

        tests.append(on_terrain)
    for key, counter in (
        ("impacts_made", "impacts"),
        ("removed_this_round", "removed"),
        ("spells_cast", "spells"),
        ("potions_used", "potions"),
    ):
        if key in cond:
            tests.append(lambda s, seat, look, counter=counter, n=cond[key]: s["stats"][counter][seat] >= n)
    if not tests:
        return lambda s, seat, look: True
    if len(tests) == 1:
        return tests[0]
    return _every(tests)


# ``all`` and ``any`` over the parts, in their order, as loops: a generator for each check cost
# more than the parts it ran (issue 17, P1).
def _every(parts: list):
    def every(s, seat, look):
        for f in parts:
            if not f(s, seat, look):
                return False
        return True

    return every


def _some(parts: list):
    def some(s, seat, look):
        for f in parts:
            if f(s, seat, look):
                return True
        return False

    return some


@lru_cache(maxsize=64)
def _mystery_terrain(pack_id: str, map_id: str) -> str | None:
    """The terrain of a space under a face-down overlay on this map (``terrain``), None if printed."""
    for rule in content.load(pack_id).maps[map_id].get("special_rules", ()):
        if rule in MYSTERY_TERRAIN:
            return MYSTERY_TERRAIN[rule]
    return None


@lru_cache(maxsize=256)
def quest_test(pack_id: str, quest: str):
    """The pack's quest's condition, compiled (``_compile``): ``quest_test(pack_id, q)(s, seat,
    _QuestLook(s, seat))`` is ``condition_holds(s, seat, condition)``."""
    return _compile(content.load(pack_id).quests[quest]["condition"])


def score_quests(s: State, seat: int, lightning_only: bool) -> None:
    """WD-43 (3b) and WD-44 (lightning quests score at once; ruling A-61)."""
    pk = pack(s)
    p = P(s, seat)
    look = None
    for q in list(p["active"]):
        card = pk.quests[q]
        if lightning_only and not card["lightning"]:
            continue
        if len(p["scored"]) >= 9:
            return  # WD-48
        # Worked out once for the seat's quests; a quest scored here changes none of what it
        # reads (the models, the overlays, the counters).
        look = look if look is not None else _QuestLook(s, seat)
        if quest_test(s["pack"], q)(s, seat, look):
            p["active"].remove(q)
            p["scored"].append(q)
            p["qp"] += card["points"]


@lru_cache(maxsize=8)
def _lightning_quests(pack_id: str) -> dict[str, int]:
    """The pack's lightning quests, each with its points (only looked up, never listed)."""
    return {q: card["points"] for q, card in content.load(pack_id).quests.items() if card["lightning"]}


#: The condition keys whose tests read the ``_QuestLook`` (the seat's models, the Zones); the
#: others read the state's counters, or the state itself and the board's kept tables
#: (``terrain``, and the Challenges': ``_board_marks``).
_LOOK_KEYS = frozenset({"arrival_spaces", "models_in_enemy_zone", "models_alive"})


def _reads_look(cond: dict) -> bool:
    """Does ``_compile(cond)``'s test read its ``look``?"""
    if "all" in cond:
        return any(_reads_look(c) for c in cond["all"])
    if "any" in cond:
        return any(_reads_look(c) for c in cond["any"])
    return not _LOOK_KEYS.isdisjoint(cond)


@lru_cache(maxsize=8)
def _lightning_tests(pack_id: str) -> dict[str, tuple]:
    """The pack's lightning quests, each with its compiled test (``quest_test``), points, and
    whether the test reads a ``_QuestLook`` (``_reads_look``)."""
    quests = content.load(pack_id).quests
    return {
        q: (quest_test(pack_id, q), points, _reads_look(quests[q]["condition"]))
        for q, points in _lightning_quests(pack_id).items()
    }


#: The phases in which the lightning quests are checked.
_LIGHTNING_PHASES = frozenset(("start", "activation", "end"))


#: ``_lightning_tests`` by pack: the check runs after most events (issue 17, P1).
_LIGHTNING_TESTS = content.PerPack(_lightning_tests)


def _score_lightning(s: State, seat: int, due: list[str], lightning: dict[str, tuple]) -> None:
    """Scores those of ``due`` (a copy of some of ``seat``'s active lightning quests: scoring one
    takes it out of ``active``) whose condition holds, in order, up to nine scored (WD-48)."""
    p = s["players"][seat]
    look = None
    scored = p["scored"]
    for q in due:
        if len(scored) >= 9:
            break  # WD-48
        test, points, reads_look = lightning[q]
        # Made only for a test that reads it: most active lightning quests count the state's
        # counters or its terrain (issue 17, P1).
        if reads_look and look is None:
            look = _QuestLook(s, seat)
        if test(s, seat, look):
            p["active"].remove(q)
            scored.append(q)
            p["qp"] += points


def check_lightning(s: State) -> None:
    """``score_quests(s, seat, lightning_only=True)`` for each seat."""
    if s["phase"] not in _LIGHTNING_PHASES or s.get("stats") is None:
        return
    # The seats are taken in seat order, not the acting seat first: a quest condition reads the
    # models, the overlays and the counters, never a player, and scoring changes only its own
    # player, so one seat's scoring cannot change what the other's conditions find.
    lightning = _LIGHTNING_TESTS[s["pack"]]
    has_lightning = lightning.__contains__
    players = s["players"]
    # The active lightning quests filtered in C; most of the time a seat has one, and none is
    # told by the same pass (issue 17, P1).
    due = list(filter(has_lightning, players[0]["active"]))
    if due:
        _score_lightning(s, 0, due, lightning)
    due = list(filter(has_lightning, players[1]["active"]))
    if due:
        _score_lightning(s, 1, due, lightning)


def check_lightning_of(s: State, seat: int, drawn: list[str] | None = None) -> None:
    """``check_lightning`` after an event whose only change a quest condition reads was made to
    ``seat``'s side: one of its models moved (nothing else the check reads changed), or with
    ``drawn``, those quests came into its active ones (a draw). The check after the event before
    left no active lightning quest that holds unless its seat has scored nine (it scores each
    that does), and a condition of a seat reads only that seat's models and counters, the board
    and the overlays (``_compile``), never the other seat's side. So the other seat's quests, and
    with ``drawn`` the seat's other quests, still do not hold, and the full check would score
    only what this one scores, in the same order (issue 17, P1; ``test_lightning_shortcut.py``
    holds the engine's scores to the full check after every event of playouts)."""
    if s["phase"] not in _LIGHTNING_PHASES or s.get("stats") is None:
        return
    lightning = _LIGHTNING_TESTS[s["pack"]]
    active = s["players"][seat]["active"]
    if drawn is None:
        due = list(filter(lightning.__contains__, active))
    else:
        due = [q for q in active if q in lightning and q in drawn]
    if due:
        _score_lightning(s, seat, due, lightning)


# ====================================================================== automatic step table

AUTO = {
    "reveal_groups": _h_reveal_groups,
    "after_stock": _h_after_stock,
    "overlays": _h_overlays,
    "after_unveil": _h_after_unveil,
    "after_mulligan": _h_after_mulligan,
    "horcrux_setup": _h_horcrux_setup,
    "start_deploy": _h_start_deploy,
    "generate_pool": _h_generate_pool,
    "round_start": _h_round_start,
    "start_refill": _h_start_refill,
    "cooldown": _h_cooldown,
    "instinctive_setup": _h_instinctive_setup,
    "activation_end": _h_activation_end,
    "next_activation": _h_next_activation,
    "end_phase": _h_end_phase,
    "poison": _h_poison,
    "end_statuses": _h_end_statuses,
    "score_quests": _h_score_quests,
    "end_round": _h_end_round,
    "reveal": _h_reveal,
    "fc2": _h_fc2,
    "after_pick": _h_after_pick,
    "flip": _h_flip,
    "emp_draw": _h_emp_draw,
    "total": _h_total,
    "clash_effects": _h_clash_effects,
    "apply_effects": _h_apply_effects,
    "clash_discard": _h_clash_discard,
    "action_end": _h_action_end,
    "power_refills": _h_power_refills,
    "pool_refill": _h_pool_refill,
    "hit": _h_hit,
    "impacts": _h_impacts,
    "brave_total": _h_brave_total,
    "removal": _h_removal,
}

#: Every step by name: its handler for an automatic step, None for a decision or a chance. One
#: lookup tells ``run`` which it is (issue 17, P1).
_STEPS = {**dict.fromkeys(sorted(DECISIONS | CHANCES)), **AUTO}
