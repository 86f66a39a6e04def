"""Matches the verifier found disputed before ``Match.disputed_at`` existed are disputed for good
too (migration matches 0014): otherwise one verified again later would return to the ratings,
its season and its tournament, against "a dispute is final"."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps as django_apps

from matches.models import Match
from tests.matches.helpers import stored_finished_match

pytestmark = pytest.mark.django_db

RESULT = {"placements": [1, 2], "scores": [1, 0], "winners": [0]}


def test_a_match_disputed_before_the_field_existed_is_marked_disputed_at_its_last_verdict():
    when = dt.datetime(2026, 11, 1, 12, tzinfo=dt.UTC)
    disputed = stored_finished_match("dueling-wizards", result=RESULT, verdict=Match.Verdict.DISPUTED, verified_at=when)
    unstamped = stored_finished_match("dueling-wizards", result=RESULT, verdict=Match.Verdict.DISPUTED)
    verified = stored_finished_match("dueling-wizards", result=RESULT, verdict=Match.Verdict.VERIFIED, verified_at=when)
    pending = stored_finished_match("dueling-wizards", result=RESULT)
    Match.objects.update(disputed_at=None)  # as the rows stood before the migration

    migration = importlib.import_module("matches.migrations.0014_match_disputed_at")
    migration.disputed_before(django_apps, None)

    found = dict(Match.objects.values_list("pk", "disputed_at"))
    assert found[disputed.pk] == when
    assert found[unstamped.pk] is not None  # no verdict time kept: the migration's own
    assert found[verified.pk] is None and found[pending.pk] is None


def test_a_dispute_marked_already_keeps_its_time():
    first = dt.datetime(2026, 10, 1, tzinfo=dt.UTC)
    match = stored_finished_match(
        "dueling-wizards",
        result=RESULT,
        verdict=Match.Verdict.DISPUTED,
        verified_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC),
        disputed_at=first,
    )
    migration = importlib.import_module("matches.migrations.0014_match_disputed_at")
    migration.disputed_before(django_apps, None)
    match.refresh_from_db()
    assert match.disputed_at == first
