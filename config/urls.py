from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("matches.api.urls")),
    path("api/", include("league.api.urls")),
    path("api/", include("league.tournaments.api_urls")),
    path("", include("league.urls")),
    path("", include("league.tournaments.urls")),
    path("", include("matches.urls")),
]
