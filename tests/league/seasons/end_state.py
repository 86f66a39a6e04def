"""What two ways of recording a season's verdicts must leave alike, read in one go."""

from __future__ import annotations

from league.ratings.models import Rating, RatingPoint
from league.seasons.models import Season
from league.seasons.selectors import season_standings
from matches.models import Event, Match


def season_end_state(season) -> dict:
    season = Season.objects.get(pk=season.pk)
    return {
        "events": list(
            Event.objects.filter(stream_id=season.stream_id)
            .order_by("seq")
            .values_list("seq", "type", "data", "event_id", "actor")
        ),
        "fixtures": list(
            season.fixtures.order_by("key").values_list(
                "key", "status", "match_id", "home_left", "away_left", "ruling", "result_seq", "draft_id", "date"
            )
        ),
        "standings": season_standings(season=season),
        "verdicts": sorted(Match.objects.values_list("id", "verdict", "verdict_seq", "verdict_reason")),
        "ratings": list(
            Rating.objects.order_by("game", "competitor").values_list(
                "game", "competitor", "label", "rating", "deviation", "volatility", "matches"
            )
        ),
        "points": list(
            RatingPoint.objects.order_by("game", "sequence", "competitor").values_list(
                "game", "competitor", "match_id", "sequence", "rating", "deviation", "volatility"
            )
        ),
        "projected_seq": season.projected_seq,
        "head_seq": season.stream.head_seq,
    }
