"""A season's or tournament's pages hear of each fact appended to its stream (league/streams.py),
through the outbox after the commit, and within the match broadcasts' bound: a Redis that is down,
or that takes the connection and never answers, neither holds the request that committed nor the
sweeper, and the message is sent once Redis is back."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from league.streams import stream_group
from matches.outbox import outbox_sweep
from tests.matches import test_outbox
from tests.matches.test_outbox import IN_MEMORY, pending

pytestmark = pytest.mark.django_db

# The outbox tests' fixtures: a Redis that is down (refused, or silent past the broadcast's bound).
fresh_layers, redis_down, silent_redis = test_outbox.fresh_layers, test_outbox.redis_down, test_outbox.silent_redis

#: What may pass beyond the broadcast's bound: the request's own work, on a busy machine.
SLACK_SECONDS = 3


def tournament_created_by(client) -> dict:
    response = client.post(
        "/api/tournaments/",
        {"name": "Spring Open", "game": "dueling-wizards", "format": "swiss", "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


# Without the bound, a silent Redis holds the request for the layer's socket timeout (600 s here).
@pytest.mark.timeout(120)
def test_a_registration_while_redis_is_down_is_answered_at_once_and_its_page_hears_of_it_once_redis_is_back(
    alice,
    bob,
    client_for,
    fresh_layers,
    redis_down,
    django_capture_on_commit_callbacks,
):
    layers, error = redis_down
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends = {}
        with django_capture_on_commit_callbacks(execute=True):
            tournament = tournament_created_by(client_for(alice))
    assert not pending().exists()
    with override_settings(CHANNEL_LAYERS=layers):
        channel_layers.backends = {}
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            response = client_for(bob).post(
                f"/api/tournaments/{tournament['id']}/register/",
                {"expected_seq": tournament["head_seq"], "event_id": str(uuid.uuid4())},
                format="json",
            )
        took = time.monotonic() - started
        assert response.status_code == 201, response.content
        assert took < settings.LIVE_BROADCAST_TIMEOUT + SLACK_SECONDS, (
            f"the registration was answered after {took:.1f} s"
        )
        [waiting] = pending("league.stream_broadcast")
        assert waiting.attempts == 1 and error in waiting.last_error, waiting.last_error

        # The sweeper meets the same Redis: it gives up within the same bound and keeps the message.
        started = time.monotonic()
        assert outbox_sweep(now=timezone.now() + timedelta(minutes=10)) == 0
        took = time.monotonic() - started
        assert took < settings.LIVE_BROADCAST_TIMEOUT + SLACK_SECONDS, f"the sweep took {took:.1f} s"
        waiting.refresh_from_db()
        assert waiting.attempts == 2 and waiting.delivered_at is None

    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        channel_layers.backends = {}
        layer = channel_layers["default"]
        page = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(stream_group(f"tournament:{tournament['id']}"), page)
        assert outbox_sweep(now=timezone.now() + timedelta(hours=1)) == 1
        message = async_to_sync(layer.receive)(page)
    assert message == {"type": "stream.update", "head_seq": tournament["head_seq"] + 1}
    assert not pending().exists()
