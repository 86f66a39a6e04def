"""Which checks a bundle gets is decided by what its hashes cover (the stream id and the first
event), never by its "kind" label, which nothing signs (audit/bundle.py)."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import call_command

from audit import bundle as audit_bundle
from audit.chain import event_hash, payload_of
from matches.autoplay import autoplay_match
from matches.checkpoints import keys
from matches.checkpoints.export import bundle_for
from matches.checkpoints.services import checkpoint_sign
from matches.commands import AT_HEAD
from matches.models import Event, Match, Stream

from .helpers import alter_event, new_signing_key, rehash_stream


@pytest.fixture(autouse=True)
def signing_key(settings):
    settings.CHECKPOINT_SIGNING_KEY = new_signing_key()


@pytest.fixture
def rigged(db, tmp_path):
    """A match in which the platform dealt itself another card than the secret gives, before any
    checkpoint (so the log holds the rigged head): only the replay can catch it."""
    match = autoplay_match(game="dueling-wizards", seats=2)
    chance = Event.objects.filter(stream_id=match.stream_id, type="chance").order_by("seq")[0]
    data = dict(chance.data)
    data["outcome"] = list(reversed(data["outcome"]))
    alter_event(chance, data=data)
    Match.objects.filter(pk=match.pk).update(head_hash=rehash_stream(match.stream_id))
    out = tmp_path / "rigged.json"
    call_command("export", str(match.id), out=str(out))
    bundle = json.loads(out.read_text())
    caught = audit_bundle.verify(bundle, trusted_key=keys.public_key())
    assert (caught.ok, caught.seq) == (False, chance.seq)
    return bundle


@pytest.mark.parametrize("label", ["season", "tournament", "draft", "", None])
def test_a_match_bundle_relabelled_is_refused_instead_of_skipping_the_replay(rigged, label):
    bundle = copy.deepcopy(rigged)
    bundle["kind"] = label

    outcome = audit_bundle.verify(bundle, trusted_key=keys.public_key())

    assert not outcome.ok
    if label is None:
        assert "kind is missing or not text" in outcome.reason
    else:
        assert f"says it is a {label!r} stream, but {bundle['stream']} is a match stream" in outcome.reason


def test_a_draft_bundle_is_a_draft_by_its_recorded_engine_and_not_a_match(db):
    draft = autoplay_match(game="iwdl-draft", seats=2)
    checkpoint_sign()
    bundle = bundle_for(Stream.objects.get(pk=draft.stream_id))
    assert bundle["kind"] == "draft" and audit_bundle.verify(bundle, trusted_key=keys.public_key()).ok

    bundle["kind"] = "match"
    outcome = audit_bundle.verify(bundle, trusted_key=keys.public_key())

    assert not outcome.ok and "is a draft stream" in outcome.reason


def test_a_tournament_bundle_labelled_a_match_is_refused(db, alice):
    from league.tournaments import services
    from tests.league.tournaments.helpers import field, open_tournament, pid

    players = field(2)
    tournament = open_tournament(alice, "single_elimination", players, start=True)
    services.tournament_rule(
        tournament=tournament, pairing="M1", by=alice, result={"winner": pid(players[0])}, expected_seq=AT_HEAD
    )
    checkpoint_sign()
    bundle = bundle_for(Stream.objects.get(pk=tournament.stream_id))
    assert audit_bundle.verify(bundle, trusted_key=keys.public_key()).ok

    bundle["kind"] = "match"
    outcome = audit_bundle.verify(bundle, trusted_key=keys.public_key())

    assert not outcome.ok and "is a tournament stream" in outcome.reason


def renamed(bundle: dict, stream: str) -> dict:
    """The bundle's events under another stream id, every hash recomputed (the secret left out:
    the salts name the old id)."""
    bundle = copy.deepcopy(bundle)
    bundle["stream"], bundle["secret"] = stream, None
    prev = "0" * 64
    for event in bundle["events"]:
        event["stream"] = stream
        event["prev_hash"] = prev
        event["hash"] = prev = event_hash(prev, payload_of(event))
    bundle["head"] = {"seq": bundle["events"][-1]["seq"], "hash": prev}
    return bundle


@pytest.mark.parametrize("stream", ["season:6b0e0c1e-97b3-4c5e-9f0e-1d1f4c0f2a11", "tournament:7"])
def test_a_match_kept_under_a_season_or_tournament_id_is_refused_at_its_first_event(rigged, stream):
    """The platform could record a match in a stream it names like a season's from the start."""
    bundle = renamed(rigged, stream)
    bundle["kind"] = stream.split(":")[0]

    outcome = audit_bundle.verify(bundle)

    prefix = stream.split(":")[0]
    assert (outcome.ok, outcome.seq) == (False, 1)
    assert (
        outcome.reason == f"A {prefix} stream starts with {prefix}.created, but this one starts with 'match.created'."
    )


def test_a_stream_of_no_kind_the_verifier_knows_is_refused(rigged):
    bundle = renamed(rigged, "ladder:1")
    bundle["kind"] = "ladder"

    outcome = audit_bundle.verify(bundle)

    assert (outcome.ok, outcome.seq) == (False, 1) and "names no kind of stream this verifier knows" in outcome.reason
