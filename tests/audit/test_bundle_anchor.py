"""What anchors a bundle: a signed checkpoint holding the head of the bundle's own last event,
and nothing else (audit/README.md, "Checking a bundle")."""

from __future__ import annotations

import copy
import random
import uuid

import pytest

from audit import bundle as audit_bundle
from audit.chain import event_hash, payload_of
from audit.matchverify import engine_event, verify_match_stream
from engines import registry
from engines.base import CHANCE
from engines.chance import derive, event_salt
from matches import eventstore
from matches.checkpoints import keys, selectors
from matches.checkpoints.export import bundle_for
from matches.checkpoints.models import Checkpoint
from matches.checkpoints.services import checkpoint_sign
from matches.commands import AT_HEAD
from matches.models import Match, Stream
from matches.services import SeatSpec, match_act, match_create

from .helpers import new_signing_key


@pytest.fixture(autouse=True)
def signing_key(settings):
    settings.CHECKPOINT_SIGNING_KEY = new_signing_key()


def played_with_a_checkpoint_at(alice, bob, at: int) -> Match:
    """Two people play a server-dealt duel to its end; the background checkpoint run happens
    once the stream has ``at`` events, and not again."""
    rng = random.Random(7)
    match = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    signed = False
    for _ in range(2000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        head = Stream.objects.get(pk=match.stream_id).head_seq
        if head >= at and not signed:
            checkpoint_sign()
            signed = True
        engine = registry.get(match.game, match.engine_version)
        seat = [s for s in engine.to_move(match.state) if s != CHANCE][0]
        action = engine.bot_action("random", match.state, seat, rng)
        match_act(match_id=match.id, user=(alice, bob)[seat], seat=seat, action=action, expected_seq=head)
    assert match.status == Match.Status.FINISHED and signed
    return match


def another_ending(bundle: dict, k: int, rng_seed: int) -> dict:
    """What the platform, which holds the secret, can write after event k: another game played on
    from there, every chance outcome derived from the secret and every salt from it, every hash
    recomputed. Nothing in it breaks a rule; only the log can tell it from the real one."""
    forged = copy.deepcopy(bundle)
    events = forged["events"][:k]
    created = events[0]["data"]
    secret = bytes.fromhex(bundle["secret"])
    stream = forged["stream"]
    engine = registry.get(created["game"], created["engine_version"])
    state = engine.setup(created["config"], len(created["seats"]))
    for event in events[1:]:
        state = engine.apply(state, engine_event(event["type"], event["data"]))
    rng = random.Random(rng_seed)
    seq = k

    def add(type_, data, actor):
        events.append(
            {
                "stream": stream,
                "seq": seq,
                "event_id": str(uuid.uuid4()),
                "type": type_,
                "data": data,
                "actor": actor,
                "recorded_at": events[-1]["recorded_at"],
                "salt": event_salt(secret, stream, seq),
            }
        )

    while engine.to_move(state):
        seq += 1
        if engine.to_move(state) == [CHANCE]:
            spec = engine.chance(state)
            add("chance", {"spec": spec, "outcome": derive(spec, secret, stream, seq)}, "server")
        else:
            seat = engine.to_move(state)[0]
            action = engine.bot_action("random", state, seat, rng)
            add("action", {"seat": seat, "action": action}, f"user:{created['seats'][seat]['user_id']}")
        state = engine.apply(state, engine_event(events[-1]["type"], events[-1]["data"]))
    seq += 1
    add("match.finished", {"seed": secret.hex(), "result": engine.result(state)}, "server")
    prev = events[k - 1]["hash"]
    for event in events[k:]:
        event["prev_hash"] = prev
        event["hash"] = prev = event_hash(prev, payload_of(event))
    forged["events"] = events
    forged["head"] = {"seq": seq, "hash": prev}
    return forged


def anchored_at(bundle: dict, *, stream_id: str, seq: int) -> dict:
    """The bundle carrying the log's proof for the stream's head at ``seq`` instead of its own."""
    found = selectors.inclusion(stream_id=stream_id, seq=seq)
    bundle = copy.deepcopy(bundle)
    bundle["inclusion"] = {k: v for k, v in found.as_dict().items() if k not in ("checkpoint", "stream")}
    bundle["checkpoint"] = found.checkpoint.as_dict()
    bundle["public_key"] = found.checkpoint.public_key
    return bundle


def test_another_ending_written_after_a_mid_game_checkpoint_is_refused_at_its_first_unanchored_event(db, alice, bob):
    """The log holds the duel at event k (the checkpoint run came mid-game) and at its end. The
    platform writes another ending after event k, one every rule accepts, and presents it with
    the proof of the head at k: that proof vouches for events 1 to k only, so it is refused."""
    match = played_with_a_checkpoint_at(alice, bob, 12)
    checkpoint_sign()  # the next run, after the end
    honest = bundle_for(Stream.objects.get(pk=match.stream_id))
    assert audit_bundle.verify(honest, trusted_key=keys.public_key()).ok
    k = selectors.leaves_of(stream_id=match.stream_id)[0].seq  # the head the mid-game run logged
    assert 12 <= k < honest["head"]["seq"]
    forged = anchored_at(another_ending(honest, k, rng_seed=3), stream_id=match.stream_id, seq=k)
    assert forged["events"][k:] != honest["events"][k:]
    assert verify_match_stream(forged["events"]).verified  # the replay alone cannot tell

    outcome = audit_bundle.verify(forged, trusted_key=keys.public_key())

    assert (outcome.ok, outcome.seq) == (False, k + 1)
    assert f"holds the stream's head at event {k}, not at its last event {forged['head']['seq']}" in outcome.reason


def test_an_api_bundle_of_a_match_no_checkpoint_holds_the_end_of_carries_no_anchor_and_signs_none(
    db, alice, bob, client
):
    """The latest checkpoint caught the match mid-game. An anonymous download signs nothing (a
    request never writes to the log) and presents no mid-game proof: it says none anchors it yet."""
    match = played_with_a_checkpoint_at(alice, bob, 12)
    signed = Checkpoint.objects.count()

    response = client.get(f"/api/bundles/{match.id}/")

    assert response.status_code == 200 and Checkpoint.objects.count() == signed
    bundle = response.json()
    assert (bundle["inclusion"], bundle["checkpoint"], bundle["public_key"]) == (None, None, None)
    assert bundle["head"]["seq"] == Stream.objects.get(pk=match.stream_id).head_seq  # the whole match
    assert response["Audit-Anchor"].startswith(f"none yet: no signed checkpoint holds event {bundle['head']['seq']}")
    outcome = audit_bundle.verify(bundle, trusted_key=keys.public_key())
    assert not outcome.ok and "carries no checkpoint" in outcome.reason

    checkpoint_sign()  # the next background run
    response = client.get(f"/api/bundles/{match.id}/")
    bundle = response.json()
    assert bundle["inclusion"]["seq"] == bundle["head"]["seq"]
    assert response["Audit-Anchor"].startswith(f"checkpoint {bundle['checkpoint']['tree_size']} ")
    assert audit_bundle.verify(bundle, trusted_key=keys.public_key()).ok


def ruled_tournament(organiser):
    from league.tournaments import services
    from tests.league.tournaments.helpers import field, open_tournament, pid

    players = field(4)
    tournament = open_tournament(organiser, "single_elimination", players, start=True)
    services.tournament_rule(
        tournament=tournament, pairing="M1", by=organiser, result={"winner": pid(players[0])}, expected_seq=AT_HEAD
    )
    return tournament, players


def test_a_tournament_is_exported_as_the_latest_checkpoint_holds_it_and_its_later_events_are_not_passed_off(
    db, alice, client
):
    """A tournament goes on after a checkpoint. Its download stops at the head that checkpoint holds
    (and says so); the same events with later ones added under that proof are refused."""
    from league.tournaments import services
    from tests.league.tournaments.helpers import pid

    tournament, players = ruled_tournament(alice)
    checkpoint_sign()
    logged = Stream.objects.get(pk=tournament.stream_id).head_seq
    services.tournament_rule(
        tournament=tournament, pairing="M2", by=alice, result={"winner": pid(players[2])}, expected_seq=AT_HEAD
    )
    now = Stream.objects.get(pk=tournament.stream_id).head_seq
    assert now > logged

    response = client.get(f"/api/bundles/{tournament.stream_id}/")

    bundle = response.json()
    assert bundle["head"]["seq"] == bundle["inclusion"]["seq"] == logged
    assert response["Audit-Anchor"].endswith(f"the stream has {now} events, a later checkpoint will hold the rest")
    assert audit_bundle.verify(bundle, trusted_key=keys.public_key()).ok

    longer = copy.deepcopy(bundle)
    longer["events"] = [eventstore.event_record(e) for e in eventstore.stream_events(stream_id=tournament.stream_id)]
    longer["head"] = {"seq": now, "hash": longer["events"][-1]["hash"]}
    outcome = audit_bundle.verify(longer, trusted_key=keys.public_key())
    assert (outcome.ok, outcome.seq) == (False, logged + 1)

    checkpoint_sign()
    bundle = client.get(f"/api/bundles/{tournament.stream_id}/").json()
    assert bundle["head"]["seq"] == bundle["inclusion"]["seq"] == now
    assert audit_bundle.verify(bundle, trusted_key=keys.public_key()).ok


def test_a_bundle_that_ends_before_the_head_the_checkpoint_logged_is_refused(db, alice):
    """The last events left out (a ruling the platform would rather not show), the proof of the
    head that held them kept."""
    tournament, _ = ruled_tournament(alice)
    checkpoint_sign()
    bundle = bundle_for(Stream.objects.get(pk=tournament.stream_id))
    end = bundle["head"]["seq"]
    bundle["events"] = bundle["events"][:-1]
    bundle["head"] = {"seq": end - 1, "hash": bundle["events"][-1]["hash"]}

    outcome = audit_bundle.verify(bundle, trusted_key=keys.public_key())

    assert (outcome.ok, outcome.seq) == (False, end)
    assert f"logged the stream's head at event {end}, but the bundle ends at event {end - 1}" in outcome.reason


def test_the_replay_page_says_a_bundle_downloaded_before_the_next_checkpoint_carries_no_anchor(db, alice, bob, client):
    # The download link is there from the end of the match; until a checkpoint holds its last
    # event, the page says the offline check will refuse that bundle and when to fetch it again.
    from django.urls import reverse

    match = played_with_a_checkpoint_at(alice, bob, 12)
    page = client.get(reverse("match-replay", args=[match.id])).content.decode()
    assert "carries no anchor, and the offline check refuses it" in page and "Anchored in" not in page

    checkpoint_sign()
    page = client.get(reverse("match-replay", args=[match.id])).content.decode()
    assert "Anchored in" in page and "carries no anchor" not in page


def test_the_anchor_note_says_when_the_logged_head_lies_past_the_bundles_end():
    # The stream lost events after its head was logged: the export keeps the proof (so the
    # verifier says events went missing), and the header says the bundle is anchored by nothing.
    from matches.checkpoints.export import anchor_note

    bundle = {
        "head": {"seq": 7},
        "checkpoint": {"tree_size": 3, "timestamp": "2026-11-30T06:00:00+00:00"},
        "inclusion": {"seq": 9},
    }
    assert anchor_note(bundle, stream_events=7) == (
        "none: checkpoint 3 holds the stream's head at event 9, which this bundle does not end at (its last event is 7)"
    )
