"""Pages: the fairness report (the platform's, or one player's with their luck)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import render

from ..models import Match
from ..throttles import expensive_page
from . import selectors, services

LUCK_FILL_PER_PAGE = 10


def _mode(request) -> str:
    mode = request.GET.get("mode") or Match.Mode.SERVER
    return mode if mode in Match.Mode.values else Match.Mode.SERVER


def _sections(report: dict) -> list[tuple[str, list[dict]]]:
    return [
        ("Dice", report["dice"]),
        ("Draw positions", [report["draw_tenths"]] if report["draw_tenths"] else []),
        ("Draws by pool size", report["pools"]),
    ]


@expensive_page
def fairness_page(request):
    mode = _mode(request)
    report = selectors.fairness_report(mode=mode)
    return render(
        request,
        "analysis/fairness.html",
        {"report": report, "sections": _sections(report), "player": None, "luck": None, "modes": Match.Mode.choices},
    )


@expensive_page
def player_fairness_page(request, username):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise Http404("No such player.")
    services.analyses_fill(matches=selectors.player_matches(user=user), limit=LUCK_FILL_PER_PAGE)
    report = selectors.fairness_report(user=user, mode=_mode(request))
    return render(
        request,
        "analysis/fairness.html",
        {
            "report": report,
            "sections": _sections(report),
            "player": user,
            "luck": selectors.player_luck(user=user),
            "modes": Match.Mode.choices,
        },
    )
