"""The analysis API (included under /api/ by matches/api/urls.py)."""

from django.urls import path

from . import api

urlpatterns = [
    path("matches/<uuid:match_id>/analysis/", api.MatchAnalysisView.as_view(), name="api-match-analysis"),
    path("matches/<uuid:match_id>/whatif/", api.MatchWhatIfView.as_view(), name="api-match-whatif"),
    path("players/<str:username>/luck/", api.PlayerLuckView.as_view(), name="api-player-luck"),
    path("players/<str:username>/fairness/", api.PlayerFairnessView.as_view(), name="api-player-fairness"),
    path("fairness/", api.FairnessView.as_view(), name="api-fairness"),
    path("sandboxes/", api.SandboxList.as_view(), name="api-sandboxes"),
    path("sandboxes/<uuid:sandbox_id>/", api.SandboxDetail.as_view(), name="api-sandbox"),
    path("sandboxes/<uuid:sandbox_id>/actions/", api.SandboxActions.as_view(), name="api-sandbox-actions"),
    path("sandboxes/<uuid:sandbox_id>/chance/", api.SandboxChance.as_view(), name="api-sandbox-chance"),
    path("sandboxes/<uuid:sandbox_id>/bot/", api.SandboxBot.as_view(), name="api-sandbox-bot"),
]
