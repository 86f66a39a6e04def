"""Dueling Wizards (Janken Deck): importing this package registers the engine.

Every version is registered: version 3 is what new matches play; versions 1 and 2 stay so that
matches recorded with them replay and verify exactly as they were played (RULES.md)."""

from ..registry import register
from . import deck
from .engine import DuelingWizards

ENGINE_V1 = register(DuelingWizards(version="1"))
ENGINE_V2 = register(DuelingWizards(version="2"))
ENGINE = register(DuelingWizards())

__all__ = ["ENGINE", "ENGINE_V1", "ENGINE_V2", "DuelingWizards", "deck"]
