"""The seasons API: leagues, seasons, fixtures, standings, clubs and ratings (under /api/, from config/urls.py)."""

from django.urls import path

from . import api, luck_views

urlpatterns = [
    path("leagues/", api.LeagueList.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", api.LeagueDetail.as_view(), name="api-league"),
    path("leagues/<slug:slug>/seasons/", api.SeasonList.as_view(), name="api-seasons"),
    path("leagues/<slug:slug>/seasons/<int:number>/", api.SeasonDetail.as_view(), name="api-season"),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/fixtures/",
        api.SeasonFixtures.as_view(),
        name="api-season-fixtures",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/fixtures/<str:key>/",
        api.FixtureAction.as_view(),
        name="api-fixture-action",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/standings/",
        api.SeasonStandings.as_view(),
        name="api-season-standings",
    ),
    path("leagues/<slug:slug>/seasons/<int:number>/close/", api.SeasonClose.as_view(), name="api-season-close"),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/luck/",
        luck_views.SeasonLuckView.as_view(),
        name="api-season-luck",
    ),
    path("clubs/<slug:slug>/", api.ClubDetail.as_view(), name="api-club"),
    path("clubs/<slug:slug>/coaches/", api.ClubCoaches.as_view(), name="api-club-coaches"),
    path("leagues/<slug:slug>/clubs/", api.LeagueClubs.as_view(), name="api-league-clubs"),
    path("ratings/<str:game>/", api.Leaderboard.as_view(), name="api-leaderboard"),
]
