# Bound to the project's app rather than shared_task: a shared_task proxy resolves the
# thread's "current" app, which in a worker thread or test can be Celery's empty default.
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from config.celery import app

from .verification import match_verify, matches_verify

# A lost broker connection or a database outage (OperationalError; InterfaceError once Django
# finds its connection closed) is tried again with backoff (about 30 s in all) rather than left for
# the follow-ups sweep minutes later (BrokerError: kombu's, when a task this one sends cannot be
# queued). Verifying twice is harmless.
RETRIED = {
    "acks_late": True,
    "autoretry_for": (ConnectionError, OperationalError, InterfaceError, BrokerError),
    "retry_backoff": True,
    "max_retries": 5,
}


@app.task(name="matches.verify_match", **RETRIED)
def verify_match(match_id: str) -> str:
    """Replay and verify a finished match; safe to run any number of times."""
    return match_verify(match_id=match_id).label


@app.task(name="matches.verify_matches", **RETRIED)
def verify_matches(match_ids: list[str]) -> int:
    """Verify a batch of finished matches and record their verdicts together (``matches_verify``:
    all or none of them, the follow-ups sent as one batch); safe to run any number of times.
    Returns how many were verified in the batch (0 when it was split, below).

    Only the matches still unverified are verified: the beat requeues whatever is still pending
    every minute, so a backlog longer than that is queued again before it drains, and the
    duplicates must not replay and follow up what a batch ahead of them has done."""
    from .models import Match

    pending = {
        str(pk)
        for pk in Match.objects.filter(pk__in=match_ids, verdict=Match.Verdict.PENDING).values_list("pk", flat=True)
    }
    match_ids = [str(m) for m in match_ids if str(m) in pending]
    if not match_ids:
        return 0
    try:
        return len(matches_verify(match_ids=match_ids))
    except RETRIED["autoretry_for"]:
        raise  # the batch is tried again whole (autoretry)
    except Exception:
        # A stream that cannot be verified at all (an error, not a disputed verdict) rolls the
        # whole batch back, and would on every retry and every requeue: each match goes on alone
        # instead, so only that one fails (and is seen failing), and the rest get their verdicts.
        for match_id in match_ids:
            verify_match.delay(str(match_id))
        return 0


#: Matches per ``verify_matches`` task that ``verify_matches_queue`` sends: small enough that two
#: workers (or more) share a season's streams evenly, large enough that a batch's reads, its
#: commit and its follow-ups stay a few round trips for a hundred streams.
VERIFY_BATCH = 100


def verify_matches_queue(match_ids: list[str], batch: int | None = None) -> int:
    """Queue many matches' verification a batch of at most ``batch`` per task, in the order
    given, so that every worker takes a share (issue 17, P6: a season's 1,104 streams on two
    cores); returns how many tasks were queued. Each batch's follow-ups (results, ratings) follow its own commit, in the
    order the batches commit: the fixtures, standings and ratings they leave are the same in any
    order (the ratings fold results in their commit order, rewinding for an older one)."""
    batch = batch or VERIFY_BATCH
    ids = [str(m) for m in match_ids]
    tasks = -(-len(ids) // batch)
    # Batches of even size (a season's 1,104 streams: twelve of 92, not eleven of 100 and one of
    # 4): two workers then finish together instead of one idling while the other does one more.
    size = -(-len(ids) // tasks) if tasks else batch
    starts = range(0, len(ids), size)
    for start in starts:
        verify_matches.delay(ids[start : start + size])
    return len(starts)


@app.task(name="matches.outbox_sweep", acks_late=True)
def outbox_sweep() -> int:
    """Deliver what a commit left pending (Redis or the broker down at that moment); on a beat."""
    from .outbox import outbox_sweep as sweep

    return sweep()


#: A finished match still unverified this long after it ended has lost its task (a broker that was
#: down when it ended, a message dropped); the requeue sends it again. Verification is idempotent.
REQUEUE_AFTER_SECONDS = 120


@app.task(name="matches.requeue_unverified", acks_late=True)
def requeue_unverified() -> int:
    from datetime import timedelta

    from django.utils import timezone

    from .models import Match

    cutoff = timezone.now() - timedelta(seconds=REQUEUE_AFTER_SECONDS)
    stale = list(
        Match.objects.filter(
            status=Match.Status.FINISHED, verdict=Match.Verdict.PENDING, finished_at__lte=cutoff
        ).values_list("pk", flat=True)
    )
    # In batches: after an outage of the workers or the broker this is a season's worth of
    # streams, which the workers share a batch at a time (issue 17, P6).
    verify_matches_queue([str(m) for m in stale])
    return len(stale)


@app.task(name="matches.claim_timeouts", acks_late=True)
def claim_timeouts() -> int:
    """End the live timed matches whose running clock is out, so an abandoned match ends too."""
    from .services import matches_claim_timeouts

    return matches_claim_timeouts()


@app.task(name="matches.bots_move", **RETRIED)
def bots_move(match_id: str, head_seq: int) -> int:
    """The bots' next moves in a match a command left them to play on at ``head_seq``
    (``services.match_bots_move``); returns how many events it wrote. A repeated or stale delivery
    writes nothing, so running it twice is harmless."""
    from .services import match_bots_move

    return len(match_bots_move(match_id=match_id, head_seq=head_seq))


@app.task(name="matches.bots_move_stalled", acks_late=True)
def bots_move_stalled() -> int:
    """Queue again the bots' moves of every live match whose queued ones were lost; on a beat."""
    from .services import matches_bots_move_stalled

    return matches_bots_move_stalled()
