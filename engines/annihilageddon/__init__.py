"""Epic Spell Wars: Annihilageddon: importing this package registers the engine.

Whole games play end to end: server and tabletop, autoplay, verification, the game page
(static/js/games/annihilageddon.js) and the card gallery (/games/annihilageddon/cards/).
"""

from ..registry import register
from . import cards
from .engine import Annihilageddon

# Version 2 is what new matches play; version 1 stays so that matches recorded with it replay and
# verify exactly as they were played (RULES.md, "Versions").
ENGINE_V1 = register(Annihilageddon(version="1"))
ENGINE = register(Annihilageddon())

__all__ = ["ENGINE", "ENGINE_V1", "Annihilageddon", "cards"]
