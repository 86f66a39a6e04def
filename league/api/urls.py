from django.urls import path

from . import season_views

urlpatterns = [
    path("leagues/", season_views.LeagueList.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", season_views.LeagueDetail.as_view(), name="api-league"),
    path("leagues/<slug:slug>/seasons/", season_views.SeasonList.as_view(), name="api-seasons"),
    path("leagues/<slug:slug>/seasons/<int:number>/", season_views.SeasonDetail.as_view(), name="api-season"),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/fixtures/",
        season_views.SeasonFixtures.as_view(),
        name="api-season-fixtures",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/fixtures/<str:key>/",
        season_views.FixtureAction.as_view(),
        name="api-fixture-action",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/standings/",
        season_views.SeasonStandings.as_view(),
        name="api-season-standings",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:number>/close/", season_views.SeasonClose.as_view(), name="api-season-close"
    ),
    path("clubs/<slug:slug>/", season_views.ClubDetail.as_view(), name="api-club"),
    path("clubs/<slug:slug>/coaches/", season_views.ClubCoaches.as_view(), name="api-club-coaches"),
    path("leagues/<slug:slug>/clubs/", season_views.LeagueClubs.as_view(), name="api-league-clubs"),
    path("ratings/<str:game>/", season_views.Leaderboard.as_view(), name="api-leaderboard"),
]
