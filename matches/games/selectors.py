"""Reads of saved setups (never imports services)."""

from __future__ import annotations

from matches.models import SavedSetup


def setup_list(*, user, game: str | None = None) -> list[SavedSetup]:
    if not user or not user.is_authenticated:
        return []
    qs = SavedSetup.objects.filter(user=user)
    if game:
        qs = qs.filter(game=game)
    return list(qs.order_by("game", "name"))


def setup_get(*, user, setup_id: int) -> SavedSetup | None:
    if not user or not user.is_authenticated:
        return None
    return SavedSetup.objects.filter(user=user, pk=setup_id).first()


def setup_summary(setup: SavedSetup) -> dict:
    return {
        "id": setup.pk,
        "game": setup.game,
        "name": setup.name,
        "data": setup.data,
        "updated_at": setup.updated_at.isoformat(),
    }
