"""Export a stream as an audit bundle (audit/bundle.py describes and verifies the format)."""

from __future__ import annotations

from audit import bundle as audit_bundle
from matches import eventstore
from matches.models import Match, Stream
from matches.stream_verifiers import match_kind

from . import selectors


class NotExportable(Exception):
    def __init__(self, message: str, code: str, status: int = 409):
        super().__init__(message)
        self.message, self.code, self.status = message, code, status


def stream_for(ref: str) -> Stream:
    """A stream by its id, or a match's (or draft's) stream by the match id."""
    stream = Stream.objects.filter(pk=ref).first()
    if stream is None:
        match = Match.objects.filter(pk=ref).first() if _uuid(ref) else None
        stream = match.stream if match is not None else None
    if stream is None:
        raise NotExportable(f"No stream or match {ref}.", "not_found", 404)
    return stream


def _uuid(text: str) -> bool:
    import uuid

    try:
        uuid.UUID(str(text))
    except ValueError:
        return False
    return True


def bundle_for(stream: Stream) -> dict:
    """The bundle of a stream, anchored only by a signed checkpoint that holds its last event's
    head (audit/bundle.py refuses a proof of any earlier head: it would vouch for nothing after it).

    A match or draft is exported once it has finished (its secret revealed, so every salt may be
    shown), whole: while no signed checkpoint holds its final head yet, the bundle carries none
    (``inclusion``, ``checkpoint`` and ``public_key`` null) rather than a mid-game one. A season or
    tournament, which goes on, is exported as the latest signed checkpoint holds it: its events up
    to the head logged there (all of them once the next checkpoint holds the current head), or
    all of them, unanchored, while none holds any. Signing is the background run's (or
    ``manage.py export``'s) to do, never a request's (services.py)."""
    match = Match.objects.filter(stream_id=stream.id).first()
    kind, secret, engine = stream.kind, None, None
    if match is not None:
        if match.status != Match.Status.FINISHED:
            raise NotExportable(
                "A match is exported once it has finished: until then its secret and salts are not public.",
                "match_live",
            )
        kind = match_kind(match)
        secret = match.seed_hex or None
        engine = {"name": match.game, "version": match.engine_version}
    events = [eventstore.event_record(e) for e in eventstore.stream_events(stream_id=stream.id)]
    if not events:
        raise NotExportable("The stream has no events.", "empty_stream")
    try:
        found = selectors.inclusion(stream_id=stream.id)
    except selectors.ProofUnavailable:
        found = None
    if found is not None and found.leaf.seq < len(events):
        if match is None:
            events = events[: found.leaf.seq]
        else:
            found = None  # a finished match is exported whole: its result is the point
    # A logged head past the stream's end stays in: the verifier then says events went missing.
    inclusion = checkpoint = public_key = None
    if found is not None and found.checkpoint is not None:
        inclusion = {k: v for k, v in found.as_dict().items() if k not in ("checkpoint", "stream")}
        checkpoint = found.checkpoint.as_dict()
        public_key = found.checkpoint.public_key
    return {
        "format": audit_bundle.FORMAT,
        "version": audit_bundle.VERSION,
        "stream": stream.id,
        "kind": kind,
        "events": events,
        "secret": secret,
        "engine": engine,
        "head": {"seq": events[-1]["seq"], "hash": events[-1]["hash"]},
        "inclusion": inclusion,
        "checkpoint": checkpoint,
        "public_key": public_key,
    }


def anchor_note(bundle: dict, *, stream_events: int) -> str:
    """What anchors the bundle, in a sentence: the API's ``Audit-Anchor`` header, the command's report."""
    from .tasks import INTERVAL_SECONDS

    last = bundle["head"]["seq"]
    signed = bundle["checkpoint"]
    if signed is None:
        return (
            f"none yet: no signed checkpoint holds event {last}, the stream's head (checkpoints are "
            f"signed every {INTERVAL_SECONDS} seconds; export it again after the next one)"
        )
    if bundle["inclusion"]["seq"] != last:
        return (
            f"none: checkpoint {signed['tree_size']} holds the stream's head at event {bundle['inclusion']['seq']}, "
            f"which this bundle does not end at (its last event is {last})"
        )
    rest = (
        f"; the stream has {stream_events} events, a later checkpoint will hold the rest"
        if stream_events > last
        else ""
    )
    return f"checkpoint {signed['tree_size']} ({signed['timestamp']}) holds event {last}, the bundle's last{rest}"
