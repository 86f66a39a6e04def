"""Building tables for rule tests: a game set up by the real setup, then arranged by hand."""

from engines.annihilageddon.engine import Annihilageddon
from engines.annihilageddon.turn import fresh_turn
from engines.base import CHANCE
from engines.chance import derive, indices_for_cards

E = Annihilageddon()


def step_chance(st, cards=None, seed=b"t"):
    """Apply the pending chance event: the named cards if given, else a derived outcome."""
    spec = E.chance(st)
    if cards is not None:
        outcome = indices_for_cards(E.draw_pool(st), cards)
    else:
        outcome = derive(spec, seed, "test", len(str(st["scope"])) + st["scope"])
    return E.apply(st, {"kind": "chance", "outcome": outcome})


def act(st, seat, **action):
    return E.apply(st, {"kind": "action", "seat": seat, "action": action})


def choose(st, seat, value):
    """Answer the open prompt: a ``defend`` action in a (version-2, simultaneous) defense window,
    a ``keep`` at a (version-3) setup keep, else a ``choose``."""
    kind = E.answer_type(st["prompt"]) if st["prompt"] is not None else "choose"
    return act(st, seat, type=kind, value=value)


def started(seats=4, config=None):
    """A game through setup: every setup choice takes the first option offered."""
    st = E.setup(config or {}, seats)
    while st["phase"] == "setup" or st["stack"] or st["need"]:
        moving = E.to_move(st)
        if moving == [CHANCE]:
            st = step_chance(st)
        elif st["prompt"] is not None:
            st = choose(st, moving[0], E.prompt_options(st, moving[0])[0])
        else:
            break
    return st


def table(seats=4, active=0, hands=None, hp=None, lineup=None, pools=None, tiles=None, config=None):
    """A main phase for ``active`` on a fresh table, arranged: hands, HP, Line-Up, deck pools."""
    st = started(seats, config)
    st["active"] = active
    st["first"] = active
    st["turn"] = fresh_turn()
    for s, p in enumerate(st["players"]):
        p["tile"] = (tiles or {}).get(s, "tile-thick-skull") if tiles is not None else None
        if hands is not None:
            p["hand"] = sorted(hands.get(s, []))
            p["pool"] = sorted((pools or {}).get(s, ["glyph"] * 5))
            p["top"] = []
            p["discard"] = []
        p["hp"] = (hp or {}).get(s, 20)
    st["destroyed"] = []
    if lineup is not None:
        st["lineup"] = list(lineup)
    return st


def run_bots(st, answer):
    """Answer prompts with ``answer(st, seat, options)`` and chance with derived outcomes until
    the active player is back in the main phase (or the game is over)."""
    while True:
        moving = E.to_move(st)
        if not moving:
            return st
        if moving == [CHANCE]:
            st = step_chance(st)
        elif st["prompt"] is not None:
            st = choose(st, moving[0], answer(st, moving[0], E.prompt_options(st, moving[0])))
        else:
            return st


def take_all(st, seat, options):
    return "take" if "take" in options else options[0]
