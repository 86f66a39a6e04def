"""SpellCaster (rules/spellcaster.txt): a contest of wills between two to four casters.

Importing this package registers the engine as "spellcaster". See engine.py for the state,
action and chance shapes and RULES.md for every ruling on the rulebook's gaps.
"""

from engines.registry import register

from .engine import SpellCasterEngine

# Version 1 stays registered so that matches recorded with it replay and verify as they were played.
ENGINE_V1 = register(SpellCasterEngine(version="1"))
ENGINE = register(SpellCasterEngine())

__all__ = ["ENGINE", "ENGINE_V1", "SpellCasterEngine"]
