from django.urls import path

from . import views

urlpatterns = [
    path("drafts/", views.draft_list, name="draft-list"),
    path("drafts/<uuid:draft_id>/", views.draft_room, name="draft-room"),
]
