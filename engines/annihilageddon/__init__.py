"""Epic Spell Wars: Annihilageddon: importing this package registers the engine.

Whole games play end to end (server and tabletop, autoplay, verification); the pages are still
to come, so the engine declares itself not playable from the new-match form until they exist.
"""

from ..registry import register
from . import cards
from .engine import Annihilageddon

ENGINE = register(Annihilageddon())

__all__ = ["ENGINE", "Annihilageddon", "cards"]
