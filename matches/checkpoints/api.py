"""/api/checkpoints/: signed checkpoints, the public key, inclusion and consistency proofs."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from ..api.views import int_parameter, with_expensive_throttle
from . import keys, selectors
from .serializers import (
    BundleSerializer,
    CheckpointListSerializer,
    ConsistencySerializer,
    InclusionSerializer,
    KeySerializer,
    SignedCheckpointSerializer,
)


class ProofRefused(APIException):
    status_code = 404
    default_code = "no_proof"


def _refused(exc: selectors.ProofUnavailable) -> APIException:
    if exc.code == "bad_sizes":
        return ValidationError({"first": [exc.message]}, code=exc.code)
    return ProofRefused(exc.message, code=exc.code)


#: Sizes and seqs here are whole numbers of at most 15 digits (``_int``).
MAX_SIZE = 10**15 - 1


def _size(name: str, description: str = "", *, required: bool = False) -> OpenApiParameter:
    return int_parameter(name, description, maximum=MAX_SIZE, required=required)


def _int(request, name: str, *, required: bool = False) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        if required:
            raise ValidationError({name: ["This parameter is required."]})
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 15:
        raise ValidationError({name: [f"'{raw[:20]}' is not a whole number from 0 to 10^15."]})
    return int(raw)


class SigningKeyMissing(APIException):
    status_code = 503
    default_code = "signing_key_missing"
    default_detail = "This server has no checkpoint signing key configured (CHECKPOINT_SIGNING_KEY)."


def _key() -> dict:
    try:
        return {"algorithm": "Ed25519", "public_key": keys.public_key(), "key_id": keys.key_id()}
    except ImproperlyConfigured:
        # A deployment without its key answers that plainly, never with a 500.
        raise SigningKeyMissing() from None


class Public(APIView):
    permission_classes = [permissions.AllowAny]


class CheckpointList(Public):
    @extend_schema(
        summary="Recent signed checkpoints (newest first) and the key that signs them",
        operation_id="checkpoints_list",
        responses=CheckpointListSerializer,
        parameters=[_size("limit", "At most this many (default 50, at most 500)"), _size("offset", "Skip this many")],
    )
    def get(self, request):
        limit = min(_int(request, "limit") or 50, 500)
        offset = _int(request, "offset") or 0
        rows = selectors.checkpoints_recent(limit=limit, offset=offset)
        return Response({**_key(), "results": [c.as_dict() for c in rows]})


class CheckpointLatest(Public):
    @extend_schema(
        summary="The latest signed checkpoint", operation_id="checkpoints_latest", responses=SignedCheckpointSerializer
    )
    def get(self, request):
        latest = selectors.checkpoint_latest()
        if latest is None:
            raise NotFound("No checkpoint has been signed yet.")
        return Response({**latest.as_dict(), "public_key": latest.public_key})


class CheckpointDetail(Public):
    @extend_schema(
        summary="The checkpoint of one tree size", operation_id="checkpoints_get", responses=SignedCheckpointSerializer
    )
    def get(self, request, tree_size: int):
        found = selectors.checkpoint_get(tree_size=tree_size) if tree_size < 10**15 else None
        if found is None:
            raise NotFound("No checkpoint of that size has been signed.")
        return Response({**found.as_dict(), "public_key": found.public_key})


class PublicKey(Public):
    @extend_schema(
        summary="The platform's checkpoint-signing public key", operation_id="checkpoints_key", responses=KeySerializer
    )
    def get(self, request):
        return Response(_key())


class InclusionProof(Public):
    @extend_schema(
        summary="Proof that a stream's head is in a checkpoint's tree (RFC 9162 audit path)",
        operation_id="checkpoints_inclusion",
        responses=InclusionSerializer,
        parameters=[
            OpenApiParameter(
                "stream", {"type": "string", "minLength": 1}, required=True, description="e.g. match:<id>"
            ),
            _size("seq", "default: the stream's head"),
            _size("tree_size", "default: the latest checkpoint"),
        ],
    )
    def get(self, request):
        stream = request.query_params.get("stream") or ""
        if not stream:
            raise ValidationError({"stream": ["Name the stream, e.g. match:<id>."]})
        try:
            found = selectors.inclusion(
                stream_id=stream, seq=_int(request, "seq"), tree_size=_int(request, "tree_size")
            )
        except selectors.ProofUnavailable as exc:
            raise _refused(exc) from None
        return Response(found.as_dict())


class ConsistencyProof(Public):
    @extend_schema(
        summary="Proof that the tree of `first` leaves is a prefix of the tree of `second` (RFC 9162); "
        "the signed checkpoints of those sizes come with it where there are any",
        operation_id="checkpoints_consistency",
        responses=ConsistencySerializer,
        parameters=[_size("first", required=True), _size("second", required=True)],
    )
    def get(self, request):
        try:
            old, new, proof = selectors.consistency(
                first=_int(request, "first", required=True), second=_int(request, "second", required=True)
            )
        except selectors.ProofUnavailable as exc:
            raise _refused(exc) from None
        return Response(
            {
                "first": old.as_dict() if old else None,
                "second": new.as_dict() if new else None,
                "first_size": _int(request, "first"),
                "second_size": _int(request, "second"),
                "proof": proof,
            }
        )


class BundleDownload(Public):
    # A whole stream, every event unpaged (a season's runs to thousands): the event feed's rate.
    get_throttles = with_expensive_throttle

    @extend_schema(
        summary="A finished stream's audit bundle (check it offline with `python -m audit verify FILE`)",
        description="Anchored only by a signed checkpoint that holds the bundle's last event (a match's "
        "final head); the `Audit-Anchor` header says which, or that none holds it yet. A request never "
        "signs a checkpoint: the platform signs one every few minutes.",
        operation_id="bundles_get",
        responses=BundleSerializer,
    )
    def get(self, request, ref: str):
        from .export import NotExportable, anchor_note, bundle_for, stream_for

        try:
            stream = stream_for(ref)
            data = bundle_for(stream)
        except NotExportable as exc:
            error = ProofRefused(exc.message, code=exc.code)
            error.status_code = exc.status
            raise error from None
        except ImproperlyConfigured:
            raise SigningKeyMissing() from None
        response = Response(data)
        response["Audit-Anchor"] = anchor_note(data, stream_events=stream.head_seq)
        name = data["stream"].replace(":", "-")
        response["Content-Disposition"] = f'attachment; filename="{name}.audit.json"'
        return response
