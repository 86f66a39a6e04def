from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    # A Django app of its own inside league/, so tournaments keep their own models and migrations.
    name = "league.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from . import receivers  # noqa: F401  (connects to matches.signals.match_verified)
        from .reach import followups, webhooks  # noqa: F401  (outbox handlers and Celery tasks)
