"""Wizard Dodgeball, the game of the Interplanar Wizard Dodgeball League (rule version 1.06).

Importing this package registers the engine as "wizard-dodgeball". Both versions are
registered: version 2 is what new matches play; version 1 stays so that matches recorded with
it replay and verify exactly as they were played. See engine.py for the config, action and
chance shapes and RULES.md for every ruling on the rulebook's ambiguities.
"""

from engines.registry import register

from .engine import WizardDodgeballEngine

ENGINE_V1 = register(WizardDodgeballEngine(version="1"))
ENGINE = register(WizardDodgeballEngine())

__all__ = ["ENGINE", "ENGINE_V1", "WizardDodgeballEngine"]
