"""The embeddable widgets: a tournament's standings or bracket alone on a page, for another
site to frame. The page is framed only by the origins the organiser allowed (CSP
``frame-ancestors``; ``'none'`` when there are none, as on every other page), and X-Frame-Options
agrees: DENY when nobody may frame it, absent when some origins may (it cannot name several
origins, and browsers that know CSP follow frame-ancestors)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from .. import selectors as tournament_selectors
from . import selectors

WIDGETS = {"standings": "Standings", "bracket": "Bracket"}


def frame_policy(response, origins: list[str]):
    # django-csp 4 reads _csp_replace when it writes the header (after this view returns).
    response._csp_replace = {"frame-ancestors": list(origins) or ["'none'"]}
    if origins:
        response.xframe_options_exempt = True
    return response


def embed_widget(request, tournament_id, widget):
    if widget not in WIDGETS:
        raise Http404("No such widget.")
    t = tournament_selectors.tournament_get(tournament_id=tournament_id)
    if t is None:
        raise Http404("No such tournament.")
    response = render(request, "tournaments/embed.html", {"t": t, "widget": widget, "title": WIDGETS[widget]})
    return frame_policy(response, selectors.embed_origins(tournament=t))
