"""Signed checkpoints over every stream head (issue 14, "Signed checkpoints (a transparency log)")."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from audit import checkpoint as audit_checkpoint
from matches.autoplay import autoplay_match
from matches.checkpoints import keys
from matches.checkpoints.models import Checkpoint, LogLeaf
from matches.checkpoints.services import checkpoint_sign, heads_log
from matches.commands import AT_HEAD
from matches.models import Event, Match, Stream
from matches.verification import match_verify

from .helpers import alter_event, new_signing_key, rehash_stream


@pytest.fixture(autouse=True)
def signing_key(settings):
    settings.CHECKPOINT_SIGNING_KEY = new_signing_key()
    return settings.CHECKPOINT_SIGNING_KEY


def finished_match() -> Match:
    match = autoplay_match(game="dueling-wizards", seats=2)
    match_verify(match_id=match.id)  # queued on commit, which a test transaction never reaches
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.verdict == Match.Verdict.VERIFIED
    return match


def saved(checkpoint_json: dict) -> audit_checkpoint.Checkpoint:
    """What an auditor keeps: the checkpoint as published, nothing else from the platform."""
    return audit_checkpoint.Checkpoint.from_dict(checkpoint_json)


def test_the_checkpoint_command_logs_every_stream_head_and_signs_the_tree(db, capsys, client):
    first, second = finished_match(), finished_match()
    call_command("checkpoint")
    assert "Checkpoint 2 signed" in capsys.readouterr().out
    logged = {(leaf.stream_id, leaf.seq, leaf.head_hash) for leaf in LogLeaf.objects.all()}
    assert logged == {(m.stream_id, m.stream.head_seq, m.head_hash) for m in (first, second)}

    body = client.get("/api/checkpoints/latest/").json()
    key = client.get("/api/checkpoints/key/").json()
    assert key["public_key"] == keys.public_key() and body["key_id"] == key["key_id"]
    assert audit_checkpoint.signature_valid(saved(body), key["public_key"])
    assert not audit_checkpoint.signature_valid(saved({**body, "tree_size": 3}), key["public_key"])
    assert not audit_checkpoint.signature_valid(saved({**body, "root_hash": "0" * 64}), key["public_key"])
    someone_else = audit_checkpoint.public_key_of(b"\x01" * 32)
    assert not audit_checkpoint.signature_valid(saved(body), someone_else)


def test_a_run_with_no_head_moved_signs_nothing_new(db, capsys):
    finished_match()
    call_command("checkpoint")
    capsys.readouterr()
    call_command("checkpoint")
    assert "Nothing new" in capsys.readouterr().out
    assert Checkpoint.objects.count() == 1


def test_a_head_logged_before_is_proved_included_and_the_grown_log_consistent(db, client):
    match = finished_match()
    old, _, _ = checkpoint_sign()
    later = finished_match()
    new, created, _ = checkpoint_sign()
    assert created and new.tree_size == old.tree_size + 1
    for m in (match, later):
        proof = client.get("/api/checkpoints/inclusion/", {"stream": m.stream_id}).json()
        assert (proof["seq"], proof["head_hash"]) == (m.stream.head_seq, m.head_hash)
        assert audit_checkpoint.inclusion_valid(
            stream=m.stream_id,
            seq=m.stream.head_seq,
            head=m.head_hash,
            index=proof["leaf_index"],
            proof=proof["proof"],
            checkpoint=saved(proof["checkpoint"]),
        )
    body = client.get("/api/checkpoints/consistency/", {"first": old.tree_size, "second": new.tree_size}).json()
    assert audit_checkpoint.consistency_valid(
        first=saved(old.as_dict()), second=saved(body["second"]), proof=body["proof"]
    )


def test_a_stream_that_moves_on_gets_a_new_leaf_for_its_new_head(db):
    match = finished_match()
    heads_log()
    # The stream moves on (as a live match or a season does); the log records the new head too.
    Stream.objects.filter(pk=match.stream_id).update(head_seq=match.stream.head_seq + 1, head_hash="ab" * 32)
    assert [leaf.seq for leaf in heads_log().appended] == [match.stream.head_seq + 1]
    assert LogLeaf.objects.filter(stream_id=match.stream_id).count() == 2


def test_a_batch_holds_each_stream_against_its_own_logged_heads_as_one_verification_does(db):
    """matches_verify reads the log's heads for many streams at once and holds each stream's
    events against them in memory: the same verdicts as match_verify, which reads them one by one."""
    from matches.models import MatchLog
    from matches.verification import matches_verify

    rewritten, relogged, untouched = finished_match(), finished_match(), finished_match()
    checkpoint_sign()
    target = Event.objects.filter(stream_id=rewritten.stream_id, type="action").order_by("seq")[2]
    alter_event(target, recorded_at=target.recorded_at.replace(year=target.recorded_at.year - 1))
    Match.objects.filter(pk=rewritten.pk).update(head_hash=rehash_stream(rewritten.stream_id, target.seq))
    line = MatchLog.objects.filter(match=relogged, seq__gt=1).order_by("seq")[3]
    MatchLog.objects.filter(pk=line.pk).update(text="Seat 0 concedes.")
    ids = [rewritten.pk, relogged.pk, untouched.pk]

    batch = matches_verify(match_ids=ids)
    one_by_one = {str(m): match_verify(match_id=m) for m in ids}
    assert {m: (v.verified, v.seq, v.reason) for m, v in batch.items()} == {
        m: (v.verified, v.seq, v.reason) for m, v in one_by_one.items()
    }
    assert "transparency log" in batch[str(rewritten.pk)].reason
    assert batch[str(relogged.pk)].seq == line.seq and "log" in batch[str(relogged.pk)].reason
    assert batch[str(untouched.pk)].verified


def test_a_stream_rewritten_then_moved_on_is_not_logged_as_progress(db):
    """Rewriting the past and appending after it does not launder the rewrite into the log."""
    from league.streams import stream_append

    stream_append(stream_id="season:x", kind="season", type="note", data={"n": 1}, actor="system", expected_seq=AT_HEAD)
    heads_log()
    first = Event.objects.get(stream_id="season:x", seq=1)
    alter_event(first, data={"n": 2})
    rehash_stream("season:x")
    stream_append(stream_id="season:x", kind="season", type="note", data={"n": 3}, actor="system", expected_seq=AT_HEAD)
    assert heads_log().conflicts == ["season:x"]
    assert list(LogLeaf.objects.filter(stream_id="season:x").values_list("seq", flat=True)) == [1]


def test_a_rewritten_and_rehashed_finished_match_is_caught_against_a_saved_checkpoint(db, client):
    match = finished_match()
    checkpoint_sign()
    kept = saved(client.get("/api/checkpoints/latest/").json())
    public_key = client.get("/api/checkpoints/key/").json()["public_key"]

    # The forger rewrites an event that replays the same way (its time), recomputes the chain
    # from there and the published head: the stream alone still verifies...
    target = Event.objects.filter(stream_id=match.stream_id, type="action").order_by("seq")[2]
    alter_event(target, recorded_at=target.recorded_at.replace(year=target.recorded_at.year - 1))
    forged_head = rehash_stream(match.stream_id, target.seq)
    Match.objects.filter(pk=match.pk).update(head_hash=forged_head)
    from audit.matchverify import verify_match_stream
    from matches import eventstore

    records = [eventstore.event_record(e) for e in eventstore.stream_events(stream_id=match.stream_id)]
    assert verify_match_stream(records).verified
    # ...but the platform's verification holds it against the head the log recorded.
    verdict = match_verify(match_id=match.id)
    assert not verdict.verified and "transparency log" in verdict.reason

    # The log refuses to record the rewritten head as progress...
    assert heads_log().conflicts == [match.stream_id]
    # ...and the head the saved checkpoint includes is not the stream's head any more.
    proof = client.get("/api/checkpoints/inclusion/", {"stream": match.stream_id}).json()
    assert proof["head_hash"] != forged_head
    assert not audit_checkpoint.inclusion_valid(
        stream=match.stream_id,
        seq=proof["seq"],
        head=forged_head,
        index=proof["leaf_index"],
        proof=proof["proof"],
        checkpoint=kept,
    )

    # A thorough forger rewrites the log as well and signs new checkpoints (even with the
    # platform's key): the checkpoint the auditor kept does not extend to the rewritten log,
    # and the rewritten head is not in the tree the kept checkpoint signed.
    leaf = LogLeaf.objects.get(stream_id=match.stream_id)
    LogLeaf.objects.filter(pk=leaf.pk).update(
        head_hash=forged_head,
        leaf_hash=audit_checkpoint.leaf_hash(stream=match.stream_id, seq=leaf.seq, head=forged_head).hex(),
    )
    rebuild_tree()
    Checkpoint.objects.all().delete()
    finished_match()  # something new, so a new checkpoint is signed
    checkpoint_sign()
    published = saved(client.get("/api/checkpoints/latest/").json())
    assert audit_checkpoint.signature_valid(published, public_key)
    assert published.tree_size > kept.tree_size
    body = client.get("/api/checkpoints/consistency/", {"first": kept.tree_size, "second": published.tree_size}).json()
    assert not audit_checkpoint.consistency_valid(first=kept, second=published, proof=body["proof"])
    proof = client.get("/api/checkpoints/inclusion/", {"stream": match.stream_id, "tree_size": kept.tree_size}).json()
    assert proof["head_hash"] == forged_head
    assert not audit_checkpoint.inclusion_valid(
        stream=match.stream_id,
        seq=proof["seq"],
        head=forged_head,
        index=proof["leaf_index"],
        proof=proof["proof"],
        checkpoint=kept,
    )


def rebuild_tree() -> None:
    """The forger recomputes every stored subtree from the (rewritten) leaves."""
    from audit import merkle
    from matches.checkpoints.models import MerkleNode

    leaves = [bytes.fromhex(h) for h in LogLeaf.objects.order_by("index").values_list("leaf_hash", flat=True)]
    MerkleNode.objects.all().delete()
    MerkleNode.objects.bulk_create(
        MerkleNode(level=level, index=index, hash=digest.hex())
        for (level, index), digest in merkle.new_nodes(0, leaves, {}).items()
    )


def test_proofs_that_cannot_exist_are_refused_with_a_code(db, client):
    response = client.get("/api/checkpoints/latest/")
    assert response.status_code == 404
    finished_match()
    checkpoint_sign()
    response = client.get("/api/checkpoints/inclusion/", {"stream": "match:nobody"})
    assert (response.status_code, response.json()["code"]) == (404, "not_logged")
    response = client.get("/api/checkpoints/inclusion/")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_request")
    response = client.get("/api/checkpoints/consistency/", {"first": 5, "second": 1})
    assert (response.status_code, response.json()["code"]) == (400, "invalid_request")
    response = client.get("/api/checkpoints/consistency/", {"first": 1, "second": 99})
    assert (response.status_code, response.json()["code"]) == (404, "no_checkpoint")
    response = client.get("/api/checkpoints/inclusion/", {"stream": "match:nobody", "tree_size": 99})
    assert (response.status_code, response.json()["code"]) == (404, "no_checkpoint")


def test_the_checkpoints_page_lists_signatures_and_explains_the_audit(db, client):
    finished_match()
    made, _, _ = checkpoint_sign()
    page = client.get("/checkpoints/").content.decode()
    assert made.signature in page and made.root_hash in page and keys.public_key() in page
    assert "How to audit" in page
    listed = client.get("/api/checkpoints/").json()
    assert [c["tree_size"] for c in listed["results"]] == [made.tree_size]


def test_the_embedded_default_key_is_generated_once_outside_the_repository(settings, tmp_path, monkeypatch):
    settings.CHECKPOINT_SIGNING_KEY = ""
    settings.DEBUG = True
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("CHECKPOINT_SIGNING_KEY", raising=False)
    monkeypatch.delenv("CHECKPOINT_KEY_FILE", raising=False)
    first = keys.public_key()
    assert keys.default_key_file() == tmp_path / "wizard-duels" / "checkpoint-signing.key"
    assert keys.default_key_file().stat().st_mode & 0o777 == 0o600
    assert keys.public_key() == first


def test_production_needs_a_key_from_the_environment(settings, monkeypatch, tmp_path):
    settings.CHECKPOINT_SIGNING_KEY = ""
    settings.DEBUG = False
    monkeypatch.delenv("CHECKPOINT_SIGNING_KEY", raising=False)
    monkeypatch.delenv("CHECKPOINT_KEY_FILE", raising=False)
    with pytest.raises(ImproperlyConfigured, match="CHECKPOINT_SIGNING_KEY"):
        keys.signing_key()
    key_file = tmp_path / "key"
    key_file.write_text(new_signing_key())
    monkeypatch.setenv("CHECKPOINT_KEY_FILE", str(key_file))
    assert len(keys.signing_key()) == 32
    monkeypatch.setenv("CHECKPOINT_SIGNING_KEY", "not base64!")
    with pytest.raises(ImproperlyConfigured, match="32-byte"):
        keys.signing_key()


def test_checkpoints_are_on_celery_beats_schedule_and_the_task_signs_one(db):
    from config.celery import app
    from matches.checkpoints.tasks import sign_checkpoint

    entry = app.conf.beat_schedule["sign-checkpoint"]
    assert entry["task"] == "checkpoints.sign" and entry["schedule"] > 0
    match = finished_match()
    assert sign_checkpoint.delay().get() == 1
    assert LogLeaf.objects.get().stream_id == match.stream_id


def test_the_stored_tree_grown_run_by_run_has_the_root_of_all_its_leaves(db):
    """Proofs and tree heads read stored subtrees; they must equal the RFC tree over the leaves."""
    from audit import merkle
    from league.streams import stream_append
    from matches.checkpoints.selectors import nodes_get

    for step in (1, 3, 2, 5):
        for i in range(step + 4):
            stream_append(
                stream_id=f"season:s{i}",
                kind="season",
                type="note",
                data={"step": step},
                actor="system",
                expected_seq=AT_HEAD,
            )
        checkpoint_sign()
    leaves = [bytes.fromhex(h) for h in LogLeaf.objects.order_by("index").values_list("leaf_hash", flat=True)]
    for checkpoint in Checkpoint.objects.all():
        assert checkpoint.root_hash == merkle.root(leaves[: checkpoint.tree_size]).hex()
    size = len(leaves)
    assert merkle.range_root(0, size, nodes_get(merkle.perfect_nodes(0, size))) == merkle.root(leaves)


def test_hostile_query_values_are_refused_as_json(db, client):
    finished_match()
    checkpoint_sign()
    for value in ("\x00", str(2**64), "-1", "abc", "١٢"):
        response = client.get("/api/checkpoints/inclusion/", {"stream": "match:x", "tree_size": value})
        # (a NUL is refused by the site's middleware before the view, with its own code)
        assert response.status_code == 400 and response.json()["code"], value
    assert client.get(f"/api/checkpoints/{2**70}/").status_code == 404
    assert client.get("/api/bundles/no-such-stream/").json()["code"] == "not_found"


def test_the_checkpoint_api_is_in_the_schema_without_warnings():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    ours = {p for p in schema["paths"] if p.startswith(("/api/checkpoints/", "/api/bundles/"))}
    assert len(ours) == 7
    for path in ours:
        assert "200" in schema["paths"][path]["get"]["responses"]
        assert "$ref" in str(schema["paths"][path]["get"]["responses"]["200"])


def test_a_server_without_its_signing_key_answers_503_json_not_500(db, client, settings, monkeypatch):
    settings.CHECKPOINT_SIGNING_KEY = ""
    settings.DEBUG = False
    monkeypatch.delenv("CHECKPOINT_SIGNING_KEY", raising=False)
    monkeypatch.delenv("CHECKPOINT_KEY_FILE", raising=False)
    for path in ("/api/checkpoints/", "/api/checkpoints/key/"):
        response = client.get(path)
        assert response.status_code == 503 and response.json()["code"] == "signing_key_missing", path
