import gc
import os

from celery import Celery, signals
from django.db import close_old_connections

from engines import registry

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("wizard_duels")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# What runs on a schedule (celery -A config beat). Each task is idempotent, so a beat that fires
# twice, or two beats, do no harm.
app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "outbox-sweep": {"task": "matches.outbox_sweep", "schedule": 10.0},
    "requeue-unverified": {"task": "matches.requeue_unverified", "schedule": 60.0},
    # A verdict's fixture result and ratings whose queued tasks a broker lost.
    "requeue-followups": {"task": "league.requeue_followups", "schedule": 60.0},
    # The same for a tournament pairing's platform match (its result, or its retraction).
    "requeue-tournament-followups": {"task": "tournaments.requeue_followups", "schedule": 60.0},
    # A finished draft whose hand-off (its match.finished message, or the queued task) was lost.
    "hand-off-lost-drafts": {"task": "league.hand_off_lost_drafts", "schedule": 60.0},
    "claim-timeouts": {"task": "matches.claim_timeouts", "schedule": 15.0},
    # A match whose bots play on in later commands and whose next one a broker or the outbox lost.
    "bots-move-stalled": {"task": "matches.bots_move_stalled", "schedule": 60.0},
    # Organisers' webhooks whose backoff has passed (a worker lost the scheduled retry, or eager mode).
    "webhooks-retry": {"task": "tournaments.webhooks_retry_due", "schedule": 30.0},
}


@signals.worker_init.connect
def freeze_start_up(**_) -> None:
    """What a worker loaded at start-up (Django, the task modules and all they import) lives as
    long as the process: frozen, no garbage collection walks it again (its garbage is collected
    first, not kept), as daphne's start-up is (config/asgi.py). ``worker_init`` is sent once the
    task modules are imported and before the pool starts, so prefork's children inherit it.
    Without it, a full collection writes the header of every start-up object, and each child ends
    up with its own copy of every page that holds one. ``benchmarks/bench_worker_gc.py`` (issue 17),
    idle: a child's full collection 110 ms -> 2.8 ms, its private dirty memory 57 -> 6 MB.
    The engines and their data are loaded first (``registry.preload``): left to each child's first
    task, every child imported them and kept its own copy."""
    registry.preload()
    gc.collect()
    gc.freeze()


@signals.task_prerun.connect
@signals.task_postrun.connect
def hand_back_connections(sender=None, **_) -> None:
    """A worker's task starts and ends as a request does: its database connection goes back to the
    pool (CONN_MAX_AGE is 0 with a pool), and the task's first query takes a checked one, so a
    connection PostgreSQL ended between tasks is never handed to one. Celery's fix-up would close
    the whole pool instead (``CELERY_DB_REUSE_MAX`` in config/settings.py). An eager task runs
    inside its caller's request and transaction, whose connection it must leave alone."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old_connections()
