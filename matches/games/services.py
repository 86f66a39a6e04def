"""Writes of saved setups, and playing one into a match (its opening answers, sent as the seat's
own commands through matches.services.match_act, so every check a move passes applies)."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.db import transaction

from matches import services as match_services
from matches.eventstore import EventStoreError
from matches.models import Match, SavedSetup, Stream

from .checks import MAX_SETUP_CHARS, SetupShapeError, check_setup, first_refusal

#: A player keeps at most this many setups per game.
MAX_SETUPS_PER_GAME = 50


class SetupError(Exception):
    def __init__(self, message: str, code: str, status: int = 400):
        super().__init__(message)
        self.message, self.code, self.status = message, code, status


def setup_save(*, user, game: str, name: str, data: dict) -> tuple[SavedSetup, bool]:
    """Save (or replace, under the same name) a setup the game's engine accepts. Returns the row and
    whether it is new. Nothing is written when the engine refuses any part."""
    if not user or not user.is_authenticated:
        raise SetupError("Sign in to save a setup to your account.", "not_authenticated", 403)
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise SetupError("A setup needs a name of 1 to 80 characters.", "bad_name")
    if len(json.dumps(data, separators=(",", ":"))) > MAX_SETUP_CHARS:
        raise SetupError(f"A setup is at most {MAX_SETUP_CHARS} characters of JSON.", "setup_too_large")
    try:
        report = check_setup(game, data)
    except SetupShapeError as exc:
        raise SetupError(exc.message, exc.code) from None
    refusal = first_refusal(report)
    if refusal:
        raise SetupError(refusal["detail"], refusal["code"])
    # Keep the configuration as the engine completed it (pack and budget), so a match can take it.
    clean = {**data, "config": report["config"]}
    with transaction.atomic():
        # The player's row is the lock: a row lock on a setup not yet saved locks nothing, so two
        # saves of one new name at once both inserted (the second hit the unique name), and two
        # new names at once could both pass the count below.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        existing = SavedSetup.objects.filter(user=user, game=game, name=name).first()
        if existing:
            existing.data = clean
            existing.save(update_fields=["data", "updated_at"])
            return existing, False
        if SavedSetup.objects.filter(user=user, game=game).count() >= MAX_SETUPS_PER_GAME:
            raise SetupError(
                f"You may keep {MAX_SETUPS_PER_GAME} setups per game; delete one first.", "too_many_setups"
            )
        return SavedSetup.objects.create(user=user, game=game, name=name, data=clean), True


def setup_delete(*, user, setup_id: int) -> None:
    deleted, _ = SavedSetup.objects.filter(user=user, pk=setup_id).delete() if user.is_authenticated else (0, None)
    if not deleted:
        raise SetupError("You have no saved setup with this id.", "not_found", 404)


def setup_play(*, match: Match, user, seat: int, setup: SavedSetup) -> int:
    """Send the setup's opening answers for ``seat`` while the match asks that seat for them, in
    order; stop at the first one not asked now (the page offers it again later). Returns how many
    were played."""
    if setup.user_id != user.pk or setup.game != match.game:
        raise SetupError("That setup is not yours or not for this game.", "bad_setup", 403)
    from engines import registry

    engine = registry.get(match.game, match.engine_version)
    played = 0
    for action in setup.data.get("actions", []):
        match.refresh_from_db()
        if match.status != Match.Status.LIVE or seat not in engine.to_move(match.state):
            break
        try:
            match_services.match_act(
                match_id=match.id,
                user=user,
                seat=seat,
                action=action,
                expected_seq=Stream.objects.get(pk=match.stream_id).head_seq,
            )
        except (match_services.MatchError, EventStoreError):
            break
        played += 1
    return played
