"""IWDL Draft (Wizard Dodgeball team building): importing this package registers the engine.

See engine.py for the config, action, chance and state shapes and RULES.md for the rulings.
"""

from ..registry import register
from .engine import IwdlDraftEngine, match_config

ENGINE = register(IwdlDraftEngine())

__all__ = ["ENGINE", "IwdlDraftEngine", "match_config"]
