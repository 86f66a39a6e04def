"""Epic Spell Wars: Annihilageddon. The engine is not registered yet: it is registered only once
whole games play end to end (see RULES.md)."""

from . import cards
from .engine import Annihilageddon

__all__ = ["Annihilageddon", "cards"]
