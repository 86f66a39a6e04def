"""Mounted at the site root (config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [path("checkpoints/", views.checkpoint_list, name="checkpoint-list")]
