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
    """The bundle of a stream: a match or draft only once it has finished (its secret revealed,
    so every salt may be shown); a season or tournament at its current head."""
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
    inclusion = checkpoint = public_key = None
    try:
        found = selectors.inclusion(stream_id=stream.id)
    except selectors.ProofUnavailable:
        found = None
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
