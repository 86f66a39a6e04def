"""Mounted under /api/ (config/urls.py)."""

from django.urls import path

from . import api

urlpatterns = [
    path("checkpoints/", api.CheckpointList.as_view(), name="api-checkpoints"),
    path("checkpoints/latest/", api.CheckpointLatest.as_view(), name="api-checkpoint-latest"),
    path("checkpoints/key/", api.PublicKey.as_view(), name="api-checkpoint-key"),
    path("checkpoints/inclusion/", api.InclusionProof.as_view(), name="api-checkpoint-inclusion"),
    path("checkpoints/consistency/", api.ConsistencyProof.as_view(), name="api-checkpoint-consistency"),
    path("bundles/<str:ref>/", api.BundleDownload.as_view(), name="api-bundle"),
    path("checkpoints/<int:tree_size>/", api.CheckpointDetail.as_view(), name="api-checkpoint"),
]
