"""Season luck: the page and its API (included at the site's root by config/urls.py)."""

from django.urls import path

from . import analysis_views

urlpatterns = [
    path("leagues/<slug:slug>/seasons/<int:number>/luck/", analysis_views.season_luck_page, name="season-luck"),
    path(
        "api/leagues/<slug:slug>/seasons/<int:number>/luck/",
        analysis_views.SeasonLuckView.as_view(),
        name="api-season-luck",
    ),
]
