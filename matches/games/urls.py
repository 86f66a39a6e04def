from django.urls import path

from . import api, howto, views

urlpatterns = [
    path("games/<str:name>/how-to-play/", howto.how_to_play, name="how-to-play"),
    path("games/wizarding-duels/groups/", views.wizarding_duels_builder, name="wizarding-duels-builder"),
    path(
        "api/games/wizarding-duels/groups/check/",
        api.WizardingDuelsGroupCheck.as_view(),
        name="api-wizarding-duels-check",
    ),
    path("api/setups/", api.SetupList.as_view(), name="api-setups"),
    path("api/setups/<int:setup_id>/", api.SetupDetail.as_view(), name="api-setup"),
]
