"""What tests/conftest.py sets up for the suite: two pytest-xdist workers kept apart, quick password hashing."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import connection

from tests.conftest import redis_url_for_worker


def test_each_worker_gets_the_base_redis_database_plus_its_index():
    assert redis_url_for_worker("redis://127.0.0.1:6379/12", "gw0") == "redis://127.0.0.1:6379/12"
    assert redis_url_for_worker("redis://127.0.0.1:6379/12", "gw1") == "redis://127.0.0.1:6379/13"
    assert redis_url_for_worker("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/1"
    assert redis_url_for_worker("redis://:secret@redis.example:6380/0?timeout=5", "gw3") == (
        "redis://:secret@redis.example:6380/3?timeout=5"
    )


def test_the_channel_layer_and_started_processes_use_this_workers_redis_database():
    if not os.environ.get("REDIS_URL"):
        pytest.skip("no REDIS_URL: the in-memory channel layer is per process anyway")
    assert settings.REDIS_URL == os.environ["REDIS_URL"]
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] == os.environ["REDIS_URL"]


@pytest.mark.django_db
def test_each_worker_has_its_own_test_database():
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        assert connection.settings_dict["NAME"].endswith(f"_{worker}")
    assert connection.settings_dict["NAME"].startswith("test_")


@pytest.mark.django_db
def test_users_made_in_an_ordinary_test_get_a_quick_hash_and_production_hashes_still_check(make_user):
    user = make_user("hasty")
    assert user.password.startswith("md5$")
    assert user.check_password("pw-hasty")
    production = make_password("pw-hasty", hasher="pbkdf2_sha256")
    assert check_password("pw-hasty", production)
