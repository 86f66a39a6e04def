"""SpellCaster (rules/spellcaster.txt): a contest of wills between two to four casters.

The engine is not registered yet: it joins the registry once whole games play end to end.
See engine.py for the state, action and chance shapes and RULES.md for every ruling.
"""

from .engine import SpellCasterEngine

__all__ = ["SpellCasterEngine"]
