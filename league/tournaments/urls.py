from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/<uuid:tournament_id>/", views.tournament_page, name="tournament-page"),
    path("tournaments/<uuid:tournament_id>/players/<str:username>/", views.tournament_player_page,
         name="tournament-player-page"),
]
