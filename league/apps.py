from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues, drafts and tournaments"

    def ready(self):
        from .drafts import receivers  # noqa: F401  (connects to matches.signals)
        from .seasons import receivers as season_receivers  # noqa: F401
