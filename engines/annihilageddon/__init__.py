"""Epic Spell Wars: Annihilageddon: importing this package registers the engine.

Whole games play end to end: server and tabletop, autoplay, verification, the game page
(static/js/games/annihilageddon.js) and the card gallery (/games/annihilageddon/cards/).
"""

from ..registry import register
from . import cards
from .engine import Annihilageddon

# Version 5 is what new matches play; versions 1 to 4 stay so that matches recorded with them
# replay and verify exactly as they were played (RULES.md, "Versions"); 1 to 3 end as they did when a
# seat resigns or runs out of time, and 4 still asks a leaving killer's second fatality token
# (RULES.md, "A seat that leaves").
ENGINE_V1 = register(Annihilageddon(version="1"))
ENGINE_V2 = register(Annihilageddon(version="2"))
ENGINE_V3 = register(Annihilageddon(version="3"))
ENGINE_V4 = register(Annihilageddon(version="4"))
ENGINE = register(Annihilageddon())

__all__ = ["ENGINE", "ENGINE_V1", "ENGINE_V2", "ENGINE_V3", "ENGINE_V4", "Annihilageddon", "cards"]
