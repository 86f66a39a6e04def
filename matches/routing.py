from django.urls import path

from .consumers import MatchConsumer
from .invitations.consumers import InvitationConsumer

websocket_urlpatterns = [
    path("ws/matches/<uuid:match_id>/", MatchConsumer.as_asgi()),
    path("ws/invitations/<uuid:invitation_id>/", InvitationConsumer.as_asgi()),
]
