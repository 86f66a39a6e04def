"""Content packs: plain JSON under packs/, checked against packs/schema.json and then against
the rules the schema cannot express (references, the starting deck's make-up, map joinings).

A pack is read once per process and never changed; the engine copies what a match needs into
its state, so a state never depends on a pack's object identity.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from engines.base import InvalidConfig, quoted

from . import geometry

PACK_DIR = Path(__file__).parent / "packs"

#: Traits whose card value carries an X (L1238-1420).
TRAITS_WITH_X = {
    "large",
    "small",
    "potioneer",
    "potion_mastery",
    "resistance",
    "physical_resistance",
    "magical_immunity",
}

#: Rulebook L405-416: a starting Clash deck is seven +1, six +2, five +3, one 0 and one 2+.
DECK_MAKEUP = {"1": 7, "2": 6, "3": 5, "0": 1, "2+": 1}

QUEST_TYPES = (
    "minor_challenge_control",
    "major_challenge_control",
    "challenge_collection",
    "leaders_missions",
    "arrival_spaces",
    "making_impacts",
    "group_missions",
    "terrain_control",
    "various",
)
_TYPE = itemgetter("type")


class PackError(ValueError):
    pass


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads((PACK_DIR / "schema.json").read_text())


def pack_ids() -> list[str]:
    return sorted(p.stem for p in PACK_DIR.glob("*.json") if p.stem not in ("schema", "checked"))


def check(data: dict) -> None:
    """Raise PackError with every problem found, or return quietly."""
    import jsonschema

    errors = sorted(jsonschema.Draft202012Validator(schema()).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        raise PackError("; ".join(f"{'/'.join(map(str, e.path))}: {e.message[:200]}" for e in errors[:10]))
    problems: list[str] = []
    for kind in ("characters", "spells", "artifacts", "potions", "clash_cards", "quests", "maps"):
        ids = [x["id"] for x in data[kind]]
        if len(ids) != len(set(ids)):
            problems.append(f"{kind}: duplicate ids")
    spells = {s["id"] for s in data["spells"]}
    names = {c["name"] for c in data["characters"]}
    for c in data["characters"]:
        if c["affiliation"] not in data["affiliations"]:
            problems.append(f"{c['id']}: unknown affiliation {c['affiliation']}")
        for s in c["innate_spells"]:
            if s not in spells:
                problems.append(f"{c['id']}: unknown innate spell {s}")
        for t in c["traits"]:
            if (t["id"] in TRAITS_WITH_X) != ("x" in t):
                problems.append(f"{c['id']}: trait {t['id']} {'needs' if t['id'] in TRAITS_WITH_X else 'takes no'} X")
    for sp in data["spells"]:
        if any(e["op"] == "marker" for e in sp["effects"]) and (sp["combat"] or sp["reaction"] or not sp["upkeep"]):
            # A board marker stays while its spell is upkept (L1087, L1220-1222): only a non-combat upkept spell places one.
            problems.append(f"{sp['id']}: a spell that places a board marker must be a non-combat spell with Upkeep")
    for kind in ("artifacts", "potions"):
        for x in data[kind]:
            effs = (
                x["effects"]
                if kind == "potions"
                else x["passive"] + x["use"] + (x["attack"]["effects"] if x["attack"] else [])
            )
            if any(e["op"] == "marker" for e in effs):
                problems.append(f"{x['id']}: only spells place board markers")
    for c in data["clash_cards"]:
        if c["lower"] and any(e["op"] == "marker" for e in c["lower"]["effects"]):
            problems.append(f"{c['id']}: only spells place board markers")
    for a in data["artifacts"]:
        for n in a["restricted_to"]:
            if n not in names:
                problems.append(f"{a['id']}: restricted to unknown model {n}")
    makeup: dict[str, int] = {}
    for c in data["clash_cards"]:
        makeup[c["upper"]] = makeup.get(c["upper"], 0) + 1
    if makeup != DECK_MAKEUP:
        problems.append(f"clash_cards: a starting deck is {DECK_MAKEUP}, not {makeup}")
    if data["lucky"]["upper"] != "2+" or data["jinxed"]["upper"] != "0":
        problems.append("a Lucky card shows 2+ and a Jinxed card 0 (L430-445)")
    hm = data["params"]["horcrux_maker"]
    arts = {a["id"]: a for a in data["artifacts"]}
    if hm["rival_horcrux"] not in arts or "Horcrux" not in arts[hm["rival_horcrux"]]["keywords"]:
        problems.append("params.horcrux_maker.rival_horcrux must be a Horcrux artifact")
    for m in data["maps"]:
        colours = set(m["halves"][0]["nexus"]) & set(m["halves"][1]["nexus"])
        if not colours:
            problems.append(f"{m['id']}: the halves share no Nexus colour")
        for colour in sorted(colours):
            board = geometry.Board(m, colour)
            if board.clash:
                problems.append(f"{m['id']}/{colour}: the halves print different terrain on shared spaces")
            for side in (0, 1):
                for h in board.arrival[side]:
                    if board.terrain.get(h) != "open":
                        problems.append(f"{m['id']}: Arrival Space {h} is not Open")
    if problems:
        raise PackError("; ".join(problems))


def fingerprint(pack_bytes: bytes) -> str:
    """What identifies a checked pack: the SHA-256 of the schema's bytes and then the pack's."""
    return hashlib.sha256((PACK_DIR / "schema.json").read_bytes() + b"\0" + pack_bytes).hexdigest()


@lru_cache(maxsize=1)
def checked() -> dict[str, str]:
    """The fingerprints of the packs ``check`` passed: packs/checked.json, which
    tests/engines/wizarding_duels/test_pack_fingerprints.py keeps current."""
    try:
        return json.loads((PACK_DIR / "checked.json").read_text())
    except FileNotFoundError:
        return {}


#: The packs loaded, by id. A plain dict read with one lookup: every state names its pack by id
#: and the engine looks it up several times an event, where ``functools.cache``'s call cost
#: several times the lookup (issue 17, P1). Cleared by ``load.cache_clear()``, as before.
_LOADED: dict[str, Pack] = {}


def load(pack_id: str) -> Pack:
    try:
        return _LOADED[pack_id]
    except KeyError:
        pass
    pk = _LOADED[pack_id] = _load(pack_id)
    return pk


load.cache_clear = _LOADED.clear  # type: ignore[attr-defined]


def _load(pack_id: str) -> Pack:
    # A pack id comes from a config anyone may send (a Group check needs no account): it names one
    # of the packs here and is never a path, so "../x", an absolute path or a name too long for a
    # file is unknown like any other name, whatever exists on the machine.
    if pack_id not in pack_ids():
        raise InvalidConfig(
            f"There is no content pack called {quoted(pack_id, otherwise='that')}.", code="unknown_pack"
        )
    path = PACK_DIR / f"{pack_id}.json"
    raw = path.read_bytes()
    data = json.loads(raw)
    # A pack byte for byte equal (with the same schema) to one that passed ``check`` passes again:
    # skip the schema pass, which with importing jsonschema cost every process more than replaying
    # a whole Wizarding Duels match (issue 17, P1). Any other bytes are checked in full.
    if checked().get(pack_id) != fingerprint(raw):
        check(data)
    return Pack(data)


class Pack:
    def __init__(self, data: dict):
        self.data = data
        self.id: str = data["id"]
        self.params: dict = data["params"]
        self.characters = {c["id"]: c for c in data["characters"]}
        self.spells = {s["id"]: s for s in data["spells"]}
        self.spells[self.params["basic_combat_spell"]["id"]] = self.params["basic_combat_spell"]
        self.artifacts = {a["id"]: a for a in data["artifacts"]}
        self.potions = {p["id"]: p for p in data["potions"]}
        self.clash_cards = {c["id"]: c for c in data["clash_cards"]}
        self.clash_cards["lucky"] = data["lucky"]
        self.clash_cards["jinxed"] = data["jinxed"]
        self.quests = {q["id"]: q for q in data["quests"]}
        self.maps = {m["id"]: m for m in data["maps"]}
        self.challenges: list[str] = data["challenges"]
        #: ``groups.traits`` of each character asked for, by id (``groups.character_traits``).
        self.traits_of: dict[str, dict[str, int]] = {}
        #: ``groups.artifact_facts`` of each artifact asked for, by id.
        self.artifact_facts: dict[str, tuple] = {}
        #: Made from the pack alone and only read, so kept with it: the cards of a new game's
        #: Clash decks (``WizardingDuelsEngine.setup``) and each character's model before its Group
        #: places it (``rules._install_group``).
        self.starting_cards: tuple[dict[str, str], list[str], list[str]] | None = None
        self.fresh_models: dict[str, tuple] = {}
        self.affiliations: list[str] = data["affiliations"]

    @property
    def basic_spell_id(self) -> str:
        return self.params["basic_combat_spell"]["id"]

    def playable(self) -> bool:
        """Whole games need a quest of every type and at least one map."""
        return set(map(_TYPE, self.data["quests"])).issuperset(QUEST_TYPES) and bool(self.maps)


class PerPack(dict):
    """What ``make`` derives from a pack, by pack id: made on the first ask of each pack and kept,
    and a kept one read by subscript, in C with no call (``__missing__`` runs only on a miss). For
    the tables the rules read in every clash or after every event (issue 17, P1)."""

    def __init__(self, make: Callable[[str], Any]):
        super().__init__()
        self.make = make

    def __missing__(self, pack_id: str) -> Any:
        made = self[pack_id] = self.make(pack_id)
        return made


#: The joined boards, by pack, map and Nexus colour: plain dicts, read as ``_LOADED`` is.
_BOARDS: dict[str, dict[str, dict[str, geometry.Board]]] = {}


def board(pack_id: str, map_id: str, nexus: str) -> geometry.Board:
    try:
        return _BOARDS[pack_id][map_id][nexus]
    except KeyError:
        pass
    b = geometry.Board(load(pack_id).maps[map_id], nexus)
    _BOARDS.setdefault(pack_id, {}).setdefault(map_id, {})[nexus] = b
    return b


board.cache_clear = _BOARDS.clear  # type: ignore[attr-defined]
