from django.urls import path

from . import print_views, views
from .reach import embed, pages

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/emails/", pages.email_preferences, name="tournament-emails"),
    path("tournaments/<uuid:tournament_id>/", views.tournament_page, name="tournament-page"),
    path("tournaments/<uuid:tournament_id>/confirm-entry/", pages.entry_confirm, name="tournament-entry-confirm"),
    path(
        "tournaments/<uuid:tournament_id>/players/<str:username>/",
        views.tournament_player_page,
        name="tournament-player-page",
    ),
    # The organiser's printed sheets (print_views.py, static/css/print.css).
    path(
        "tournaments/<uuid:tournament_id>/print/pairings/", print_views.print_pairings, name="tournament-print-pairings"
    ),
    path("tournaments/<uuid:tournament_id>/print/slips/", print_views.print_slips, name="tournament-print-slips"),
    # Widgets other sites may frame, if the organiser allowed them (reach/embed.py).
    path("tournaments/<uuid:tournament_id>/embed/<str:widget>/", embed.embed_widget, name="tournament-embed"),
    path(
        "tournaments/<uuid:tournament_id>/print/standings/",
        print_views.print_standings,
        name="tournament-print-standings",
    ),
]
