"""Epic Spell Wars: Annihilageddon: importing this package registers the engine.

Whole games play end to end: server and tabletop, autoplay, verification, the game page
(static/js/games/annihilageddon.js) and the card gallery (/games/annihilageddon/cards/).
"""

from ..registry import register
from . import cards
from .engine import Annihilageddon

ENGINE = register(Annihilageddon())

__all__ = ["ENGINE", "Annihilageddon", "cards"]
