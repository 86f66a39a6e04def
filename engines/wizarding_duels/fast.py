"""Fast paths of a fold (``apply_in_place``) for the commonest events (issue 17, P1).

An event of a replay spent a good part of its cost getting through the layers of the general
path (``_apply``, ``_check``, ``legal.allowed``, ``rules.decide``), each of which looks up again
what the one before it had found. Each fast path here checks one kind of answer and applies it in
one pass, then lets the rules' own automatic steps run (``rules.run``) and checks the lightning
quests as ``_apply`` does.

A fast path returns True when it has applied the event. It returns False *before it writes
anything* for anything it does not take: an answer written another way (an extra field, the
animal form, a riskier route), and every answer the rules refuse. The general path then applies
the event or refuses it with its own code and sentence, so no refusal is written here.

The dispatch (``WizardingDuelsEngine.apply_in_place``) has already made ``may_answer``'s checks
for the steps here (a seat answers alone): the queue is not empty, the game is not over, the
event's seat (an int) is the front step's, and the action is a dict. The copying ``apply`` never
takes these paths.

``tests/engines/wizarding_duels/test_fold_fast_paths.py`` holds every fast path to the general
path (the copying ``apply``) along playouts of both versions, with near misses, malformed actions
and other seats' actions too.
"""

from __future__ import annotations

from engines.base import IllegalAction
from engines.treecopy import copy_tree

from . import geometry, groups, legal, rules
from .state import (
    State,
    board,
    can_pay,
    controls,
    living_of,
    overlay_at,
    overlay_placed,
    pack,
    pay_splits,
    push_new,
    rank,
    rules_version,
    set_space,
    terrain,
)
from .state import lower as lower_part

_run = rules.run
#: The steps ``run`` stops at at once, with no test (``rules._WAITS``).
_WAITS = rules._WAITS
_check_lightning = rules.check_lightning
_check_lightning_of = rules.check_lightning_of
_end_activation = rules._end_activation


def _after_quiet_answer(s: State) -> bool:
    """After a quiet answer or draw (``QUIET_STEPS``, ``QUIET_ACTS``, ``quiet_chance``): the
    rules' automatic steps, and the lightning check when they were not quiet."""
    if not _run(s):
        _check_lightning(s)
    return True


def _pay(s: State, cat: str, how: str, m: dict) -> None:
    """An act step's answer taken off the queue and paid for from ``how`` (``rules._slot``)."""
    # The rule of paying for an action stays in ``rules._spend`` alone: a copy written out here
    # saved about 0.1% of a replay, not worth two places to keep in step.
    s["queue"].pop(0)
    rules._spend(s, cat, how, m)


def _then_act(s: State, seat: int, steps: list[dict], quiet: bool, moved: int | None = None) -> bool:
    """The act step back after ``steps`` (each made by the caller or the rules for it, held nowhere
    else: no copy), then ``run`` and the lightning check as ``_apply`` takes them for an answer
    that is ``quiet`` (``QUIET_ACTS``) or not. ``moved``: the seat whose model the answer moved,
    its one change the check reads; when the steps run after it were quiet, only that seat's
    quests are checked (``rules.check_lightning_of``)."""
    steps.append({"step": "act", "seat": seat})
    s["queue"][0:0] = steps  # ``push_new``'s write, with no call of it (issue 17, P1)
    if not _run(s) or (not quiet and moved is None):
        _check_lightning(s)
    elif not quiet:
        _check_lightning_of(s, moved)
    return True


def _after_action(s: State, seat: int, steps: list[dict], quiet: bool, moved: int | None = None) -> bool:
    """``_then_act`` for an action whose ``steps`` are followed by its "action_end" (FC-14). With
    no step before it and no Power Pool to refill, "action_end" queues nothing
    (``rules._h_power_refills``) and ``run`` would take it and stop at the act step at once, both
    quiet (``QUIET_STEPS``): the act step goes back with no step made, queued and taken, and no
    ``run`` (issue 17, P1)."""
    if not steps:
        players = s["players"]
        if not players[0]["refill_due"] and not players[1]["refill_due"]:
            s["queue"].insert(0, {"step": "act", "seat": seat})
            if not quiet:
                if moved is None:
                    _check_lightning(s)
                else:
                    _check_lightning_of(s, moved)
            return True
    steps.append({"step": "action_end"})
    return _then_act(s, seat, steps, quiet, moved)


def activate(s: State, st: dict, seat: int, action: dict) -> bool:
    """An activation of a model (``{"type": "activate", "model": uid}``), or of an Animagus in
    its animal form (``"animal": True``, written as ``true``: ``1`` goes the general way)."""
    uid = action.get("model")
    if type(uid) is not str or action.get("type") != "activate":
        return False
    m = s["models"].get(uid)
    if m is None or m["removed"] or m["hex"] is None or m["seat"] != seat:
        return False
    if len(action) == 3:
        if action.get("animal") is not True or "animagus" not in m["traits"] or m["animal"]:
            return False
        m["animal"] = True
    elif len(action) != 2:
        return False
    # ``decide``: the window gives way to the activation's act step (an absent ``animal`` leaves
    # the model's form as it is).
    s["queue"][0] = {"step": "act", "seat": seat}
    s["act"] = {
        "model": uid,
        "single": m["markers"] > 0,  # WD-72 (EX-19)
        "used_single": False,
        "left": dict(m["actions"]),
        "basic_used": False,
        "slytherin": False,
    }
    # No ``run``: an act step is never an automatic step and never skipped (``_skip_decision``),
    # so ``run`` would stop at it at once, quiet; and an activation is quiet (``QUIET_STEPS``), so
    # the lightning check would score nothing.
    return True


def act_end(s: State, m: dict, seat: int, action: dict) -> bool:
    """The end of an activation (``{"type": "end"}``) of model ``m``, on the board or not."""
    if len(action) != 1:
        return False
    # The "activation_end" step ``decide`` queues is the first one ``run`` would take, at once:
    # its handler runs here with no step made, queued and taken (issue 17, P1). It is quiet
    # (``QUIET_STEPS``), as the end is (``QUIET_ACTS``), and never ends the game (it only queues
    # steps), so ``run``'s checks after it would pass.
    s["queue"].pop(0)
    if _end_activation(s, m):
        # The next activation's window is in front: ``run`` would stop there at once, quiet, and
        # a quiet run asks for no lightning check.
        return True
    return _after_quiet_answer(s)


def act_move(s: State, m: dict, seat: int, action: dict) -> bool:
    """A move (``{"type": "move", "to": k}`` by the safest route, or in version 2
    ``{"type": "move", "to": k, "dangerous": d}`` by a riskier one): ``legal._act_move``'s checks
    and ``rules._act``'s move, with the action slot, the move points and the space worked out once.
    A danger count written as anything but an int (``True`` for 1) goes the general way."""
    k = action.get("to")
    if type(k) is not str:
        return False
    if len(action) == 2:
        danger = None
    else:
        danger = action.get("dangerous")
        if len(action) != 3 or type(danger) is not int or rules_version(s) < 2:
            return False
    how = rules._slot(s, "move", m)
    if not how:
        return False
    h = legal._space(k)
    if h is None:
        return False
    points = rules.move_points(s, m)
    safest = rules.safest_to(s, m, points, h)
    if safest is None:
        return False
    if danger is not None:
        # The list offers a riskier route's count beside the safest one's, never the safest's.
        if not rules.riskier_route_with(s, m, points, h, safest, danger):
            return False
        safest = danger
    # Paying for the move changes nothing ``move_points`` reads (the form, traits, artifacts, Slow).
    _pay(s, "move", how, m)
    # A move is never quiet: the model's space changed, a change to its seat's side alone.
    return _after_action(s, seat, rules._move_to(s, m, h, safest), False, m["seat"])


def act_draw_quest(s: State, m: dict, seat: int, action: dict) -> bool:
    """A Quest card drawn for an active one discarded (``{"type": "draw_quest", "discard": q}``):
    ``legal._act_draw_quest``'s checks and ``rules._act``'s draw, the paying slot worked out once."""
    q = action.get("discard")
    if len(action) != 2 or type(q) is not str:
        return False
    p = s["players"][m["seat"]]
    if q not in p["active"]:
        return False
    how = rules._slot(s, "advanced", m, "tactician|ravenclaw" if controls(s, m, "challenge") else "tactician|")
    if not how:
        return False
    _pay(s, "advanced", how, m)
    # ``_act`` writes into the acting seat's player; the model is that seat's (``may_answer``
    # and the activation's own check).
    p = s["players"][seat]
    p["active"].remove(q)
    p["quest_discard"].append(q)
    steps = [{"step": "draw", "seat": seat, "pile": "quest", "n": 1, "dest": "active", "vis": "all"}]
    steps.append({"step": "action_end"})
    return _then_act(s, seat, steps, True)  # a quest discarded is quiet (``QUIET_ACTS``)


def act_cast(s: State, m: dict, seat: int, action: dict) -> bool:
    """A spell cast at a model (``{"type": "cast", "spell": sp, "target": uid}``): ``legal._act_cast``'s
    checks and ``rules._act``'s cast, with the paying slot and the spell's source worked out once.
    A spell that places a marker is cast at a space in reach and sight (``rules.marker_spaces``)."""
    sp = action.get("spell")
    target = action.get("target")
    if len(action) != 3 or type(sp) is not str or type(target) is not str:
        return False
    how = rules._slot(s, "advanced", m, "expert_wizard|master_wizard")
    if not how:
        return False
    src = rules.spell_source(s, m, sp)
    if src is None:
        return False
    card = pack(s).spells[sp]
    space = rules.places_marker(card)
    if space:
        h = legal._space(target)
        b = board(s)
        if h is None or h not in b.terrain:
            return False
        here = geometry.parse(m["hex"])
        if geometry.distance(here, h) > card["range"] or terrain(s, h) == "impassable":
            return False
        if h != here and not b.los(here, h):
            return False
    elif card["combat"]:
        if not legal._in_reach_of(s, m, target, 1 - m["seat"], card["range"]):
            return False
    elif card["range"] == 0:
        if target != m["uid"]:
            return False
    elif not legal._in_reach_of(s, m, target, m["seat"], card["range"]):
        return False
    _pay(s, "advanced", how, m)
    # Paying changes nothing ``spell_source`` reads (the clocks, the spells, the basic spell's use).
    if src == "book":
        # WD-53: casting a Spellbook spell assigns it to the caster.
        s["players"][seat]["spellbook"].remove(sp)
        m["spells"].append(sp)
    elif src == "basic":
        s["act"]["basic_used"] = True
    if space:
        # An Individual Clash of the caster; the marker goes to the space on success.
        steps = rules.open_clash(s, "spell", m, m, spell=sp, source=src, space=target)
    else:
        steps = rules.open_clash(s, "spell", m, s["models"][target], spell=sp, source=src)
    return _then_act(s, seat, steps, True)  # a cast is a quiet answer (``QUIET_ACTS``)


def act_potion(s: State, m: dict, seat: int, action: dict) -> bool:
    """A potion drunk or thrown (``{"type": "potion", "index": i, "target": uid}``):
    ``legal._act_potion``'s checks and ``rules._act``'s potion, the card and its paying slot
    worked out once. An index written as anything but an int (``True`` for 1) goes the general way."""
    i = action.get("index")
    target = action.get("target")
    if len(action) != 3 or type(i) is not int or type(target) is not str:
        return False
    if m["animal"] or m["seat"] != seat:
        return False
    p = s["players"][seat]
    potions = p["potions"]
    if not 0 <= i < len(potions) or not legal._first_unspent(potions, i):
        return False
    card = pack(s).potions[potions[i]["id"]]
    pm = "potion_mastery" if m["traits"].get("potion_mastery", -1) >= card["level"] else ""
    how = rules._slot(s, "quick", m, pm)
    if not how:
        return False
    if card["range"] == 0:
        if target != m["uid"]:
            return False
    elif not legal._in_reach_of(s, m, target, 1 - seat if rules.potion_offensive(card) else seat, card["range"]):
        return False
    _pay(s, "quick", how, m)
    potions[i]["spent"] = True
    s["stats"]["potions"][seat] += 1
    tgt = s["models"][target]
    # A potion is not a quiet answer (``QUIET_ACTS``).
    if tgt["seat"] != seat:
        return _then_act(s, seat, rules.open_clash(s, "potion", m, tgt, potion=card["id"]), False)
    steps = rules.effect_steps(s, card["effects"], m, tgt, seat, x=m["traits"].get("potioneer", 0))
    return _after_action(s, seat, steps, False)


def act_flip(s: State, m: dict, seat: int, action: dict) -> bool:
    """An overlay next to the model or under it turned over (``{"type": "flip", "hex": k}``):
    ``legal._act_quick``'s check and ``rules._act``'s flip. Overlays lie on distinct spaces, so
    the first one at ``k`` (``overlay_at``, which the flip turns) is the one the check finds."""
    k = action.get("hex")
    if len(action) != 2 or type(k) is not str:
        return False
    how = rules._slot(s, "quick", m)
    if not how:
        return False
    o = overlay_at(s, k)
    if o is None or geometry.distance(geometry.parse(m["hex"]), geometry.parse(k)) > 1:
        return False
    _pay(s, "quick", how, m)
    o["face_up"] = not o["face_up"]  # WD-86, ruling A-27
    rules.board_changed(s)
    return _after_action(s, seat, [], False)  # a flip is not quiet (``QUIET_ACTS``)


def act_attack(s: State, m: dict, seat: int, action: dict) -> bool:
    """An attack (``{"type": "attack", "attack": id, "target": uid[, "artifact": a]}``):
    ``legal._act_attack``'s check and ``rules._act``'s attack. The check passes when some usable
    profile of that id (and artifact) reaches the target; the attack takes the first such profile
    listed, in reach or not, as ``_act`` does."""
    aid = action.get("attack")
    target = action.get("target")
    if type(aid) is not str or type(target) is not str:
        return False
    n = len(action)
    if n == 3:
        art = None
    else:
        art = action.get("artifact")
        if n != 4 or type(art) is not str or not art:
            return False
    how = rules._slot(s, "advanced", m, "elite_fighter")
    if not how:
        return False
    o = s["models"].get(target)
    if o is None or o["removed"] or o["hex"] is None or o["seat"] != 1 - m["seat"]:
        return False
    first = None
    for prof, with_art in rules.attack_profiles(s, m):
        if prof["id"] == aid and with_art == art:
            if first is None:
                first = prof
            if rules.in_reach(s, m, o, prof["range"]):
                break
    else:
        return False
    # Paying changes nothing ``attack_profiles`` reads (a free attack marks its own source, not a profile).
    _pay(s, "advanced", how, m)
    rules._attack_used(s, m, first, art)
    steps = rules.open_clash(s, "attack", m, o, prof=first)
    return _then_act(s, seat, steps, True)  # an attack is a quiet answer (``QUIET_ACTS``)


def act_draw_clash(s: State, m: dict, seat: int, action: dict) -> bool:
    """A Clash card drawn into a hand short of three (``{"type": "draw_clash"}``):
    ``legal._act_draw_clash``'s check and ``rules._act``'s draw, the paying slot worked out once."""
    if len(action) != 1:
        return False
    if len(s["players"][m["seat"]]["hand"]) >= rules.HAND_SIZE:
        return False
    how = rules._slot(s, "advanced", m)
    if not how:
        return False
    _pay(s, "advanced", how, m)
    steps = [{"step": "draw", "seat": seat, "pile": "clash", "n": 1, "dest": "hand", "vis": "owner"}]
    steps.append({"step": "action_end"})
    return _then_act(s, seat, steps, True)  # a Clash card drawn is a quiet answer (``QUIET_ACTS``)


def act_use_artifact(s: State, m: dict, seat: int, action: dict) -> bool:
    """An artifact's use (``{"type": "use_artifact", "artifact": a}``): ``legal._act_quick``'s
    check and ``rules._act``'s use. The check passes when some copy of ``a`` the model holds is
    usable, and the use takes the first copy it holds, usable or not, as ``_act`` does."""
    a = action.get("artifact")
    if len(action) != 2 or type(a) is not str:
        return False
    how = rules._slot(s, "quick", m)
    if not how:
        return False
    art = pack(s).artifacts.get(a)
    if art is None or not art["use"]:
        return False
    first = None
    usable = False
    for x in m["artifacts"]:
        if x["id"] == a:
            if first is None:
                first = x
            if not x["locked"] and not x["used"]:
                usable = True
                break
    if not usable:
        return False
    _pay(s, "quick", how, m)
    if art["lock"]:
        first["locked"] = True
    first["used"] = True
    if art["remove"]:
        m["artifacts"].remove(first)
    # An artifact's use is a quiet answer (``QUIET_ACTS``).
    return _after_action(s, seat, rules.effect_steps(s, art["use"], m, m, seat), True)


def act_dark_lord_swap(s: State, m: dict, seat: int, action: dict) -> bool:
    """The Dark Lord's Spellbook swap (``{"type": "dark_lord_swap", "give": g, "take": t}``):
    ``legal._act_dark_lord_swap``'s check and ``rules._act``'s swap."""
    give = action.get("give")
    take = action.get("take")
    if len(action) != 3 or type(give) is not str or type(take) is not str:
        return False
    if "dark_lord" not in m["traits"] or m.get("dark_lord_swap_used"):
        return False
    pk = pack(s)
    owner = m["seat"]  # the acting seat's (``may_answer`` and the activation's own check)
    p = s["players"][owner]
    book = p["spellbook"]
    if give not in book or p["clocks"].get(give):
        return False
    if take not in pk.spells or take == pk.basic_spell_id or take in book:
        return False
    for x in s["models"].values():
        if x["seat"] == owner and take in x["spells"]:
            return False
    s["queue"].pop(0)
    m["dark_lord_swap_used"] = True
    p = s["players"][seat]
    p["spellbook"] = sorted([x for x in p["spellbook"] if x != give] + [take])
    return _then_act(s, seat, [], True)  # the swap is a quiet answer (``QUIET_ACTS``)


#: The act step's answers with a fast path, by type; any other type goes to the general path.
ACT_FAST = {
    "end": act_end,
    "move": act_move,
    "draw_quest": act_draw_quest,
    "cast": act_cast,
    "potion": act_potion,
    "flip": act_flip,
    "use_artifact": act_use_artifact,
    "dark_lord_swap": act_dark_lord_swap,
    "draw_clash": act_draw_clash,
    "attack": act_attack,
}


def act(s: State, st: dict, seat: int, action: dict) -> bool:
    try:
        t = action["type"]
        path = ACT_FAST[t]
    except (KeyError, TypeError):  # no type, a type with no fast path, or one no key can be
        return False
    m = s["models"][s["act"]["model"]]
    # Every answer but the end is the acting model's, and the general check refuses each of them
    # when the model is off the board or the game is over (``legal._act``): told once, here.
    if (m["removed"] or m["hex"] is None or s["game_over"]) and t != "end":
        return False
    return path(s, m, seat, action)


def deploy(s: State, st: dict, seat: int, action: dict) -> bool:
    """A deployment (``{"type": "deploy", "model": uid, "hex": k}``): ``legal._deploy`` and ``decide``."""
    uid = action.get("model")
    k = action.get("hex")
    if len(action) != 3 or type(uid) is not str or action.get("type") != "deploy":
        return False
    m = s["models"].get(uid)
    if m is None or m["removed"] or m["seat"] != seat or m["hex"] is not None:
        return False
    # ``legal._space(k)`` one of the seat's Arrival Spaces, told by its name: a space's name is
    # the one way ``_space`` takes it written (``Board.arrival_keys``), and no parse is needed.
    if not isinstance(k, str) or k not in board(s).arrival_keys[s["zone_half"][seat]]:
        return False
    if rules._holds_model(s, k):
        return False
    s["queue"].pop(0)
    set_space(s, m, k)
    rules._after_deploy(s)
    if not s["queue"] or s["queue"][0]["step"] not in _WAITS:  # the next deployment's window: ``run`` would stop there
        _run(s)
    _check_lightning(s)  # a deployment is never quiet: a model came onto the board
    return True


def swap(s: State, st: dict, seat: int, action: dict) -> bool:
    """FC-6: keep the card (``{"type": "keep_card"}``) or swap one from the hand
    (``{"type": "swap", "card": c}``), the answers ``rules.options`` lists for the window."""
    t = action.get("type")
    if t == "keep_card" and len(action) == 1:
        s["queue"].pop(0)
    elif t == "swap" and len(action) == 2:
        card = action.get("card")
        side = s["clash"][st["side"]]
        hand = s["players"][side["seat"]]["hand"]
        if type(card) is not str or card not in hand or "apprentice" in s["models"][side["model"]]["traits"]:
            return False
        s["queue"].pop(0)
        hand.remove(card)
        side["swap"] = card
        side["swap_up"] = st.get("face_up", False)
    else:
        return False
    return _after_quiet_answer(s)  # a swap window's answers are quiet (``QUIET_STEPS``)


_PASS = {"type": "pass"}
_NOT_LOWERED = {"type": "lower", "use": False}
_LOWERED = {"type": "lower", "use": True}
_EMPOWER = {"type": "empower"}
_DARK_LORD = {"type": "dark_lord"}
_PEEK = {"type": "peek"}


def empower(s: State, st: dict, seat: int, action: dict) -> bool:
    """FC-3's pass, which ``rules.options`` always lists, or an Empowerment paid for
    (``{"type": "empower"[, "light": n]}``) as the list offers it: when the side may pay its cost,
    with one answer per split of a free colour's payment in version 2, else one. Compared as a
    whole dict, as the list's membership compares it."""
    if action == _PASS:
        s["queue"].pop(0)
        return _after_quiet_answer(s)
    if action.get("type") != "empower" or not legal.typed(action):
        return False
    c = s["clash"]
    cost, colour = rules._empower_cost(s, c, st["side"])
    if cost is None:
        return False
    p = s["players"][c[st["side"]]["seat"]]
    if not can_pay(p, cost, colour) or not _paid_answer(s, p, cost, colour, action, _EMPOWER):
        return False
    s["queue"].pop(0)
    rules.empower(s, c, st["side"], cost, colour, action.get("light"))
    return _after_quiet_answer(s)  # an Empowerment window is quiet (``QUIET_STEPS``)


def _paid_answer(s: State, p: dict, cost: int, colour: str, action: dict, plain: dict) -> bool:
    """Is ``action`` in ``rules._paid(s, p, cost, colour, plain)``? One answer per split of a free
    colour's payment in version 2 (``plain`` with its ``light``), else ``plain`` alone; compared
    as whole dicts, as the list's membership compares them, once ``legal.typed`` has held the
    answer's types to the list's (Python's 1 == 1.0 == True)."""
    splits = pay_splits(p, cost, colour) if rules_version(s) >= 2 else ()
    if not splits:
        return action == plain
    return "light" in action and action == dict(plain, light=action["light"]) and action["light"] in splits


def pick(s: State, st: dict, seat: int, action: dict) -> bool:
    """The card a side keeps of those it revealed (``{"type": "keep", "card": c}``), the lowest
    ranked only when the window says ``worst`` (Disadvantage): ``rules.options``' list, one
    answer per card, told for the one card."""
    card = action.get("card")
    if len(action) != 2 or type(card) is not str or action.get("type") != "keep":
        return False
    cards = s["clash"][st["side"]]["revealed"]
    if card not in cards:
        return False
    if st.get("worst"):
        low = min(rank(s, x) for x in cards)
        if rank(s, card) != low:
            return False
    s["queue"].pop(0)
    rules._keep(s, st["side"], card)
    return _after_quiet_answer(s)  # a pick window is quiet (``QUIET_STEPS``)


def react(s: State, st: dict, seat: int, action: dict) -> bool:
    """FC-1: the pass, which the list always holds, or a reaction (``{"type": "react", "spell": sp}``)
    as ``rules.options`` lists it: a reaction spell of the seat's Spellbook or of one of its living
    models' own, not cooling down, that the targeted model could cast (``_reaction_caster``)."""
    if action == _PASS:
        s["queue"].pop(0)
        return _after_quiet_answer(s)
    sp = action.get("spell")
    if len(action) != 2 or type(sp) is not str or action.get("type") != "react":
        return False
    p = s["players"][seat]
    card = pack(s).spells.get(sp)
    if card is None or not card["reaction"] or p["clocks"].get(sp):
        return False
    if sp not in p["spellbook"]:
        for m in s["models"].values():
            if not m["removed"] and m["seat"] == seat and sp in m["innate"]:
                break
        else:
            return False
    c = s["clash"]
    tgt = s["models"][c["target"]]
    if rules._reaction_caster(s, seat, sp, tgt) is None:
        return False
    s["queue"].pop(0)
    if sp in tgt["innate"]:
        tgt["innate_clocks"][sp] = card["cooldown"]
    else:
        p["spellbook"].remove(sp)
        tgt["spells"].append(sp)
        p["clocks"][sp] = card["cooldown"]
    c["react"] += sum(e["n"] for e in card["effects"] if e["op"] == "defense_bonus")
    c["reactions"].append(sp)
    return _after_quiet_answer(s)  # a react window is quiet (``QUIET_STEPS``)


_NOT_KEPT = {"type": "upkeep", "keep": False}
_KEPT = {"type": "upkeep", "keep": True}


def upkeep(s: State, st: dict, seat: int, action: dict) -> bool:
    """WD-61/62: a spell's upkeep not paid, which the list always holds, or paid
    (``{"type": "upkeep", "keep": True[, "light": n]}``) as ``rules.options`` lists it: once paid
    this round, kept as it is; else when the seat may pay, one answer per split of a free colour's
    payment in version 2. Compared as whole dicts, as the list's membership compares them."""
    if action.get("type") != "upkeep" or not legal.typed(action):
        return False
    p = s["players"][seat]
    spell = st["spell"]
    u = None
    for x in p["upkeep"]:
        if x["spell"] == spell:
            u = x
            break
    if u is None:
        return False
    if action != _NOT_KEPT:
        if u["paid"]:
            if action != _KEPT:
                return False
        else:
            card = pack(s).spells[spell]
            cost = card["upkeep"]
            colour = card["empower"]["colour"] if card["empower"] else "neutral"
            if not can_pay(p, cost, colour) or not _paid_answer(s, p, cost, colour, action, _KEPT):
                return False
    s["queue"].pop(0)
    rules._upkeep_answer(s, seat, spell, action["keep"], action.get("light"))
    return _after_quiet_answer(s)  # an upkeep answer is quiet (``QUIET_STEPS``)


def lower(s: State, st: dict, seat: int, action: dict) -> bool:
    """FC-8 / FC-12: not using the kept card's lower part, which the list always holds, or using
    it (``{"type": "lower", "use": True[, "light": n]}``) as ``rules.options`` lists it: when it is
    usable now, with one answer per split of a free colour's payment in version 2, else one."""
    if action.get("type") != "lower" or not legal.typed(action):
        return False
    if action == _NOT_LOWERED:
        s["queue"].pop(0)
        return _after_quiet_answer(s)
    name = st["step"]
    side = s["clash"][st["side"]]
    if not rules._lower_usable(s, side["seat"], side["kept"], name):
        return False
    lo = lower_part(s, side["kept"])
    if not _paid_answer(s, s["players"][side["seat"]], lo["cost"], lo["colour"], action, _LOWERED):
        return False
    s["queue"].pop(0)
    rules._use_lower(s, st["side"], name, action.get("light"))
    return _after_quiet_answer(s)  # a lower part's window is quiet (``QUIET_STEPS``)


def dark_lord(s: State, st: dict, seat: int, action: dict) -> bool:
    """FC-2: the Dark Lord's ability or the pass, the window's two answers."""
    if action == _DARK_LORD:
        s["queue"].pop(0)
        side = s["clash"][st["side"]]
        s["models"][side["model"]]["dark_lord_used"] = True
        side["dark_lord"] = True
        side["adv"] = 0  # A-10 (3): Advantage and Disadvantage are ignored for this clash
    elif action == _PASS:
        s["queue"].pop(0)
    else:
        return False
    return _after_quiet_answer(s)


def leadership(s: State, st: dict, seat: int, action: dict) -> bool:
    """FC-2: Leadership's peek at three cards or the pass, the window's two answers."""
    if action == _PEEK:
        s["queue"].pop(0)
        s["models"][st["model"]]["round"]["leadership"] = True
        push_new(
            s,
            [
                {"step": "draw", "seat": seat, "pile": "clash", "n": 3, "dest": "known_top", "vis": "owner"},
                {"step": "order", "seat": seat},
            ],
        )
    elif action == _PASS:
        s["queue"].pop(0)
    else:
        return False
    return _after_quiet_answer(s)


def order(s: State, st: dict, seat: int, action: dict) -> bool:
    """FC-2, Leadership: the cards seen put back in an order (``{"type": "order", "cards": [...]}``).
    The list offers every permutation of the known cards; the card ids are distinct strings, so an
    answer is one of them exactly when it holds those strings, each once, sorted alike."""
    cards = action.get("cards")
    if len(action) != 2 or type(cards) is not list or action.get("type") != "order":
        return False
    p = s["players"][seat]
    known = p["known_top"]
    if len(cards) != len(known) or len(set(known)) != len(known):
        return False
    for c in cards:
        if type(c) is not str:
            return False
    if sorted(cards) != sorted(known):
        return False
    s["queue"].pop(0)
    p["known_top"] = list(cards)
    return _after_quiet_answer(s)


def place_overlay(s: State, st: dict, seat: int, action: dict) -> bool:
    """A Challenge or Terrain overlay placed in the set-up (``{"type": "place_challenge", "hex": k}``,
    ``{"type": "place_terrain", "hex": k, "terrain": t}``): ``legal``'s own check of the one space
    (``CHECKS``, which the general path asks too) and ``decide``'s overlay."""
    name = st["step"]
    if action.get("type") != name or not legal.CHECKS[name](s, st, action):
        return False
    s["queue"].pop(0)
    kind = "challenge" if name == "place_challenge" else "terrain"
    what = action["terrain"] if kind == "terrain" else None
    s["overlays"].append({"kind": kind, "hex": action["hex"], "face_up": False, "what": what, "owner": seat})
    overlay_placed(s)
    if not s["queue"] or s["queue"][0]["step"] not in _WAITS:  # the next overlay's window: ``run`` would stop there
        _run(s)
    _check_lightning(s)  # an overlay placed is never quiet (``QUIET_STEPS``)
    return True


def place(s: State, st: dict, seat: int, action: dict) -> bool:
    """A free move, a teleport or a push step of the step's own model (``{"type": "place",
    "hex": k}``, in version 2 a free move's ``"dangerous": d`` too, or ``"hex": None`` where a move
    or teleport may be declined): ``legal._place``'s checks and ``decide``'s placement, the space
    and the route worked out once. The Gryffindor move (a model of the seat's choosing) and a
    danger count written as anything but an int go the general way."""
    kind = st["kind"]
    if kind == "gryffindor" or action.get("type") != "place":
        return False
    k = action.get("hex")
    n = len(action)
    if n == 3:
        danger = action.get("dangerous")
        if kind != "move" or type(danger) is not int or type(k) is not str or rules_version(s) < 2:
            return False
    elif n != 2 or "hex" not in action:
        return False
    m = s["models"][st["model"]]
    if m["removed"] or m["hex"] is None:
        return False
    if k is None:
        # Declined: the list offers it for a move and a teleport, not for a push step.
        if kind != "move" and kind != "teleport":
            return False
        s["queue"].pop(0)
        _run(s)
        _check_lightning(s)  # a placement is never quiet (``QUIET_STEPS``)
        return True
    h = legal._space(k)
    if h is None:
        return False
    if kind == "move":
        safest = rules.safest_to(s, m, st["n"], h)
        if safest is None:
            return False
        if n == 3:
            if not rules.riskier_route_with(s, m, st["n"], h, safest, danger):
                return False
            safest = danger
        s["queue"].pop(0)
        push_new(s, rules._move_to(s, m, h, safest))
    elif kind == "teleport":
        if (
            h not in board(s).terrain
            or not 0 < geometry.distance(geometry.parse(m["hex"]), h) <= st["n"]
            or terrain(s, h) == "impassable"
            or rules._holds_model(s, k)
        ):
            return False
        s["queue"].pop(0)
        push_new(s, rules._place_on(s, m, h))
    elif kind == "push":
        if h not in rules.push_options(s, m, geometry.parse(st["source"])):
            return False
        s["queue"].pop(0)
        set_space(s, m, k)
        steps = []
        if terrain(s, h) == "dangerous" and "fly" not in m["traits"]:
            steps.append({"step": "hit", "model": m["uid"], "n": 1, "by": None, "resist": False})
        if st["n"] > 1:
            steps.append(dict(st, n=st["n"] - 1))
        push_new(s, steps)
    else:
        return False
    _run(s)
    _check_lightning(s)  # a placement is never quiet (``QUIET_STEPS``)
    return True


def choose_map(s: State, st: dict, seat: int, action: dict) -> bool:
    """The coin winner's map (``{"type": "choose_map", "map": id}``), one the pack holds."""
    mid = action.get("map")
    if len(action) != 2 or type(mid) is not str or action.get("type") != "choose_map" or mid not in pack(s).maps:
        return False
    s["queue"].pop(0)
    s["map"] = mid
    rules.board_changed(s)
    s["queue"].insert(0, {"step": "choose_joining", "seat": 1 - seat})
    _run(s)
    _check_lightning(s)  # a choice of the board is never quiet (``QUIET_STEPS``)
    return True


def choose_joining(s: State, st: dict, seat: int, action: dict) -> bool:
    """The other seat's joining (``{"type": "choose_joining", "nexus": c, "half": h}``): a Nexus
    colour both halves of the map show and a half, 0 or 1 (written as an int: ``True`` or ``0.0``
    go the general way)."""
    c = action.get("nexus")
    half = action.get("half")
    if len(action) != 3 or type(c) is not str or type(half) is not int or action.get("type") != "choose_joining":
        return False
    halves = pack(s).maps[s["map"]]["halves"]
    if not (half == 0 or half == 1) or c not in halves[0]["nexus"] or c not in halves[1]["nexus"]:
        return False
    s["queue"].pop(0)
    s["nexus"] = c
    rules.board_changed(s)
    s["zone_half"] = [1 - half, half] if seat == 1 else [half, 1 - half]
    s["queue"].insert(0, {"step": "overlays"})
    _run(s)
    _check_lightning(s)  # a choice of the board is never quiet (``QUIET_STEPS``)
    return True


def _chosen_in_order(chosen, among: list, most: int) -> bool:
    """Is ``chosen`` a list of at most ``most`` strings, each in ``among``, in ``among``'s order and
    each once (one of the lists ``combinations(among, k)`` makes for some ``k <= most``)?"""
    if type(chosen) is not list or len(chosen) > most:
        return False
    i, n = 0, len(among)
    for x in chosen:
        if type(x) is not str:
            return False
        while i < n and among[i] != x:
            i += 1
        if i == n:
            return False
        i += 1
    return True


def horcrux_pick(s: State, st: dict, seat: int, action: dict) -> bool:
    """The Horcrux Maker's models (``{"type": "horcrux", "models": [uids]}``): the list offers
    every choice of up to ``limit`` of the candidates in their order, and none. The candidates
    are distinct model ids, so a choice is one of those lists exactly when it is in order."""
    chosen = action.get("models")
    if len(action) != 2 or action.get("type") != "horcrux":
        return False
    if not _chosen_in_order(chosen, st["candidates"], st["limit"]):
        return False
    s["queue"].pop(0)
    if chosen:
        # The step keeps its own list: a later write into the state never reaches the event's.
        push_new(s, [{"step": "horcrux_deal", "seat": seat, "maker": st["model"], "models": list(chosen)}])
    return _after_quiet_answer(s)  # a Horcrux pick is quiet (``QUIET_STEPS``)


#: The decision steps with a fast path, each answered by one seat (``may_answer``'s ``st["seat"]``).
FAST_PATHS = {
    "act": act,
    "activate": activate,
    "deploy": deploy,
    "swap": swap,
    "empower": empower,
    "early": lower,
    "late": lower,
    "dark_lord": dark_lord,
    "leadership": leadership,
    "order": order,
    "place_challenge": place_overlay,
    "place_terrain": place_overlay,
    "place": place,
    "choose_map": choose_map,
    "choose_joining": choose_joining,
    "horcrux_pick": horcrux_pick,
    "upkeep": upkeep,
    "react": react,
    "pick": pick,
}


def mulligan_listed(hand: list[str], action: dict) -> bool:
    """``action in legal_actions(...)`` at a mulligan: the list holds one discard per subset of the
    sorted hand, its cards in that order; told without listing every subset (issue 17, P1).
    Compared as a whole dict, as the list's membership compares it."""
    discard = action.get("discard")
    if type(discard) is not list or action != {"type": "mulligan", "discard": discard}:
        return False
    return _chosen_in_order(discard, sorted(hand), len(hand))


def _secret_answer(s: State, seat: int, action: dict, quiet: bool) -> bool:
    """A checked answer to a simultaneous step, kept (a copy: the state never shares the
    event's lists) and, once both are in, applied by ``decide``; then ``run`` and the lightning
    check as ``_apply`` takes them."""
    rules.decide(s, seat, copy_tree(action))
    if not _run(s) or not quiet:
        _check_lightning(s)
    return True


def build(s: State, st: dict, seat: int, action: dict) -> bool:
    """A secret Group (``groups.check_group``, the general path's own check)."""
    try:
        groups.check_group(pack(s), action, s["config"]["galleons"])
    except IllegalAction:
        return False
    return _secret_answer(s, seat, action, False)  # Groups installed: never quiet (``QUIET_STEPS``)


def stock(s: State, st: dict, seat: int, action: dict) -> bool:
    """A secret potion Stock (``groups.check_stock`` against the seat's characters, by uid)."""
    # The seat's characters in any order: only their Potioneer levels are read, sorted.
    chars = []
    for m in s["models"].values():
        if m["seat"] == seat:
            chars.append(m["char"])
    try:
        groups.check_stock(pack(s), chars, action, s["config"]["potion_duplicates"])
    except IllegalAction:
        return False
    return _secret_answer(s, seat, action, True)


def mulligan(s: State, st: dict, seat: int, action: dict) -> bool:
    """A secret mulligan: quests of the hand put back, in the sorted hand's order."""
    if not mulligan_listed(s["players"][seat]["qhand"], action):
        return False
    return _secret_answer(s, seat, action, False)  # the active quests filled: never quiet


def neutral(s: State, st: dict, seat: int, action: dict) -> bool:
    """How much of the seat's Neutral Cunning is taken as white (``{"type": "neutral", "light": k}``,
    ``k`` from 0 to the Group's total; written as an int: ``True`` or ``1.0`` go the general way)."""
    light = action.get("light")
    if len(action) != 2 or type(light) is not int or action.get("type") != "neutral":
        return False
    most = 0
    models = s["models"]
    for uid in living_of(s)[seat]:  # the seat's living models, kept (``state.LIVING``)
        most += models[uid]["cunning"]["neutral"]
    if not 0 <= light <= most:
        return False
    return _secret_answer(s, seat, action, True)


#: The simultaneous steps with a fast path; the dispatch has checked that the seat is one of the
#: step's and has not answered yet (``may_answer``).
SECRET_FAST = {"build": build, "stock": stock, "mulligan": mulligan, "neutral": neutral}


def draw(s: State, st: dict, outcome) -> bool:
    """A Clash or Quest card draw: ``rules.possible_draw``'s checks of the outcome and
    ``rules.resolve_chance``'s draw in one pass. The dispatch found a ``draw`` step in front."""
    if type(outcome) is not list:
        return False
    seat = st["seat"]
    if type(seat) is not int or seat < 0:
        return False
    p = s["players"][seat]
    n = st["n"]
    quest = st["pile"] == "quest"
    if quest:
        deck = p["quest_deck"]
        pool = avail = len(deck)
    else:
        deck = p["deck"]
        pool = len(deck)
        avail = pool - rules._reserved(s, seat)
    count = n if n <= avail else avail  # min(n, avail), without the call
    if type(count) is not int or not 0 < count <= pool or len(outcome) != count:
        return False
    if count == 1:
        # Most draws are of one card (a reveal, a quest, a hand's refill card by card).
        v = outcome[0]
        if type(v) is not int or not 0 <= v < pool:
            return False
        if not quest:
            return _draw_one(s, st, p, deck.pop(v), n)
        picked = (deck[v],)
    else:
        for v in outcome:
            if type(v) is not int or not 0 <= v < pool:
                return False
        if len(set(outcome)) != count:
            return False
        picked = list(map(deck.__getitem__, outcome))  # all taken before any is removed
    s["queue"].pop(0)
    if quest:
        into = p["qhand"] if st["dest"] == "qhand" else p["active"]
        for q in picked:
            deck.remove(q)
            into.append(q)
        # A quest draw fills the active quests: never quiet. When the steps run after it are,
        # only the quests drawn can hold now (``rules.check_lightning_of``).
        if _run(s) and into is p["active"]:
            _check_lightning_of(s, seat, picked)
        else:
            _check_lightning(s)
        return True
    for c in picked:
        deck.remove(c)
        rules._put_card(s, st, c)
    if n > count:
        rules.push_front(s, dict(st, n=n - count))
    return _after_quiet_answer(s)  # a Clash draw only moves cards (``quiet_chance``)


def _draw_one(s: State, st: dict, p: dict, c: str, n: int) -> bool:
    """One Clash card ``c`` drawn (already taken off the deck by its index: a deck holds each
    card's uid once, so that is the card ``remove`` took) for the draw step ``st`` in front.

    A reveal of one card (no Advantage, the commonest draw of a clash) is followed in the queue
    by its pick window and ``after_pick`` (``rules._h_reveal``): a pick window of one card closes
    keeping it (``rules._skip_decision``), and ``after_pick`` finds the card kept. Both are taken
    here, with no turn of ``run`` each; the state is the one ``run`` leaves (issue 17, P1)."""
    queue = s["queue"]
    del queue[0]
    dest = st["dest"]
    if dest == "reveal":
        side = s["clash"][st["side"]]
        revealed = side["revealed"]
        revealed.append(c)
        if n == 1 and len(revealed) == 1:
            pick = queue[0]
            if pick["step"] == "pick" and not pick["worst"] and queue[1]["step"] == "after_pick":
                # ``_keep`` of the one card (nothing else to discard), then ``_h_after_pick``.
                del queue[:2]
                side["revealed"] = [c]
                side["kept"] = c
                if rules.is_two_plus(s, c) and not side.get("dark_lord"):
                    queue.insert(0, rules.extra_draw(side, st["side"]))
                return _after_quiet_answer(s)
    elif dest == "hand":
        p["hand"].append(c)
    else:
        rules._put_card(s, st, c)
    if n > 1:
        rules.push_front(s, dict(st, n=n - 1))
    return _after_quiet_answer(s)  # a Clash draw only moves cards (``quiet_chance``)


def coin(s: State, st: dict, outcome) -> bool:
    """A coin toss (``rules.chance_spec``'s one die of 0 or 1, ``check_outcome``'s check, and
    ``rules.resolve_chance``'s coin). The dispatch found a ``coin`` step in front."""
    if type(outcome) is not list or len(outcome) != 1:
        return False
    v = outcome[0]
    if type(v) is not int or not 0 <= v <= 1:
        return False
    s["queue"].pop(0)
    if st["purpose"] == "setup":
        s["coin_winner"] = v
        s["queue"].insert(0, {"step": "choose_map", "seat": v})
    else:
        s["starting"] = v
    return _after_quiet_answer(s)  # a coin only sets who chooses or starts (``quiet_chance``)


def _distinct_below(outcome, count: int, pool: int) -> bool:
    """``check_outcome``'s test of a draw of ``count`` from ``pool``."""
    if type(outcome) is not list or len(outcome) != count:
        return False
    for v in outcome:
        if type(v) is not int or not 0 <= v < pool:
            return False
    return len(set(outcome)) == count


def unveil(s: State, st: dict, outcome) -> bool:
    """The Challenge overlays' identities (a draw of six from six) and every overlay turned up:
    ``chance_spec``'s check and ``resolve_chance``'s unveiling."""
    if not _distinct_below(outcome, 6, 6):
        return False
    s["queue"].pop(0)
    rules.unveil(s, outcome)
    _run(s)
    _check_lightning(s)  # the overlays turned up: never quiet (``quiet_chance``)
    return True


def horcrux_deal(s: State, st: dict, outcome) -> bool:
    """The Horcruxes dealt to the picked models (a draw from the set-aside Horcruxes):
    ``chance_spec``'s check and ``resolve_chance``'s deal, the set-aside list made once."""
    pool = rules._set_aside_horcruxes(s, st["seat"])
    count = len(st["models"])
    if not 0 < count <= len(pool) or not _distinct_below(outcome, count, len(pool)):
        return False
    s["queue"].pop(0)
    models = s["models"]
    maker = models[st["maker"]]
    for uid, idx in zip(st["models"], outcome):
        models[uid]["artifacts"].append({"id": pool[idx], "locked": False, "used": False})
        maker["horcruxes"].append({"kind": "artifact", "model": uid, "id": pool[idx]})
    return _after_quiet_answer(s)  # a deal only hands out artifacts (``quiet_chance``)


#: The chance steps with a fast path (``apply_in_place`` sends a chance event there first).
CHANCE_FAST = {"draw": draw, "coin": coin, "unveil": unveil, "horcrux_deal": horcrux_deal}
