"""Before verdicts took their time from their read (the database's clock), ``verified_at`` was the
time of the write by the verifying host's own clock. A row so written by a host running ahead holds
a time later than any read the database will begin for as long as that skew lasts (for good, from a
host whose clock was years out): a verdict may replace only one based on an earlier read, so no
later verification of that match, by the task, the re-verification beat or ``verify --all``, would
ever land, and a match tampered with after it would keep showing its old "verified". A stored time
ahead of the database's clock is no read time: the next verdict replaces it."""

from __future__ import annotations

import base64
import datetime as dt
import json
import os

import pytest

from matches.autoplay import autoplay_match
from matches.models import Match
from matches.verification import match_verify, matches_verify
from tests.league.test_demo_on_sqlite import _manage

AHEAD = dt.timedelta(days=3650)


@pytest.mark.django_db
@pytest.mark.parametrize("run", ["match_verify", "matches_verify"])
def test_a_verdict_stamped_ahead_of_the_database_by_the_old_code_is_replaced_by_the_next_one(run):
    match = autoplay_match(game="dueling-wizards", seats=2)
    assert match_verify(match_id=match.pk).verified
    # As the old code wrote it from a host whose clock ran ten years ahead.
    stamped = Match.objects.get(pk=match.pk).verified_at + AHEAD
    Match.objects.filter(pk=match.pk).update(verified_at=stamped)
    honest = dict(match.result)
    Match.objects.filter(pk=match.pk).update(result={**honest, "placements": list(reversed(honest["placements"]))})
    found = match_verify(match_id=match.pk) if run == "match_verify" else matches_verify(match_ids=[match.pk])
    row = Match.objects.get(pk=match.pk)
    assert row.verdict == Match.Verdict.DISPUTED, (found, row.verified_at)
    assert row.verified_at < stamped and row.disputed_at == row.verified_at
    # And the verdicts after it are ordered by their reads again.
    Match.objects.filter(pk=match.pk).update(result=honest)
    assert match_verify(match_id=match.pk).verified
    again = Match.objects.get(pk=match.pk)
    assert again.verdict == Match.Verdict.VERIFIED and again.verified_at > row.verified_at


ON_SQLITE = """
import datetime as dt, json
from matches import verification
from matches.autoplay import autoplay_match
from matches.models import Match

match = autoplay_match(game="dueling-wizards", seats=2)
honest = dict(match.result)
verification.match_verify(match_id=match.pk)
stamped = Match.objects.get(pk=match.pk).verified_at + dt.timedelta(days=3650)
Match.objects.filter(pk=match.pk).update(verified_at=stamped)
Match.objects.filter(pk=match.pk).update(result={**honest, "placements": list(reversed(honest["placements"]))})
verification.match_verify(match_id=match.pk)
row = Match.objects.get(pk=match.pk)
print(json.dumps({"verdict": row.verdict, "replaced": row.verified_at < stamped}))
"""


def test_a_verdict_stamped_ahead_by_the_old_code_is_replaced_on_sqlite(tmp_path):
    (tmp_path / "checkpoint.key").write_text(base64.b64encode(os.urandom(32)).decode())
    _manage(tmp_path, "migrate", "--noinput", "-v0")
    report = json.loads(_manage(tmp_path, "shell", "-c", ON_SQLITE).stdout.strip().splitlines()[-1])
    assert report == {"verdict": "disputed", "replaced": True}, report
