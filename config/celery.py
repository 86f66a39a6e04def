import os

from celery import Celery

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
    "claim-timeouts": {"task": "matches.claim_timeouts", "schedule": 15.0},
    # Organisers' webhooks whose backoff has passed (a worker lost the scheduled retry, or eager mode).
    "webhooks-retry": {"task": "tournaments.webhooks_retry_due", "schedule": 30.0},
}
