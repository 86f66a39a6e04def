"""Building positions for the SpellCaster tests: start a game, then arrange casters and spells."""

from __future__ import annotations

from engines.spellcaster.engine import SpellCasterEngine, _new_spell, ap_now, element_of

E = SpellCasterEngine()

# Life Force 3, Will 2, Focus 3, Skill 7: the spec's B1.2 example sheet.
SHEET = {"life_force": 2, "will": 1, "focus": 1, "skill": 2}


def started(n: int = 2, first: int = 0, sheets=None, config=None):
    """A game after every seat allocated and ``first`` was rolled to go first."""
    st = E.setup(config or {}, n)
    for s in range(n):
        sheet = (sheets or {}).get(s, SHEET)
        st = E.apply(st, {"kind": "action", "seat": s, "action": dict(sheet, type="allocate")})
    return E.apply(st, {"kind": "chance", "outcome": [first]})


def act(st, who, **action):
    return E.apply(st, {"kind": "action", "seat": who, "action": action})


def roll(st, *outcome):
    return E.apply(st, {"kind": "chance", "outcome": list(outcome)})


def deal(st, cid):
    """Resolve a pending private draw with a named card (as a person at a table would)."""
    pool = E.draw_pool(st)
    return E.apply(st, {"kind": "chance", "outcome": [pool.index(cid)]})


def take(st, seat, cid):
    """Remove a card from wherever it lies in the seat's decks (test set-up only)."""
    c = st["casters"][seat]
    e = element_of(cid)
    if cid in c["pool"][e]:
        c["pool"][e].remove(cid)
    else:
        c["up"][e].remove(cid)


def give_spell(st, seat, slot, motion=(), mass=(), open_=False, state="building", **fields):
    """Put a spell on ``seat``'s display space ``slot`` made of the named cards (mutates ``st``)."""
    sp = _new_spell()
    for section, cards in (("motion", motion), ("mass", mass)):
        for cid in cards:
            take(st, seat, cid)
            sp[section].append({"id": cid, "open": open_})
    sp["state"] = state
    sp.update(fields)
    st["casters"][seat]["display"][slot] = sp
    return st


def launched(st, seat, slot, point, motion=(), mass=(), controller=None):
    """A launched spell whose familiar stands at ``point`` (mutates ``st``)."""
    give_spell(st, seat, slot, motion, mass, open_=False, state="launched")
    sp = st["casters"][seat]["display"][slot]
    for card in sp["motion"]:
        card["open"] = True
    controller = seat if controller is None else controller
    sp.update(
        point=point,
        launch_point=point,
        familiar=[controller, slot + 1],
        controller=controller,
        last_controller=controller,
        tokens=[controller],
    )
    st["casters"][controller]["tokens"] -= 1
    return st


def at(st, seat, point):
    st["casters"][seat]["point"] = point
    return st


def fresh_turn(st, seat):
    """Make it the start of ``seat``'s turn with the action points its Life gives."""
    ap = ap_now(st["casters"][seat])
    st["turn"] = {
        "seat": seat,
        "ap": ap,
        "left": ap,
        "conjured": False,
        "rested": False,
        "moved": False,
        "first_done": False,
        "handled": [],
        "controlled": [],
        "over": False,
        "no": st["turn_no"],
    }
    return st


def types(actions):
    return sorted({a["type"] for a in actions})
