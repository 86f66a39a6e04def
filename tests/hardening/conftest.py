from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fresh_throttle_history():
    """Throttles count in the cache (per process here): each test starts with none spent."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
