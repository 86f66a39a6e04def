from django.urls import include, path

from matches.invitations import api as invitations

from . import views

urlpatterns = [
    path("engines/", views.EngineList.as_view(), name="api-engines"),
    path("matches/", views.MatchList.as_view(), name="api-matches"),
    path("matches/<uuid:match_id>/", views.MatchDetail.as_view(), name="api-match"),
    path("matches/<uuid:match_id>/events/", views.MatchEvents.as_view(), name="api-match-events"),
    path("matches/<uuid:match_id>/log/", views.MatchLog.as_view(), name="api-match-log"),
    path("matches/<uuid:match_id>/state/", views.MatchState.as_view(), name="api-match-state"),
    path("matches/<uuid:match_id>/legal/", views.MatchLegal.as_view(), name="api-match-legal"),
    path("matches/<uuid:match_id>/actions/", views.MatchActions.as_view(), name="api-match-actions"),
    path("matches/<uuid:match_id>/timeout/", views.MatchTimeout.as_view(), name="api-match-timeout"),
    path("matches/<uuid:match_id>/resign/", views.MatchResign.as_view(), name="api-match-resign"),
    path("invitations/", invitations.InvitationList.as_view(), name="api-invitations"),
    path("invitations/<uuid:invitation_id>/", invitations.InvitationDetail.as_view(), name="api-invitation"),
    path(
        "invitations/<uuid:invitation_id>/<str:verb>/",
        invitations.InvitationAnswer.as_view(),
        name="api-invitation-answer",
    ),
    path("", include("matches.analysis.urls")),  # odds, luck, fairness, what-if (issue 19)
]
