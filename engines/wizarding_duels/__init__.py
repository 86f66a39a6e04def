"""Wizarding Duels, the skirmish game (rulebook: shared/rules/wizarding-duels.txt).

Importing this package registers the engine as "wizarding-duels", every version: version 3 is what
new matches play; versions 1 and 2 stay so that matches recorded with them replay and verify exactly
as they were played (their states and their log lines). See engine.py for the config, action and chance shapes and RULES.md for every ruling.
"""

from engines.registry import register

from .engine import WizardingDuelsEngine

ENGINE_V1 = register(WizardingDuelsEngine(version="1"))
ENGINE_V2 = register(WizardingDuelsEngine(version="2"))
ENGINE = register(WizardingDuelsEngine())

__all__ = ["ENGINE", "ENGINE_V1", "ENGINE_V2", "WizardingDuelsEngine"]
