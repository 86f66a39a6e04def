from config.celery import app
from config.env import env_int

#: How often Celery beat logs the heads that moved and signs a checkpoint.
INTERVAL_SECONDS = env_int("CHECKPOINT_INTERVAL_SECONDS", 300)


@app.task(name="checkpoints.sign", acks_late=True)
def sign_checkpoint() -> int:
    """Log moved heads and sign a checkpoint. Idempotent: a run with nothing new signs nothing,
    and a run killed midway committed nothing (leaves and checkpoint share a transaction each)."""
    from .services import checkpoint_sign

    checkpoint, _, _ = checkpoint_sign()
    return checkpoint.tree_size


#: Scheduled re-verification: every REVERIFY_INTERVAL_SECONDS, the REVERIFY_BATCH streams
#: (of every kind) checked longest ago are verified again; 0 turns it off.
REVERIFY_INTERVAL_SECONDS = env_int("REVERIFY_INTERVAL_SECONDS", 600)
REVERIFY_BATCH = env_int("REVERIFY_BATCH", 50)


@app.task(name="checkpoints.reverify", acks_late=True)
def reverify(batch: int | None = None) -> list[str]:
    """Verify again the streams checked longest ago; returns the ids found disputed.
    Idempotent: each stream's check records its verdict and nothing else (a disputed match's
    verdict sends match_verified, whose receivers retract idempotently)."""
    from matches import stream_verifiers

    due = stream_verifiers.due_for_reverification(limit=REVERIFY_BATCH if batch is None else batch)
    # The finished matches among them in one batch (one transaction of verdicts, one follow-up task).
    return [stream_id for stream_id, verdict in stream_verifiers.verify_streams(due) if not verdict.ok]


def schedule() -> None:
    """Put checkpoints and re-verification on Celery beat's schedule (called from the app's ready())."""
    entries = {"sign-checkpoint": {"task": "checkpoints.sign", "schedule": float(INTERVAL_SECONDS)}}
    if REVERIFY_INTERVAL_SECONDS > 0:
        entries["reverify-streams"] = {"task": "checkpoints.reverify", "schedule": float(REVERIFY_INTERVAL_SECONDS)}
    app.conf.beat_schedule = {**(app.conf.beat_schedule or {}), **entries}
