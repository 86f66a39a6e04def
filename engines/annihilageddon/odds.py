"""Exact odds of this game's chance events (engines.odds); the stakes are being filled in."""

from __future__ import annotations

from typing import Any

from engines.base import Engine
from engines.odds import ChanceOdds


def chance_odds(engine: Engine, state: dict[str, Any], outcome: Any) -> ChanceOdds:
    return Engine.chance_odds(engine, state, outcome)
