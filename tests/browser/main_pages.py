"""The site's main pages with something on each, for the checks every page must pass
(accessibility, no horizontal overflow): one of each thing a newcomer meets in the demo."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model

from matches.commands import AT_HEAD


def build_main_pages(off_loop) -> dict[str, tuple[str | None, str]]:
    """Create the data and return {page name: (signed-in user or None, path)}."""
    from league.drafts.services import draft_create
    from league.seasons import services as seasons
    from league.tournaments import services as tournaments
    from matches.autoplay import autoplay_match
    from matches.services import SeatSpec, match_create

    User = get_user_model()
    alice, bob, *others = [User.objects.create_user(n, password=f"pw-{n}") for n in ("alice", "bob", "s1", "s2")]

    def setup():
        finished = autoplay_match(game="dueling-wizards", seats=2)
        live_match = match_create(
            game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice
        )
        t = tournaments.tournament_create(
            created_by=alice, name="Thursday night", game="dueling-wizards", format="swiss", options={"rounds": 2}
        )
        for p in (alice, bob, *others):
            tournaments.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        tournaments.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
        draft = draft_create(seats=[SeatSpec(bot="auto"), SeatSpec(bot="auto")], created_by=None)
        league = seasons.league_load_iwdl()
        league.created_by = alice  # alice organises the IWDL: her season page shows the organiser's links
        league.save(update_fields=["created_by"])
        clubs = list(league.clubs.order_by("slug")[:4])
        clubs[0].coaches.add(alice)
        season = seasons.season_create(league=league, created_by=None, clubs=clubs, start_date=dt.date(2027, 1, 4))
        seasons.fixture_start(fixture=season.fixtures.order_by("round", "id").first(), bots=True, expected_seq=AT_HEAD)
        return finished, live_match, t, draft, league, season, clubs[0]

    finished, live_match, t, draft, league, season, club = off_loop(setup)
    fixture_key = season.fixtures.order_by("round", "id").last().key
    return {
        "home": ("alice", "/"),
        "match-live": ("alice", f"/matches/{live_match.id}/"),
        "replay": (None, f"/matches/{finished.id}/replay/"),
        "tournament-list": (None, "/tournaments/"),
        "tournament-page": ("alice", f"/tournaments/{t.id}/"),
        "tournament-embed-standings": (None, f"/tournaments/{t.id}/embed/standings/"),
        "draft-list": ("alice", "/drafts/"),
        "draft-room": (None, f"/drafts/{draft.draft_match_id}/"),
        "league-home": (None, f"/leagues/{league.slug}/"),
        "season": ("alice", f"/leagues/{league.slug}/seasons/{season.number}/"),
        "club": (None, f"/clubs/{club.slug}/"),
        "league-organise": ("alice", f"/leagues/{league.slug}/organise/"),
        "season-new": ("alice", f"/leagues/{league.slug}/seasons/new/"),
        "fixture-rule": ("alice", f"/leagues/{league.slug}/seasons/{season.number}/fixtures/{fixture_key}/rule/"),
        "season-close": ("alice", f"/leagues/{league.slug}/seasons/{season.number}/close/"),
        "leaderboard": (None, "/ratings/wizard-dodgeball/"),
        "how-to-play": (None, "/games/wizard-dodgeball/how-to-play/"),
        "fairness": (None, "/fairness/"),
        "account": ("alice", "/accounts/"),
        "login": (None, "/accounts/login/"),
        "password-change": ("alice", "/accounts/password/"),
    }
