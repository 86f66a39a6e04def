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


def schedule() -> None:
    """Put the checkpoint on Celery beat's schedule (called from the app's ready())."""
    app.conf.beat_schedule = {
        **(app.conf.beat_schedule or {}),
        "sign-checkpoint": {"task": "checkpoints.sign", "schedule": float(INTERVAL_SECONDS)},
    }
