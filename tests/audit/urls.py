"""The site's URLs plus the checkpoint routes, until config/urls.py mounts them (see the report)."""

from django.urls import include, path

from config.urls import urlpatterns as site

urlpatterns = [
    path("api/", include("matches.checkpoints.urls")),
    path("", include("matches.checkpoints.page_urls")),
    *site,
]
