from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/", views.league_home, name="league-home"),
    path("leagues/<slug:slug>/seasons/<int:number>/", views.season_page, name="season"),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/fixtures/<str:key>/start/",
        views.fixture_start_page,
        name="fixture-start",
    ),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("ratings/<str:game>/", views.leaderboard_page, name="leaderboard"),
]
