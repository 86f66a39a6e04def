from django.http import Http404
from django.shortcuts import render

from . import selectors


def player_page(request, username):
    """A player's page: per game the rating over time, results and recent matches with
    replays; the tournaments they entered and the clubs they coach. Public, read-only."""
    profile = selectors.player_profile(username=username)
    if profile is None:
        raise Http404("No such player.")
    return render(request, "players/player.html", profile)
