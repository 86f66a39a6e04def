from django.urls import path

from .consumers import StreamConsumer

websocket_urlpatterns = [
    path("ws/streams/<str:stream_id>/", StreamConsumer.as_asgi()),
]
