"""Dueling Wizards (Janken Deck): importing this package registers the engine."""

from ..registry import register
from . import deck
from .engine import DuelingWizards

ENGINE = register(DuelingWizards())

__all__ = ["ENGINE", "DuelingWizards", "deck"]
