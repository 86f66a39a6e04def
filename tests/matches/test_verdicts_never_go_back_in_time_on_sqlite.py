"""The stale verdict of test_verdicts_never_go_back_in_time.py on the embedded default, SQLite,
whose verdicts are written by one conditional UPDATE each (``_verdicts_write_portable``) and take
their time from the process's clock. The suite runs on PostgreSQL, so this runs in a subprocess
on a scratch SQLite file, as test_demo_on_sqlite.py runs the demo (its ``_manage``)."""

from __future__ import annotations

import base64
import json
import os

from tests.league.test_demo_on_sqlite import _manage

INTERLEAVE = """
import json
from matches import verification
from matches.autoplay import autoplay_match
from matches.models import Match

match = autoplay_match(game="dueling-wizards", seats=2)
honest = dict(match.result)
verification.match_verify(match_id=match.pk)
stale = verification.matches_check(match_ids=[match.pk])  # run A reads: all is well
Match.objects.filter(pk=match.pk).update(result={**honest, "placements": list(reversed(honest["placements"]))})
disputed = verification.match_verify(match_id=match.pk)  # run B reads after the tampering, and writes
real_check = verification.matches_check
verification.matches_check = lambda *, match_ids: stale
written_late = verification.match_verify(match_id=match.pk)  # run A's write comes last
verification.matches_check = real_check
after_stale = Match.objects.get(pk=match.pk)
Match.objects.filter(pk=match.pk).update(result=honest)
put_right = verification.match_verify(match_id=match.pk)
after = Match.objects.get(pk=match.pk)
print(json.dumps({
    "found": [disputed.verified, written_late.verified, put_right.verified],
    "after_stale": after_stale.verdict,
    "disputed_at_kept": after.disputed_at is not None and after.disputed_at == after_stale.disputed_at,
    "after": after.verdict,
}))
"""


def test_a_stale_verdict_does_not_overwrite_a_later_dispute_on_sqlite_and_the_dispute_stays_final(tmp_path):
    (tmp_path / "checkpoint.key").write_text(base64.b64encode(os.urandom(32)).decode())
    _manage(tmp_path, "migrate", "--noinput", "-v0")
    report = json.loads(_manage(tmp_path, "shell", "-c", INTERLEAVE).stdout.strip().splitlines()[-1])
    assert report == {
        "found": [False, True, True],
        "after_stale": "disputed",
        "disputed_at_kept": True,
        "after": "verified",
    }, report
