"""The organiser's printed sheets: pairings with table numbers, standings, and one match slip
per table (static/css/print.css lays them out for paper). Organiser only: the sheets carry
nothing secret, but they are the organiser's tools and the page links them only for them."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render

from . import selectors
from .access import is_organiser
from .forms import FORMAT_LABELS
from .sheets import round_to_print


def _sheet(request, tournament_id, *, with_round: bool):
    t = selectors.tournament_get(tournament_id=tournament_id)
    if t is None:
        raise Http404("No such tournament.")
    state = selectors.tournament_state(tournament=t)
    if not is_organiser(state, request.user):
        raise PermissionDenied("Only the tournament's organiser prints its sheets.")
    summary = selectors.tournament_summary(tournament=t, user=request.user, state=state)
    context = {
        "t": t,
        "s": summary,
        "format_label": FORMAT_LABELS.get(t.format, t.format),
        "round": None,
        "tables": [],
        "byes": [],
    }
    if with_round:
        number = round_to_print(state, request.GET.get("round"))
        rnd = next((r for r in summary["rounds"] if r["number"] == number), None)
        if rnd is not None:
            context["round"] = number
            context["rounds"] = [r["number"] for r in summary["rounds"]]
            context["tables"] = sorted((p for p in rnd["pairings"] if p["table"]), key=lambda p: p["table"])
            context["byes"] = [p for p in rnd["pairings"] if len(p["players"]) == 1]
            # A round of pods (players in seat order, places), not of two-player matches.
            context["finishes"] = any(p["reports_finish"] for p in context["tables"])
    return context


def print_pairings(request, tournament_id):
    return render(request, "tournaments/print/pairings.html", _sheet(request, tournament_id, with_round=True))


def print_slips(request, tournament_id):
    return render(request, "tournaments/print/slips.html", _sheet(request, tournament_id, with_round=True))


def print_standings(request, tournament_id):
    return render(request, "tournaments/print/standings.html", _sheet(request, tournament_id, with_round=False))
