from django.urls import path

from . import views

urlpatterns = [
    path("drafts/", views.DraftList.as_view(), name="api-drafts"),
    path("drafts/<uuid:draft_id>/", views.DraftDetail.as_view(), name="api-draft"),
    path("drafts/<uuid:draft_id>/clock/", views.DraftClock.as_view(), name="api-draft-clock"),
    path("drafts/<uuid:draft_id>/<str:verb>/", views.DraftAction.as_view(), name="api-draft-action"),
]
