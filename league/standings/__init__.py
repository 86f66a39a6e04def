"""League standings, division movements and season schedules as plain data. Pure Python."""

from .schedule import Fixture, season_schedule
from .table import CRITERIA, Boundary, Result, Row, division_movements, standings

__all__ = [
    "CRITERIA",
    "Boundary",
    "Fixture",
    "Result",
    "Row",
    "division_movements",
    "season_schedule",
    "standings",
]
