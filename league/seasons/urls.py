"""Season pages (included at the site's root by config/urls.py)."""

from django.urls import path

from . import luck_views, views

urlpatterns = [
    path("leagues/<slug:slug>/", views.league_home, name="league-home"),
    path("leagues/<slug:slug>/organise/", views.league_organise, name="league-organise"),
    path("leagues/<slug:slug>/seasons/new/", views.season_new, name="season-new"),
    path("leagues/<slug:slug>/seasons/<int:number>/", views.season_page, name="season"),
    path("leagues/<slug:slug>/seasons/<int:number>/close/", views.season_close_page, name="season-close"),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/fixtures/<str:key>/rule/",
        views.fixture_rule,
        name="fixture-rule",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/fixtures/<str:key>/start/",
        views.fixture_start_page,
        name="fixture-start",
    ),
    path("leagues/<slug:slug>/seasons/<int:number>/luck/", luck_views.season_luck_page, name="season-luck"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("ratings/<str:game>/", views.leaderboard_page, name="leaderboard"),
]
