from __future__ import annotations

import pytest

from .workers import workers  # noqa: F401  (the fixture of the tests that start real workers)


@pytest.fixture(autouse=True)
def fresh_throttle_history():
    """Throttles count in the cache (per process here): each test starts with none spent."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def duel(alice, bob):
    """A Dueling Wizards match and its two players' API clients (server errors answered, not raised)."""
    from rest_framework.test import APIClient

    from tests.matches.helpers import new_duel

    match = new_duel(alice, bob)
    clients = []
    for user in (alice, bob):
        client = APIClient(raise_request_exception=False)
        client.force_authenticate(user)
        clients.append(client)
    return match, clients
