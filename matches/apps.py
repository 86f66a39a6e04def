from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches and the event store"

    def ready(self):
        from . import followups  # noqa: F401  (registers the outbox handlers)
