"""Player ratings from verified results: Glicko-2 for two-sided games, OpenSkill for
three to five players and teams, and a ledger that rebuilds them in commit order."""

from .glicko2 import Glicko2Rating, rate_game, rate_period
from .ledger import HistoryPoint, RatedResult, rebuild
from .multi import MultiRating, rate_match

__all__ = [
    "Glicko2Rating",
    "HistoryPoint",
    "MultiRating",
    "RatedResult",
    "rate_game",
    "rate_match",
    "rate_period",
    "rebuild",
]
