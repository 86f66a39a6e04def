"""What a saved setup may hold, per game, checked by the game's engine (never re-implemented here).

A setup is ``{"config": {...}, "actions": [action, ...]}``: the match configuration it was prepared
for and the opening answers its seat gives (for Wizarding Duels: the Group, then the potion Stock).
A checker returns a report ``{"legal": bool, "refusals": {part: {"code", "detail"} | None}}`` or
raises SetupShapeError for input that is not a setup at all (HTTP 400).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import IllegalAction, InvalidConfig

#: A saved setup's JSON is at most this long (a Group and a Stock are well under 2 KB).
MAX_SETUP_CHARS = 8000


class SetupShapeError(ValueError):
    def __init__(self, message: str, code: str = "bad_setup"):
        super().__init__(message)
        self.message = message
        self.code = code


def _refusal(exc: IllegalAction) -> dict:
    return {"code": exc.code, "detail": exc.message}


def _judge(check, code: str, what: str) -> dict | None:
    """The engine's refusal of one part, or None. A part so malformed that the engine's check trips
    over it (an artifact given as an object, say) is refused here with a stable code instead."""
    try:
        check()
    except IllegalAction as exc:
        return _refusal(exc)
    except (TypeError, KeyError, ValueError, AttributeError):
        return {"code": code, "detail": f"That is not {what} the engine can read."}
    return None


def wizarding_duels(config: Any, group: Any, potions: Any) -> dict:
    """The Group and the Stock, each part through the engine's own check (groups.py): the roster
    (models, leader, artifacts, budget, Spellbook), the quest deck and the potion Stock, so that the
    builder can show every part's refusal at once, in the engine's words."""
    from engines.wizarding_duels import content, groups
    from engines.wizarding_duels.engine import WizardingDuelsEngine

    if not isinstance(config, dict):
        raise SetupShapeError("config must be an object with the pack and the Galleon budget.")
    cfg = {k: config[k] for k in ("pack", "galleons") if k in config}
    try:
        cfg = WizardingDuelsEngine().validate_config(cfg, 2)
    except InvalidConfig as exc:
        raise SetupShapeError(exc.message, exc.code) from None
    pk = content.load(cfg["pack"])
    if not isinstance(group, dict):
        raise SetupShapeError(
            "group must be an object: {'type': 'group', models, leader, artifacts, spellbook, quests}."
        )
    refusals: dict[str, dict | None] = {
        "group": _judge(lambda: groups.check_roster(pk, group, cfg["galleons"]), "bad_group", "a Group"),
        "quests": _judge(lambda: groups.check_quest_deck(pk, group.get("quests")), "quest_deck_size", "a quest deck"),
        "stock": None,
    }
    if potions is not None:
        models = list(group.get("models") or []) if refusals["group"] is None else []
        refusals["stock"] = _judge(
            lambda: groups.check_stock(pk, models, potions, cfg["potion_duplicates"]), "bad_stock", "a potion Stock"
        )
    return {
        "legal": all(v is None for v in refusals.values()),
        "refusals": refusals,
        "config": {"pack": cfg["pack"], "galleons": cfg["galleons"]},
    }


def wizarding_duels_setup(data: Any) -> dict:
    if not isinstance(data, dict) or set(data) - {"config", "actions"} or not isinstance(data.get("actions"), list):
        raise SetupShapeError("A setup is {'config': {...}, 'actions': [the Group, the potion Stock]}.")
    actions = data["actions"]
    if not 1 <= len(actions) <= 2:
        raise SetupShapeError("A Wizarding Duels setup is a Group, optionally followed by a potion Stock.")
    report = wizarding_duels(data.get("config", {}), actions[0], actions[1] if len(actions) > 1 else None)
    return report


#: game -> checker of a whole saved setup (its data).
SETUP_CHECKS: dict[str, Callable[[Any], dict]] = {"wizarding-duels": wizarding_duels_setup}


def check_setup(game: str, data: Any) -> dict:
    if game not in SETUP_CHECKS:
        raise SetupShapeError(f"There are no saved setups for the game '{game}'.", "no_setups_for_game")
    return SETUP_CHECKS[game](data)


def first_refusal(report: dict) -> dict | None:
    return next((r for r in report["refusals"].values() if r), None)
