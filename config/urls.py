from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from matches.api.views import with_expensive_throttle


class SchemaView(SpectacularAPIView):
    # Generated afresh on every request (about 0.13 s of CPU): on the "expensive" rate, not the
    # general one, like the other reads that cost far more than a row.
    get_throttles = with_expensive_throttle


urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script from its own URL: the CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("matches.api.urls")),
    path("api/", include("league.seasons.api_urls")),
    path("api/", include("league.drafts.api_urls")),
    path("api/", include("league.tournaments.api_urls")),
    path("api/", include("matches.checkpoints.urls")),
    path("", include("league.seasons.urls")),
    path("", include("league.drafts.urls")),
    path("", include("league.tournaments.urls")),
    path("", include("league.players.urls")),
    path("", include("matches.checkpoints.page_urls")),
    path("", include("matches.analysis.page_urls")),
    path("", include("matches.urls")),
    path("", include("matches.games.urls")),
]


def _api_or_page(status: int, page_view):
    """Under /api/ an error is {"code", "detail"} JSON; pages keep Django's own error pages."""

    def handler(request, exception=None):
        import sys

        from django.http import JsonResponse

        from config.middleware import STATUS_CODES, database_down, is_api

        current = sys.exc_info()[1]
        if status == 500 and current is not None:
            from django.db import InterfaceError, OperationalError

            # Raised outside any view (a session or user looked up in middleware): 503 all the same.
            if isinstance(current, (OperationalError, InterfaceError)):
                return database_down(request)
        if not is_api(request):
            return page_view(request, exception) if exception is not None else page_view(request)
        code, detail = STATUS_CODES[status]
        return JsonResponse({"code": code, "detail": detail}, status=status)

    return handler


def _defaults():
    from django.views import defaults

    return defaults


handler400 = _api_or_page(400, lambda r, e=None: _defaults().bad_request(r, e))
handler403 = _api_or_page(403, lambda r, e=None: _defaults().permission_denied(r, e))
handler404 = _api_or_page(404, lambda r, e=None: _defaults().page_not_found(r, e))
handler500 = _api_or_page(500, lambda r, e=None: _defaults().server_error(r))
