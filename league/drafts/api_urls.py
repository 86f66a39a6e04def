from django.urls import path

from . import api

urlpatterns = [
    path("drafts/", api.DraftList.as_view(), name="api-drafts"),
    path("drafts/<uuid:draft_id>/", api.DraftDetail.as_view(), name="api-draft"),
    path("drafts/<uuid:draft_id>/clock/", api.DraftClock.as_view(), name="api-draft-clock"),
    path("drafts/<uuid:draft_id>/<str:verb>/", api.DraftAction.as_view(), name="api-draft-action"),
]
