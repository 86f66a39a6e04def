"""Wizarding Duels, the skirmish game (rulebook: shared/rules/wizarding-duels.txt).

Importing this package registers the engine as "wizarding-duels". See engine.py for the config,
action and chance shapes and RULES.md for every ruling on the rulebook's gaps.
"""

from engines.registry import register

from .engine import WizardingDuelsEngine

ENGINE = register(WizardingDuelsEngine())

__all__ = ["ENGINE", "WizardingDuelsEngine"]
