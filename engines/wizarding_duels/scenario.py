"""Build a mid-game state directly (for tests and worked examples): models on given spaces,
chosen hands, pools and spellbooks, with an activation about to be chosen or already running.

Nothing here is reachable from a match: the platform always starts from ``setup``."""

from __future__ import annotations

import copy

from engines.chance import indices_for_cards

from . import content, rules
from .engine import WizardingDuelsEngine, _player
from .state import board_changed, living_changed, spaces_changed

E = WizardingDuelsEngine()


def build(
    pack_id: str = "rulebook-examples",
    models=(),
    map_id: str | None = None,
    nexus: str | None = None,
    hands=None,
    pools=None,
    spellbooks=None,
    artifacts=None,
    starting: int = 0,
    active: str | None = None,
    config=None,
    quests=None,
    overlays=(),
    rules_version: int = 2,
) -> dict:
    """``models``: list of (seat, character id, "q,r", overrides dict). Model uids are seat + a, b, c...
    ``hands``: per seat, a list of clash-card ids (from the pack) moved from the deck to the hand.
    ``active``: uid of a model whose activation has begun (the 'act' window), else the Starting
    Player is asked to activate. ``rules_version`` 1 builds a state of engine version 1."""
    pk = content.load(pack_id)
    cfg = dict(E.default_config(2), pack=pack_id)
    cfg.update(config or {})
    map_id = map_id or sorted(pk.maps)[0]
    mp = pk.maps[map_id]
    nexus = nexus or sorted(set(mp["halves"][0]["nexus"]) & set(mp["halves"][1]["nexus"]))[0]
    s = {
        "pack": pk.id,
        "config": cfg,
        "phase": "activation",
        "queue": [],
        "players": [_player(), _player()],
        "models": {},
        "cards": {},
        "overlays": [dict(o) for o in overlays],
        "map": map_id,
        "nexus": nexus,
        "zone_half": [0, 1],
        "coin_winner": 0,
        "starting": starting,
        "round": 1,
        "turn": 0,
        "act": None,
        "clash": None,
        "brave": None,
        "stats": {"impacts": [0, 0], "removed": [0, 0], "spells": [0, 0], "potions": [0, 0]},
        "game_over": False,
        "serial": 0,
        "last_clash": None,
        "last_brave": None,
        "blank": 0,
    }
    if rules_version != 1:
        s["rules"] = rules_version
    board_changed(s)  # derived from the overlays given (``state.DERIVED_KEYS``)
    ids = sorted(c for c in pk.clash_cards if c not in ("lucky", "jinxed"))
    for seat in (0, 1):
        for i, cid in enumerate(ids):
            uid = f"{seat}-{i:02d}"
            s["cards"][uid] = cid
            s["players"][seat]["deck"].append(uid)
    per_seat: dict[int, list] = {0: [], 1: []}
    for seat, cid, hx, over in models:
        per_seat[seat].append((cid, hx, over))
    for seat in (0, 1):
        chars = [c for c, _, _ in per_seat[seat]]
        if not chars:
            continue
        g = {
            "type": "group",
            "models": chars,
            "leader": 0,
            "artifacts": [list((artifacts or {}).get(f"{seat}{chr(97 + i)}", [])) for i in range(len(chars))],
            "spellbook": list((spellbooks or {}).get(seat, [])),
            "quests": list((quests or {}).get(seat, [])),
        }
        rules._install_group(s, seat, g)
        for i, (_, hx, over) in enumerate(per_seat[seat]):
            m = s["models"][f"{seat}{chr(97 + i)}"]
            m["hex"] = hx
            for k, v in (over or {}).items():
                m[k] = copy.deepcopy(v)
    living_changed(s)  # the overrides may remove a model (``state.DERIVED_KEYS``)
    spaces_changed(s)  # and the models were placed by hand
    for seat, cards in (hands or {}).items():
        p = s["players"][seat]
        for cid in cards:
            uid = next(u for u in p["deck"] if s["cards"][u] == cid)
            p["deck"].remove(uid)
            p["hand"].append(uid)
    for seat, pool in (pools or {}).items():
        s["players"][seat]["pool"] = dict(pool)
    if active:
        seat = s["models"][active]["seat"]
        rules.decide(s, seat, {"type": "activate", "model": active}, popped={"step": "activate", "seat": seat})
    else:
        s["queue"] = [{"step": "activate", "seat": starting}]
    rules.run(s)
    return s


def act(state: dict, seat: int, action: dict) -> dict:
    return E.apply(state, {"kind": "action", "seat": seat, "action": action})


def deal(state: dict, cards: list[str]) -> dict:
    """Resolve the pending draw so that the named cards (pack ids) come out, in order."""
    pool = E.draw_pool(state)
    return E.apply(state, {"kind": "chance", "outcome": indices_for_cards(pool, cards)})


DECLINE = ({"type": "pass"}, {"type": "keep_card"}, {"type": "lower", "use": False}, {"type": "resist", "discard": []})


def decline(state: dict) -> dict:
    """Answer pending windows with 'no' until a draw, an activation or an action is due."""
    for _ in range(200):
        tm = E.to_move(state)
        if not tm or tm == [-1]:
            return state
        st = state["queue"][0]
        if st["step"] in ("act", "activate"):
            return state
        opts = E.legal_actions(state, tm[0])
        pick = next((o for o in opts if o in DECLINE or (o.get("type") == "place" and o.get("hex") is None)), None)
        if pick is None:
            return state
        state = act(state, tm[0], pick)
    return state


__all__ = ["build", "act", "deal", "decline", "E"]
