"""Dueling Wizards (Janken Deck): importing this package registers the engine.

Both versions are registered: version 2 is what new matches play; version 1 stays so that
matches recorded with it replay and verify exactly as they were played (RULES.md)."""

from ..registry import register
from . import deck
from .engine import DuelingWizards

ENGINE_V1 = register(DuelingWizards(version="1"))
ENGINE = register(DuelingWizards())

__all__ = ["ENGINE", "ENGINE_V1", "DuelingWizards", "deck"]
