"""Verified matches between people, stored directly and folded into the ratings by the
projection itself: for pages that show ratings (how a match is played is the engines' business)."""

from __future__ import annotations

import uuid

from django.utils import timezone

from league.ratings.projection import ratings_apply
from matches.models import Event, Match, Seat, Stream


def finished(game, users, placements):
    """A finished match between people, stored directly and verified, and folded into the
    ratings by the projection itself (how the match was played is the engines' business)."""
    stream = Stream.objects.create(id=f"match:{uuid.uuid4()}", kind="match")
    match = Match.objects.create(
        stream=stream,
        game=game,
        engine_version="1",
        status=Match.Status.FINISHED,
        result={"placements": placements},
        finished_at=timezone.now(),
    )
    for index, user in enumerate(users):
        Seat.objects.create(match=match, index=index, user=user)
    Event.objects.create(
        stream=stream,
        seq=1,
        type="match.finished",
        data={},
        actor="server",
        recorded_at=timezone.now(),
        prev_hash="0" * 64,
        hash="1" * 64,
    )
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.VERIFIED)
    assert ratings_apply(match_id=match.pk)
    return match
