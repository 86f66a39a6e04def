"""The README's first command runs the platform on its embedded default: SQLite, Celery eager, the
in-memory channel layer. The suite itself runs on PostgreSQL, so this runs what `scripts/start`
runs (`migrate`, then `demo`) in a subprocess on a scratch SQLite file and checks what a newcomer
would look at: the season's played fixtures, the ratings, and nothing left failed in the outbox.
(Session 8 found every verdict's follow-ups failing on SQLite: the ratings read was PostgreSQL's
SQL only, so the demo showed no results and no ratings.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

REPORT = """
import json
from league.ratings.models import Rating, RatingPoint
from league.ratings.projection import rated_games, ratings_rebuild
from league.seasons.models import Fixture
from matches.models import Match, OutboxMessage

def ratings():
    return sorted(Rating.objects.values_list("game", "competitor", "label", "rating", "deviation", "matches"))

def points():
    return sorted(RatingPoint.objects.values_list("game", "competitor", "match_id", "sequence", "rating", "deviation"))

applied, applied_points = ratings(), points()
for game in rated_games():
    ratings_rebuild(game=game)
print(json.dumps({
    "played": Fixture.objects.filter(status=Fixture.Status.PLAYED).count(),
    "verified": Match.objects.filter(verdict=Match.Verdict.VERIFIED).count(),
    "ratings": len(applied),
    "points": len(applied_points),
    "rebuild_equal": ratings() == applied and points() == applied_points,
    "clubs_rated": Rating.objects.filter(competitor__startswith="club:").count(),
    "outbox_failed": list(OutboxMessage.objects.exclude(last_error="").values_list("topic", "last_error")),
    "outbox_pending": OutboxMessage.objects.filter(delivered_at=None).count(),
}))
"""


def _manage(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        SECRET_KEY="a-test-secret-only-for-this-scratch-database",
        CHECKPOINT_KEY_FILE=str(tmp_path / "checkpoint.key"),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_the_demo_on_sqlite_plays_its_fixtures_rates_them_and_leaves_nothing_failed(tmp_path):
    import base64

    (tmp_path / "checkpoint.key").write_text(base64.b64encode(os.urandom(32)).decode())
    _manage(tmp_path, "migrate", "--noinput", "-v0")
    demo = _manage(tmp_path, "demo")
    assert "Demo loaded" in demo.stdout
    assert "failed" not in demo.stderr, demo.stderr[-3000:]

    report = json.loads(_manage(tmp_path, "shell", "-c", REPORT).stdout.strip().splitlines()[-1])
    # What the PostgreSQL test of the demo checks: the bots' nine fixtures of round one are played.
    assert report["played"] == 9
    assert report["verified"] >= 4
    # Every verified fixture rates its two clubs; the people's verified matches rate them.
    assert report["clubs_rated"] >= 2 and report["ratings"] > report["clubs_rated"]
    assert report["points"] >= report["ratings"]
    # The SQLite rebuild (a DELETE and bulk_create, no partitions) leaves what the verdicts left.
    assert report["rebuild_equal"]
    assert report["outbox_failed"] == [] and report["outbox_pending"] == 0
