"""Every playable game's live page (a match between two people, seen by one of them) and its
replay page (a finished bot match), and a player's page with rating charts, for the
accessibility and overflow checks that the main pages pass too (issue 18). A game added to
the registry is checked without a line here."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def build_game_pages(off_loop) -> dict[str, tuple[str | None, str]]:
    """Create the matches and return {page name: (signed-in user or None, path)}."""
    from engines import registry
    from matches.autoplay import autoplay_match
    from matches.services import SeatSpec, match_create
    from tests.pages.rated import finished

    User = get_user_model()
    alice, bob = (User.objects.get_or_create(username=n)[0] for n in ("alice", "bob"))
    for u in (alice, bob):
        u.set_password(f"pw-{u.username}")
        u.save()

    def setup():
        pages = {}
        for engine in registry.playable():
            live = match_create(game=engine.name, seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
            pages[f"{engine.name} live"] = ("alice", f"/matches/{live.id}/")
            # The strongest bot (listed first): the replay a newcomer is shown, and a short one.
            autoplayed = autoplay_match(game=engine.name, seats=2, bot=engine.bots[0])
            pages[f"{engine.name} replay"] = (None, f"/matches/{autoplayed.id}/replay/")
        # A rated history in two games for alice's page.
        for placements in ([1, 2], [2, 1], [1, 1], [1, 2]):
            finished("wizard-dodgeball", [alice, bob], placements)
        finished("dueling-wizards", [bob, alice], [2, 1])
        pages["player"] = (None, f"/players/{alice.username}/")
        return pages

    return off_loop(setup)
