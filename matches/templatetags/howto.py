"""Links to the How to play pages and the leaderboards, for any page: {% load howto %}."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from engines import registry
from matches.games.howto import has_howto

register = template.Library()


@register.simple_tag
def howto_link(game: str):
    """A link to the game's How to play page, or nothing for a game without one."""
    if not has_howto(game):
        return ""
    return format_html('<a href="{}" data-testid="howto-link">How to play</a>', reverse("how-to-play", args=[game]))


@register.simple_tag
def game_guides():
    """One line per kind: every playable game's How to play page, every rated game's leaderboard."""
    games = [e for e in registry.playable() if has_howto(e.name)]
    rated = registry.rated()
    howtos = format_html_join(
        " · ", '<a href="{}">{}</a>', ((reverse("how-to-play", args=[e.name]), e.title) for e in games)
    )
    boards = format_html_join(
        " · ", '<a href="{}">{}</a>', ((reverse("leaderboard", args=[e.name]), e.title) for e in rated)
    )
    parts = []
    if games:
        parts.append(format_html('<p class="small" data-testid="howto-links">How to play: {}</p>', howtos))
    if rated:
        parts.append(format_html('<p class="small" data-testid="leaderboard-links">Ratings: {}</p>', boards))
    return format_html_join("", "{}", ((p,) for p in parts))
