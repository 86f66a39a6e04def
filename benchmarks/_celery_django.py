"""Set up Django for a benchmark that queues Celery tasks on a real broker (bench_verify_workers.py,
bench_verify_one.py): the project's root on ``sys.path``, the broker on ``REDIS_URL`` and tasks
not run eagerly, then ``django.setup()``. Imported first, before anything of the project's."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["CELERY_BROKER_URL"] = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/6")
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"

django.setup()
