"""Game pages that are not a match: the Wizarding Duels group builder."""

from __future__ import annotations

from django.shortcuts import render

from . import selectors


def wizarding_duels_builder(request):
    """Build a Group and a potion Stock with the engine's checks live; save them to the account.
    The page script draws everything (static/js/games/wizarding-duels-builder.js)."""
    saved = [selectors.setup_summary(s) for s in selectors.setup_list(user=request.user, game="wizarding-duels")]
    for s in saved:
        s.pop("updated_at")
    return render(
        request,
        "games/wizarding_duels_builder.html",
        {
            "builder": {
                "saved": saved,
                "signed_in": request.user.is_authenticated,
                "edit": request.GET.get("edit") or None,
            }
        },
    )
