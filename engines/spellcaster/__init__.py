"""SpellCaster (rules/spellcaster.txt): a contest of wills between two to four casters.

Importing this package registers the engine as "spellcaster". See engine.py for the state,
action and chance shapes and RULES.md for every ruling on the rulebook's gaps.
"""

from engines.registry import register

from .engine import SpellCasterEngine

ENGINE = register(SpellCasterEngine())

__all__ = ["ENGINE", "SpellCasterEngine"]
