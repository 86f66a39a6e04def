"""Wizarding Duels, the skirmish game (rulebook: shared/rules/wizarding-duels.txt).

Importing this package registers the engine as "wizarding-duels", both versions: version 2 is what
new matches play; version 1 stays so that matches recorded with it replay and verify exactly as they
were played. See engine.py for the config, action and chance shapes and RULES.md for every ruling.
"""

from engines.registry import register

from .engine import WizardingDuelsEngine

ENGINE_V1 = register(WizardingDuelsEngine(version="1"))
ENGINE = register(WizardingDuelsEngine())

__all__ = ["ENGINE", "ENGINE_V1", "WizardingDuelsEngine"]
