"""Luck per club across a season (issue 19): the sum of each club's luck in its verified fixtures.

A fixture's match seats the home club at seat 0 and the away club at seat 1 (the draft hands the
teams over in that order, see league/seasons/selectors.club_history). The luck of a match is the
cached analysis from matches.analysis; matches not yet analysed are analysed a bounded batch at a
time (``season_luck_fill``), so the page says how many of the fixtures it counts so far.
"""

from __future__ import annotations

from typing import Any

from matches.analysis import services as analysis_services
from matches.analysis.models import MatchAnalysis
from matches.analysis.selectors import LUCK_EXPLAINED
from matches.models import Match

from .models import Fixture, Season

#: Matches a season's luck request may analyse on the spot.
FILL_PER_REQUEST = 10
HOME, AWAY = 0, 1


def _fixtures(season: Season):
    return season.fixtures.filter(
        status=Fixture.Status.PLAYED,
        match__isnull=False,
        match__status=Match.Status.FINISHED,
        match__verdict=Match.Verdict.VERIFIED,
    ).select_related("home", "away", "match")


def season_luck_fill(*, season: Season, limit: int = FILL_PER_REQUEST) -> int:
    """Analyse the season's verified matches not yet analysed (at most ``limit``); how many."""
    matches = Match.objects.filter(pk__in=_fixtures(season).values("match_id"))
    return analysis_services.analyses_fill(matches=matches, limit=limit)


def season_luck(*, season: Season) -> dict[str, Any]:
    """Per club: its luck summed over the season's verified fixtures that have an analysis, most
    fortunate first."""
    fixtures = list(_fixtures(season))
    analyses = MatchAnalysis.objects.filter(match__in=[f.match_id for f in fixtures])
    luck = dict(analyses.values_list("match_id", "luck"))
    clubs: dict[str, dict[str, Any]] = {}
    for f in fixtures:
        values = luck.get(f.match_id)
        for club, seat in ((f.home, HOME), (f.away, AWAY)):
            row = clubs.setdefault(club.slug, {"club": club.slug, "name": club.name, "fixtures": 0, "luck": 0.0})
            if values is not None and seat < len(values):
                row["fixtures"] += 1
                row["luck"] = round(row["luck"] + values[seat], 6)
    rows = sorted(clubs.values(), key=lambda r: (-r["luck"], r["club"]))
    return {
        "league": season.league.slug,
        "season": season.number,
        "verified_fixtures": len(fixtures),
        "analysed": sum(1 for f in fixtures if f.match_id in luck),
        "clubs": rows,
        "explained": LUCK_EXPLAINED,
    }
