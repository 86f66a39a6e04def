"""Verified matches between people, stored directly and folded into the ratings by the
projection itself: for pages that show ratings (how a match is played is the engines' business)."""

from __future__ import annotations

from league.ratings.projection import ratings_apply
from matches.models import Match
from tests.matches.helpers import stored_finished_match


def finished(game, users, placements):
    """A finished match between people, stored directly and verified, and folded into the
    ratings by the projection itself (how the match was played is the engines' business)."""
    match = stored_finished_match(game, result={"placements": placements}, users=users)
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.VERIFIED)
    assert ratings_apply(match_id=match.pk)
    return match
