"""Exports and the offline verifier (issue 14, "Exports and an offline verifier")."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit import bundle as audit_bundle
from audit.chain import event_hash, payload_of
from audit.checkpoint import public_key_of
from matches.autoplay import autoplay_match
from matches.checkpoints import keys
from matches.commands import AT_HEAD
from matches.models import Match
from matches.verification import match_verify

from .helpers import new_signing_key

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def signing_key(settings):
    settings.CHECKPOINT_SIGNING_KEY = new_signing_key()


def finished_match() -> Match:
    match = autoplay_match(game="dueling-wizards", seats=2)
    match_verify(match_id=match.id)
    return match


@pytest.fixture
def exported(db, tmp_path):
    match = finished_match()
    out = tmp_path / "bundle.json"
    call_command("export", str(match.id), out=str(out))
    return match, out


def without_django(tmp_path: Path) -> dict:
    """An environment whose interpreter sees the repository and the cryptography package, and
    nothing else installed: no Django, no DRF, no Celery (python -S skips site-packages)."""
    only = tmp_path / "only-cryptography"
    only.mkdir(exist_ok=True)
    import _cffi_backend
    import cryptography

    for module in (Path(cryptography.__file__).parent, Path(_cffi_backend.__file__)):
        link = only / module.name
        if not link.exists():
            link.symlink_to(module)
    return {
        "PYTHONPATH": f"{REPO}{os.pathsep}{only}",
        "PATH": os.environ.get("PATH", ""),
        "PYTHONNOUSERSITE": "1",
        "HOME": str(tmp_path),
    }


def offline(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-S", "-m", "audit", *args],
        cwd=tmp_path,
        env=without_django(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_exported_match_verifies_offline_with_django_absent(exported, tmp_path):
    match, out = exported
    probe = subprocess.run(
        [sys.executable, "-S", "-c", "import django"],
        cwd=tmp_path,
        env=without_django(tmp_path),
        capture_output=True,
        text=True,
    )
    assert probe.returncode != 0 and "No module named 'django'" in probe.stderr
    done = offline(tmp_path, "verify", str(out), "--key", keys.public_key())
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"verified: {match.stream_id} (match)" in done.stdout
    data = json.loads(out.read_text())
    assert data["head"]["hash"] == Match.objects.get(pk=match.pk).head_hash
    assert data["secret"] and data["engine"]["name"] == "dueling-wizards"
    assert all(e["salt"] for e in data["events"][1:])


def test_a_bundle_with_one_byte_of_an_event_changed_fails_offline(exported, tmp_path):
    match, out = exported
    data = json.loads(out.read_text())
    event = data["events"][len(data["events"]) // 2]
    event["actor"] = event["actor"][:-1] + ("x" if event["actor"][-1] != "x" else "y")
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    done = offline(tmp_path, "verify", str(forged))
    assert done.returncode == 2
    assert done.stdout.startswith(f"FAILED at event {event['seq']}: ")


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _leaves(value[key], (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    else:
        yield path, value


def _changed(value, pick: int):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 + pick % 3
    if isinstance(value, str) and value:
        i = pick % len(value)
        return value[:i] + ("0" if value[i] != "0" else "1") + value[i + 1 :]
    if value is None:
        return "00"
    return f"{value}!"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_value_of_any_event_changed_makes_the_bundle_fail(exported, data):
    """Every field of every event is covered: its hash, the next event's prev_hash, the head,
    the checkpoint's leaf or the replay catches the change."""
    _, out = exported
    bundle = json.loads(out.read_text())
    assert audit_bundle.verify(bundle).ok
    index = data.draw(st.integers(0, len(bundle["events"]) - 1))
    leaves = list(_leaves(bundle["events"][index]))
    path, value = leaves[data.draw(st.integers(0, len(leaves) - 1))]
    target = bundle["events"][index]
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = _changed(value, data.draw(st.integers(0, 1000)))
    assert not audit_bundle.verify(bundle).ok


def test_a_rewrite_rehashed_after_the_checkpoint_fails_against_the_logged_head(exported):
    """The forger rewrites an event that replays the same way, recomputes every hash after it
    and the head, and exports again: only the checkpoint still holds the old head."""
    _, out = exported
    bundle = json.loads(out.read_text())
    events = bundle["events"]
    events[3]["recorded_at"] = "2001-01-01T00:00:00+00:00"
    prev = events[2]["hash"]
    for event in events[3:]:
        event["prev_hash"] = prev
        event["hash"] = prev = event_hash(prev, payload_of(event))
    bundle["head"]["hash"] = prev
    outcome = audit_bundle.verify(bundle)
    assert not outcome.ok and "rewritten after it was logged" in outcome.reason


def test_the_checkpoint_must_be_signed_by_the_trusted_key_and_unaltered(exported):
    _, out = exported
    bundle = json.loads(out.read_text())
    assert audit_bundle.verify(bundle, trusted_key=keys.public_key()).ok
    other = new_signing_key()
    assert "another key" in audit_bundle.verify(bundle, trusted_key=public_key_of(base64.b64decode(other))).reason
    bundle["checkpoint"]["timestamp"] = "2030-01-01T00:00:00+00:00"
    assert "signature does not verify" in audit_bundle.verify(bundle).reason
    bundle["checkpoint"] = None
    assert "no checkpoint" in audit_bundle.verify(bundle).reason


def test_unreadable_and_foreign_files_are_refused(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert offline(tmp_path, "verify", str(junk)).returncode == 1
    junk.write_text(json.dumps({"format": "something else"}))
    done = offline(tmp_path, "verify", str(junk))
    assert done.returncode == 2 and "not a wizard-duels audit bundle" in done.stdout


def test_a_live_match_is_not_exported_and_the_api_offers_finished_ones(db, client, alice, bob, tmp_path):
    from matches.services import SeatSpec, match_create

    live = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    response = client.get(f"/api/bundles/{live.id}/")
    assert (response.status_code, response.json()["code"]) == (409, "match_live")
    done = finished_match()
    call_command("checkpoint")
    response = client.get(f"/api/bundles/{done.stream_id}/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert audit_bundle.verify(response.json(), trusted_key=keys.public_key()).ok


def test_a_tournament_bundle_verifies_its_chain_and_anchor_offline(db, alice, tmp_path):
    from league.tournaments import services
    from tests.league.tournaments.helpers import field, open_tournament, pid

    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    services.tournament_rule(
        tournament=t, pairing="M1", by=alice, result={"winner": pid(players[0])}, expected_seq=AT_HEAD
    )
    out = tmp_path / "tournament.json"
    call_command("export", t.stream_id, out=str(out))
    done = offline(tmp_path, "verify", str(out), "--key", keys.public_key())
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"verified: {t.stream_id} (tournament)" in done.stdout and "verify --all" in done.stdout
    bundle = json.loads(out.read_text())
    ruled = next(e for e in bundle["events"] if e["type"] == "result.ruled")
    ruled["data"]["result"]["winner"] = pid(players[1])
    outcome = audit_bundle.verify(bundle)
    assert (outcome.ok, outcome.seq) == (False, ruled["seq"])


def test_a_big_bundle_shows_a_progress_bar_while_its_hashes_are_checked(tmp_path, capsys):
    """A synthetic stream of 3,000 chained events (no Django): the bar reaches the end."""
    from audit import __main__ as cli

    events, prev = [], "0" * 64
    for seq in range(1, 3001):
        event = {
            "stream": "season:big",
            "seq": seq,
            "event_id": f"e{seq}",
            "type": "season.created" if seq == 1 else "fact",
            "data": {"n": seq},
            "actor": "system",
            "recorded_at": "2027-01-01T00:00:00+00:00",
            "prev_hash": prev,
            "salt": None,
        }
        event["hash"] = prev = event_hash(prev, payload_of(event))
        events.append(event)
    path = tmp_path / "big.json"
    path.write_text(
        json.dumps(
            {
                "format": audit_bundle.FORMAT,
                "version": 1,
                "stream": "season:big",
                "kind": "season",
                "events": events,
                "head": {"seq": 3000, "hash": prev},
            }
        )
    )
    assert cli.main(["verify", str(path)]) == 2  # chain and head are fine; nothing anchors it
    captured = capsys.readouterr()
    assert "3000/3000" in captured.err and "no checkpoint" in captured.out
