"""Luck per club across a season: a page and its API (league/seasons/luck.py computes it)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.api.views import with_expensive_throttle
from matches.throttles import expensive_page

from . import luck as analysis
from . import selectors as season_selectors
from .responses import SeasonLuckSerializer


@expensive_page
def season_luck_page(request, slug, number):
    season = season_selectors.season_get(league_slug=slug, number=number)
    if season is None:
        raise Http404("No such season.")
    analysis.season_luck_fill(season=season)
    return render(
        request,
        "seasons/season_luck.html",
        {"league": season.league, "season": season, "luck": analysis.season_luck(season=season)},
    )


class SeasonLuckView(APIView):
    permission_classes = [permissions.AllowAny]
    get_throttles = with_expensive_throttle

    @extend_schema(
        responses=SeasonLuckSerializer,
        summary="Each club's luck across a season's verified fixtures",
        description=f"Fixtures not yet analysed are analysed, {analysis.FILL_PER_REQUEST} per request; "
        "'analysed' says how many of 'verified_fixtures' are counted so far.",
    )
    def get(self, request, slug, number):
        season = season_selectors.season_get(league_slug=slug, number=number)
        if season is None:
            raise NotFound("No such season.")
        analysis.season_luck_fill(season=season)
        return Response(analysis.season_luck(season=season))
