from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/", views.player_page, name="player-page"),
]
