"""Epic Spell Wars: Annihilageddon: importing this package registers the engine.

Whole games play end to end: server and tabletop, autoplay, verification, the game page
(static/js/games/annihilageddon.js) and the card gallery (/games/annihilageddon/cards/).
"""

from ..registry import register
from . import cards
from .engine import Annihilageddon

# Version 3 is what new matches play; versions 1 and 2 stay so that matches recorded with them
# replay and verify exactly as they were played (RULES.md, "Versions").
ENGINE_V1 = register(Annihilageddon(version="1"))
ENGINE_V2 = register(Annihilageddon(version="2"))
ENGINE = register(Annihilageddon())

__all__ = ["ENGINE", "ENGINE_V1", "ENGINE_V2", "Annihilageddon", "cards"]
