from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches and the event store"

    def ready(self):
        from . import accounts

        accounts.connect()
        from . import (
            followups,  # noqa: F401  (registers the outbox handlers)
            live,  # noqa: F401  (a sign-out closes the session's seat sockets)
        )
        from .invitations import models as invitation_models  # noqa: F401  (Invitation, Invitee)
        from .invitations import services as invitation_services  # noqa: F401  (the "match" kind)
