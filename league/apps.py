from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues, drafts and tournaments"

    def ready(self):
        from matches import stream_verifiers

        from . import streams  # noqa: F401  (registers its outbox handler)
        from .drafts import (
            invitations,  # noqa: F401  (the "draft" kind of invitation)
            receivers,  # noqa: F401  (connects to matches.signals)
        )
        from .seasons import receivers as season_receivers  # noqa: F401
        from .seasons.verification import verify_season
        from .tournaments.verification import verify_tournament

        # Every stream kind league writes has its verifier (matches never imports league).
        stream_verifiers.register("season", verify_season)
        stream_verifiers.register("tournament", verify_tournament)
