"""The analysis pages (included at the site's root by config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("fairness/", views.fairness_page, name="fairness"),
    path("fairness/<str:username>/", views.player_fairness_page, name="player-fairness"),
]
