from django.urls import path

from .api import views
from .reach import api as reach

urlpatterns = [
    path("tournaments/", views.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<uuid:tournament_id>/", views.TournamentDetail.as_view(), name="api-tournament"),
    path(
        "tournaments/<uuid:tournament_id>/standings/",
        views.TournamentStandings.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<uuid:tournament_id>/standings.csv",
        views.TournamentStandingsCsv.as_view(),
        name="api-tournament-standings-csv",
    ),
    path("tournaments/<uuid:tournament_id>/trf.txt", views.TournamentTrf.as_view(), name="api-tournament-trf"),
    path("tournaments/<uuid:tournament_id>/events/", views.TournamentEvents.as_view(), name="api-tournament-events"),
    path(
        "tournaments/<uuid:tournament_id>/pairings/<str:pairing_id>/<str:verb>/",
        views.PairingCommand.as_view(),
        name="api-tournament-pairing-command",
    ),
    # Reach (reach/api.py): before the command catch-all, which would take "webhooks" for a verb.
    path("tournaments/emails/", reach.TournamentEmails.as_view(), name="api-tournament-emails"),
    path(
        "tournaments/<uuid:tournament_id>/webhooks/", reach.TournamentWebhooks.as_view(), name="api-tournament-webhooks"
    ),
    path(
        "tournaments/<uuid:tournament_id>/webhooks/<int:webhook_id>/",
        reach.TournamentWebhook.as_view(),
        name="api-tournament-webhook",
    ),
    path("tournaments/<uuid:tournament_id>/embed/", reach.TournamentEmbed.as_view(), name="api-tournament-embed"),
    path(
        "tournaments/<uuid:tournament_id>/<str:verb>/", views.TournamentCommand.as_view(), name="api-tournament-command"
    ),
]
