"""Group building: the legality of a Group (rulebook A1-A3, L1454-1494), of a potion Stock
(L1126-1138, Potioneer L1388-1392), and a helper that builds a legal random Group for any pack
and budget so bots and tests can play quickly.

A Group submission is::

    {"type": "group",
     "models": [character id, ...],            # 1..6, selection order
     "leader": index into models,
     "artifacts": [[artifact id, ...] per model],
     "spellbook": [spell id, ...],
     "quests": [9 quest ids, one per type]}

A Stock submission is ``{"type": "potions", "potions": [6 potion ids]}``.
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import itemgetter

from engines.base import IllegalAction, quoted

from .content import QUEST_TYPES, Pack

MAX_MODELS = 6
STOCK_SIZE = 6
MAX_LIGHTNING = 4

# A Group's checks run once per Group built, in every replay of a game: the per-item tests below
# are made by ``map`` in C, not by comprehensions or generator expressions, each a frame of its
# own (issue 17, P1). ``all(map(isinstance, xs, repeat(str)))`` is
# ``all(isinstance(x, str) for x in xs)``.
_GALLEONS = itemgetter("galleons")
_MASTERY = itemgetter("mastery")
_AFFILIATION = itemgetter("affiliation")
_NAME = itemgetter("name")
_TYPE = itemgetter("type")
_LIGHTNING = itemgetter("lightning")
_SORTED_TYPES = sorted(QUEST_TYPES)
_GROUP_KEYS = {"type", "models", "leader", "artifacts", "spellbook", "quests"}
_STOCK_KEYS = {"type", "potions"}


def traits(char: dict) -> dict[str, int]:
    return {t["id"]: t.get("x", 1) for t in char["traits"]}


def character_traits(pack: Pack, cid: str) -> dict[str, int]:
    """``traits(pack.characters[cid])``, made once per pack and character and only to be read: a
    Group's check and its install asked for each model's, each time building it anew (issue 17,
    P1). A model's own traits are a copy (``dict(...)``), which the state may change."""
    t = pack.traits_of.get(cid)
    if t is None:
        t = pack.traits_of[cid] = traits(pack.characters[cid])
    return t


def artifact_facts(art: dict) -> tuple:
    """What a Group's check reads of an artifact: the names it is restricted to, whether it is a
    Horcrux, whether it is Legendary, whether it is a Deathly Hallow, and its Galleons. Made once
    per pack and artifact (``Pack.artifact_facts``): the check asked each of the card every time."""
    keywords = art["keywords"]
    return (
        art["restricted_to"],
        "Horcrux" in keywords,
        art["rarity"] == "legendary",
        "Deathly Hallow" in keywords,
        art["galleons"],
    )


def _refuse(message: str, code: str):
    raise IllegalAction(message, code=code)


def check_group(pack: Pack, group: dict, budget: int) -> None:
    """Raise IllegalAction (a stable code and a sentence) unless ``group`` is a legal Group."""
    check_roster(pack, group, budget)
    check_quest_deck(pack, group["quests"])


def check_roster(pack: Pack, group: dict, budget: int) -> None:
    """Everything but the quest deck: models, leader, artifacts, budget and Spellbook."""
    if not isinstance(group, dict) or group.get("type") != "group":
        _refuse("A Group is {'type': 'group', 'models', 'leader', 'artifacts', 'spellbook', 'quests'}.", "bad_group")
    if group.keys() != _GROUP_KEYS:
        _refuse("A Group names exactly: models, leader, artifacts, spellbook and quests.", "bad_group")
    models, arts = group["models"], group["artifacts"]
    if not isinstance(models, list) or not all(map(isinstance, models, repeat(str))):
        _refuse("models must be a list of character ids.", "bad_group")
    if not 1 <= len(models) <= MAX_MODELS:
        # L1480 (WD-6): at most 6 models; ruling A-66: at least 1.
        _refuse(f"A Group holds 1 to {MAX_MODELS} models.", "group_size")
    characters = pack.characters
    for m in models:
        if m not in characters:
            _refuse(f"There is no character {quoted(m, otherwise='of that name')} in this pack.", "unknown_character")
    chars = list(map(characters.__getitem__, models))
    if len(set(map(_AFFILIATION, chars))) != 1:
        # L379, L1474 (WD-4): one affiliation per Group.
        _refuse("Every model in a Group must share one affiliation.", "mixed_affiliation")
    names = list(map(_NAME, chars))
    if len(set(names)) != len(names):  # else no name is repeated: the loop would refuse nothing
        for c in chars:
            if names.count(c["name"]) > 1 and "horde" not in character_traits(pack, c["id"]):
                # L378, L1478 (WD-5): unique names, except Horde (WD-T15).
                _refuse(f"Only one model named {c['name']} may join a Group.", "duplicate_name")
    leader = group["leader"]
    if type(leader) is not int or not 0 <= leader < len(models):
        _refuse("leader must be the index of one of the Group's models.", "bad_leader")
    if not isinstance(arts, list) or len(arts) != len(models):
        _refuse("artifacts must list the artifacts of each model, in model order.", "bad_group")
    for carried in arts:
        if not isinstance(carried, list) or not all(map(isinstance, carried, repeat(str))):
            _refuse("artifacts must list the artifacts of each model, in model order.", "bad_group")
    galleons = sum(map(_GALLEONS, chars))
    facts = pack.artifact_facts
    for c, carried in zip(chars, arts):
        if not carried:
            continue  # passes every test below (a character's slots are never negative: the schema)
        t = character_traits(pack, c["id"])
        cost = 0
        legendary = hallows = slots_used = 0
        for a in carried:
            fact = facts.get(a)
            if fact is None:
                if a not in pack.artifacts:
                    _refuse(
                        f"There is no artifact {quoted(a, otherwise='of that name')} in this pack.", "unknown_artifact"
                    )
                fact = facts[a] = artifact_facts(pack.artifacts[a])
            restricted, horcrux, legend, hallow, price = fact
            if restricted and c["name"] not in restricted:
                # L529 (WD-9): Crookshanks goes only to Hermione.
                art = pack.artifacts[a]
                _refuse(
                    f"{art['name']} can only be assigned to {', '.join(art['restricted_to'])}.", "artifact_restricted"
                )
            if horcrux and "horcrux_maker" in t:
                _refuse("A Horcrux Maker may not take Horcrux artifacts.", "horcrux_maker_horcrux")
            legendary += legend
            hallows += hallow
            if not (hallow and "master_of_death" in t):
                slots_used += 1
            cost += price
        if slots_used > c["slots"]:
            # L522, L1484 (WD-8): no more artifacts than item slots.
            _refuse(f"{c['name']} has {c['slots']} item slot(s).", "too_many_artifacts")
        if legendary > 1:
            # L535-537 (WD-10): at most one Legendary artifact per model.
            _refuse(f"{c['name']} may carry only one Legendary artifact.", "two_legendaries")
        if hallows > 1 and "master_of_death" not in t:
            # L539-543 (WD-11): one Deathly Hallow per model, Master of Death excepted.
            _refuse(f"{c['name']} may carry only one Deathly Hallow.", "two_hallows")
        if len(set(carried)) != len(carried):
            _refuse("A model cannot carry the same artifact twice.", "duplicate_artifact")
        if "malfoy_patriarch" in t:
            cost = max(0, cost - 3)  # WD-T27
        galleons += cost
    all_arts = list(chain.from_iterable(arts))
    if len(set(all_arts)) != len(all_arts):
        _refuse("Each artifact card can be assigned to one model only.", "duplicate_artifact")
    if galleons > budget:
        # L1466-1476 (WD-3): models plus artifacts within the Galleon budget.
        _refuse(f"The Group costs {galleons} Galleons; the budget is {budget}.", "over_budget")
    book = group["spellbook"]
    if not isinstance(book, list) or not all(map(isinstance, book, repeat(str))):
        _refuse("spellbook must be a list of spell ids.", "bad_group")
    spells, basic = pack.spells, pack.basic_spell_id
    for s in book:
        if s not in spells or s == basic:
            _refuse(f"There is no spell card {quoted(s, otherwise='of that name')} in this pack.", "unknown_spell")
    if len(set(book)) != len(book):
        _refuse("A Spellbook holds no two cards of the same name.", "duplicate_spell")
    mastery = sum(map(_MASTERY, chars))
    if len(book) > mastery:
        # L989-1006 (WD-14, EX-9): at most the sum of the models' Mastery.
        _refuse(f"The Spellbook may hold at most {mastery} spells (the Group's total Mastery).", "spellbook_too_big")


def check_quest_deck(pack: Pack, quests) -> None:
    """L477-501 (WD-16): exactly 9 cards, one of each type, at most 4 with the lightning mark."""
    if not isinstance(quests, list) or len(quests) != len(QUEST_TYPES) or not all(map(isinstance, quests, repeat(str))):
        _refuse("A Quest deck is exactly 9 quest cards.", "quest_deck_size")
    known = pack.quests
    cards = list(map(known.get, quests))
    if None in cards:
        for q in quests:
            if q not in known:
                _refuse(f"There is no quest {quoted(q, otherwise='of that name')} in this pack.", "unknown_quest")
    if sorted(map(_TYPE, cards)) != _SORTED_TYPES:
        _refuse("A Quest deck holds one quest of each of the 9 types.", "quest_types")
    if sum(map(_LIGHTNING, cards)) > MAX_LIGHTNING:
        _refuse("A Quest deck holds at most 4 instant (lightning) quests.", "too_many_lightning")


def potioneer_levels(pack: Pack, models: list[str]) -> list[int]:
    levels = []
    for m in models:
        t = character_traits(pack, m)
        if "potioneer" in t:
            levels.append(t["potioneer"])
    return levels


def check_stock(pack: Pack, models: list[str], action: dict, duplicates: bool = True) -> None:
    """L1126-1138, L1388-1392 (WD-17, EX-14): six potions, all level 0, except that each Potioneer X
    lets one of them be of level <= X."""
    if not isinstance(action, dict) or action.keys() != _STOCK_KEYS or action["type"] != "potions":
        _refuse("A Stock is {'type': 'potions', 'potions': [six potion ids]}.", "bad_stock")
    pots = action["potions"]
    if not isinstance(pots, list) or len(pots) != STOCK_SIZE or not all(map(isinstance, pots, repeat(str))):
        _refuse("A potion Stock is exactly 6 potions.", "stock_size")
    potions = pack.potions
    higher = []  # the levels above 0, read in the same pass (a Stock with an unknown potion is refused)
    for p in pots:
        potion = potions.get(p)
        if potion is None:
            _refuse(f"There is no potion {quoted(p, otherwise='of that name')} in this pack.", "unknown_potion")
        if potion["level"] > 0:
            higher.append(potion["level"])
    if not duplicates and len(set(pots)) != len(pots):
        _refuse("This match allows no duplicate potions.", "duplicate_potion")
    if not higher:
        return  # all of level 0: always allowed, whatever the Potioneers
    higher.sort(reverse=True)
    levels = sorted(potioneer_levels(pack, models), reverse=True)
    # Greedy matching: the highest potions take the highest Potioneers.
    refused = len(higher) > len(levels)
    if not refused:
        for h, lv in zip(higher, levels):
            if h > lv:
                refused = True
                break
    if refused:
        _refuse(
            "Only level-0 potions, except one potion of level up to X for each Potioneer X in the Group.",
            "stock_levels",
        )


# ---------------------------------------------------------------- the helper


def random_group(pack: Pack, budget: int, rng, affiliation: str | None = None) -> dict:
    """A legal random Group for ``pack`` within ``budget`` (``rng`` needs only ``random()``)."""

    def pick(seq):
        return seq[int(rng.random() * len(seq))]

    affs = [
        a
        for a in pack.affiliations
        if any(c["affiliation"] == a and c["galleons"] <= budget for c in pack.characters.values())
    ]
    if not affs:
        raise IllegalAction("No model of this pack fits the budget.", code="over_budget")
    aff = affiliation if affiliation in affs else pick(affs)
    pool = sorted(c for c in pack.characters if pack.characters[c]["affiliation"] == aff)
    models: list[str] = []
    spent = 0
    target = 1 + int(rng.random() * MAX_MODELS)
    for _ in range(40):
        if len(models) >= target:
            break
        c = pick(pool)
        ch = pack.characters[c]
        if ch["galleons"] + spent > budget:
            continue
        if c in models and "horde" not in traits(ch):
            continue
        models.append(c)
        spent += ch["galleons"]
    if not models:
        cheapest = min(pool, key=lambda c: (pack.characters[c]["galleons"], c))
        models = [cheapest]
        spent = pack.characters[cheapest]["galleons"]
    arts: list[list[str]] = [[] for _ in models]
    used: set[str] = set()
    art_ids = sorted(pack.artifacts)
    for _ in range(8):
        i = int(rng.random() * len(models))
        a = pick(art_ids)
        if a in used:
            continue
        trial = [list(x) for x in arts]
        trial[i].append(a)
        cand = {
            "type": "group",
            "models": models,
            "leader": 0,
            "artifacts": trial,
            "spellbook": [],
            "quests": _quests(pack, rng),
        }
        try:
            check_group(pack, cand, budget)
        except IllegalAction:
            continue
        arts = trial
        used.add(a)
    mastery = sum(pack.characters[m]["mastery"] for m in models)
    spells = sorted(s for s in pack.spells if s != pack.basic_spell_id)
    book: list[str] = []
    for _ in range(mastery * 3):
        if len(book) >= mastery:
            break
        s = pick(spells)
        if s not in book:
            book.append(s)
    group = {
        "type": "group",
        "models": models,
        "leader": int(rng.random() * len(models)),
        "artifacts": arts,
        "spellbook": book,
        "quests": _quests(pack, rng),
    }
    check_group(pack, group, budget)
    return group


def _quests(pack: Pack, rng) -> list[str]:
    while True:
        deck = []
        for t in QUEST_TYPES:
            options = sorted(q for q in pack.quests if pack.quests[q]["type"] == t)
            if not options:
                raise IllegalAction(
                    f"This pack has no quest of type {t}; it cannot play whole games.", code="pack_not_playable"
                )
            deck.append(options[int(rng.random() * len(options))])
        if sum(pack.quests[q]["lightning"] for q in deck) <= MAX_LIGHTNING:
            return deck


def random_stock(pack: Pack, models: list[str], rng) -> dict:
    levels = sorted(potioneer_levels(pack, models), reverse=True)
    by_level = {lv: sorted(p for p in pack.potions if pack.potions[p]["level"] == lv) for lv in range(4)}
    pots = []
    for lv in levels[:STOCK_SIZE]:
        choice = int(rng.random() * (lv + 1))
        options = by_level[choice] or by_level[0]
        pots.append(options[int(rng.random() * len(options))])
    while len(pots) < STOCK_SIZE:
        pots.append(by_level[0][int(rng.random() * len(by_level[0]))])
    return {"type": "potions", "potions": pots}


class Lcg:
    """A tiny deterministic generator (no ``random`` module) for the engine's own sample groups."""

    def __init__(self, seed: int):
        self.x = (seed * 6364136223846793005 + 1442695040888963407) % (1 << 64)

    def random(self) -> float:
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.x >> 11) / float(1 << 53)
