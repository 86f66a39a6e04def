"""Epic Spell Wars: Annihilageddon.

Not registered yet: whole games play end to end and the conformance checks pass (see
tests/engines/annihilageddon/test_conformance_checks.py), but the shared conformance suite also
requires a page script (static/js/games/annihilageddon.js), which does not exist yet. Once it
does, register with ``ENGINE = register(Annihilageddon())``.
"""

from . import cards
from .engine import Annihilageddon

__all__ = ["Annihilageddon", "cards"]
