from django.urls import path

from . import print_views, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<uuid:tournament_id>/", views.tournament_page, name="tournament-page"),
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
    path(
        "tournaments/<uuid:tournament_id>/print/standings/",
        print_views.print_standings,
        name="tournament-print-standings",
    ),
]
