"""Wizard Dodgeball, the game of the Interplanar Wizard Dodgeball League (rule version 1.06).

Importing this package registers the engine as "wizard-dodgeball". See engine.py for the
config, action and chance shapes and RULES.md for every ruling on the rulebook's ambiguities.
"""

from engines.registry import register

from .engine import WizardDodgeballEngine

ENGINE = register(WizardDodgeballEngine())

__all__ = ["ENGINE", "WizardDodgeballEngine"]
