"""Bots move at most ``BOT_MOVES_PER_COMMAND`` events a command. A person who leaves a game of bots
(the ruling "Leaving") is answered after at most that many of the bots' moves, and the bots play
the rest in later commands, each its own transaction, queued through the outbox after the commit
(matches.tasks.bots_move) and broadcast like any command; the game reaches its end and verifies.
A repeated or stale delivery writes nothing, no clock runs while the bots wait for their next
command, a lost one is queued again by a sweep, and below the bound nothing changed: a bot's reply
to a person's move is in the same answer."""

from __future__ import annotations

import json
import uuid

import pytest

from audit.matchverify import verify_match_stream
from engines import registry
from matches import services, tasks
from matches.models import Event, Match, MatchLog, OutboxMessage
from matches.verification import match_verify

from .helpers import fresh, new_duel
from .test_resign import records_of
from .test_time_controls import FISCHER_60, clock  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def alice_and_two_bots(alice, **kwargs) -> Match:
    seats = [services.SeatSpec(user=alice), services.SeatSpec(bot="random"), services.SeatSpec(bot="random")]
    return services.match_create(game="dueling-wizards", seats=seats, created_by=alice, **kwargs)


def resign(client, match: Match):
    body = {"expected_seq": fresh(match).state_seq, "event_id": str(uuid.uuid4())}
    return client.post(f"/api/matches/{match.id}/resign/", body, format="json")


def written(match: Match) -> dict:
    """What a command on ``match`` writes: its events, log lines, outbox messages and projection."""
    m = fresh(match)
    return {
        "events": Event.objects.filter(stream_id=m.stream_id).count(),
        "lines": MatchLog.objects.filter(match=m).count(),
        "messages": OutboxMessage.objects.count(),
        "head": (m.state_seq, m.status, m.bots_due_at, m.clocks),
    }


def play_on(match: Match) -> Match:
    """Run the bots' queued commands one after another, as the worker would, until none is due."""
    for _ in range(1000):
        m = fresh(match)
        if not tasks.bots_move(str(m.id), m.state_seq):
            return m
    raise AssertionError("the bots never stopped")


def test_a_person_who_resigns_a_game_of_bots_is_answered_within_the_bound_and_the_bots_finish_it_after(
    alice, client_for, settings, django_capture_on_commit_callbacks
):
    settings.BOT_MOVES_PER_COMMAND = 20
    match = alice_and_two_bots(alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = resign(client_for(alice), match)
        assert answer.status_code == 201, answer.json()
        resigned = Event.objects.get(stream_id=match.stream_id, type="match.resigned")
        # The answer holds the resignation and 20 of the bots' events after it, no more: the match
        # is live, and their next moves wait for the commit.
        assert (answer.json()["head_seq"], answer.json()["status"]) == (resigned.seq + 20, "live")
    # After the commit the bots play on, a command at a time, to the game's end.
    m = fresh(match)
    assert m.status == Match.Status.FINISHED and m.bots_due_at is None
    assert m.left == ["resigned", None, None] and m.result["placements"][0] == 3
    # Each command was broadcast on its own: the windows follow one another to the head, none longer
    # than the bound (the last one's close besides).
    windows = sorted(
        (p["after"], p["head_seq"])
        for p in OutboxMessage.objects.filter(topic="match.broadcast").values_list("payload", flat=True)
        if p["match_id"] == str(m.id) and p["after"] >= resigned.seq - 1
    )
    assert windows[0] == (resigned.seq - 1, resigned.seq + 20) and windows[-1][1] == m.state_seq
    assert all(a[1] == b[0] for a, b in zip(windows, windows[1:])) and len(windows) > 2
    assert all(head - after <= 21 for after, head in windows)
    # The stream verifies, here and by the platform's own task (queued when it finished).
    assert verify_match_stream(records_of(m)).verified
    assert m.verdict == Match.Verdict.VERIFIED and match_verify(match_id=m.id).verified


def test_a_repeated_or_stale_delivery_of_the_bots_next_command_writes_nothing(alice, bob, settings):
    settings.BOT_MOVES_PER_COMMAND = 20
    match = alice_and_two_bots(alice)
    services.match_resign(match_id=match.id, user=alice, expected_seq=match.state_seq)
    m = fresh(match)
    queued = OutboxMessage.objects.get(topic="match.bots_move")
    assert queued.payload == {"match_id": str(m.id), "head_seq": m.state_seq} and m.bots_due_at is not None
    assert tasks.bots_move(str(m.id), m.state_seq) == 20
    before = written(m)
    # The same delivery again, one for a head the match never had, and one for a finished match.
    assert tasks.bots_move(str(m.id), m.state_seq) == 0
    assert tasks.bots_move(str(m.id), fresh(m).state_seq + 3) == 0
    assert written(m) == before
    done = play_on(m)
    assert done.status == Match.Status.FINISHED
    before = written(done)
    assert tasks.bots_move(str(done.id), done.state_seq) == 0
    assert written(done) == before
    # A match where a person is to move: the bots are not due, nothing is written.
    duel = new_duel(alice, bob)
    before = written(duel)
    assert tasks.bots_move(str(duel.id), duel.state_seq) == 0
    assert written(duel) == before


def test_a_move_against_one_bot_still_has_the_bots_reply_in_the_same_answer(alice, client_for):
    match = new_duel(alice, bots=("random",))
    engine = registry.get("dueling-wizards")
    replies = 0
    for _ in range(6):
        m = fresh(match)
        if m.status == Match.Status.FINISHED:
            break
        assert engine.to_move(m.state) == [0] or 0 in engine.to_move(m.state)
        body = {
            "seat": 0,
            "action": engine.legal_actions(m.state, 0)[0],
            "expected_seq": m.state_seq,
            "event_id": str(uuid.uuid4()),
        }
        answer = client_for(alice).post(f"/api/matches/{m.id}/actions/", body, format="json")
        assert answer.status_code == 201, answer.json()
        events = answer.json()["events"]
        replies += sum(1 for e in events if e["actor"] == "bot:random")
        # The answer runs to the head: whatever the bot did is in it, and alice moves next.
        assert answer.json()["head_seq"] == events[-1]["seq"] == fresh(m).state_seq
    assert replies > 0
    assert not OutboxMessage.objects.filter(topic="match.bots_move").exists()
    assert fresh(match).bots_due_at is None


def test_while_the_bots_wait_for_their_next_command_no_clock_runs_and_nobody_can_claim_time(
    alice,
    bob,
    client_for,
    settings,
    clock,  # noqa: F811
):
    settings.BOT_MOVES_PER_COMMAND = 20
    match = alice_and_two_bots(alice, time_control=FISCHER_60)
    services.match_resign(match_id=match.id, user=alice, expected_seq=match.state_seq)
    m = fresh(match)
    assert m.bots_due_at is not None and m.clocks["running"] == []
    left = m.clocks["left"]
    clock.advance(3600)  # a worker that takes an hour to run the next command
    body = {"expected_seq": m.state_seq, "event_id": str(uuid.uuid4())}
    claim = client_for(bob).post(f"/api/matches/{m.id}/timeout/", body, format="json")
    assert claim.status_code == 409 and claim.json()["code"] == "time_not_up", claim.json()
    assert services.matches_claim_timeouts() == 0
    assert tasks.bots_move(str(m.id), m.state_seq) == 20
    # The hour was charged to no bot.
    assert all(now >= then for now, then in zip(fresh(m).clocks["left"][1:], left[1:]))
    done = play_on(m)
    assert done.status == Match.Status.FINISHED and done.result.get("reason") != "timeout"
    assert verify_match_stream(records_of(done)).verified and match_verify(match_id=done.id).verified


def test_bots_whose_next_command_was_lost_are_played_on_by_the_sweep(
    alice,
    settings,
    django_capture_on_commit_callbacks,
    clock,  # noqa: F811
):
    settings.BOT_MOVES_PER_COMMAND = 20
    match = alice_and_two_bots(alice)
    # Its commit's messages are never delivered here: as if the broker lost the queued command.
    services.match_resign(match_id=match.id, user=alice, expected_seq=match.state_seq)
    head = fresh(match).state_seq
    clock.advance(settings.BOTS_STALLED_SECONDS - 1)
    assert services.matches_bots_move_stalled() == 0
    assert fresh(match).state_seq == head
    clock.advance(1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.matches_bots_move_stalled() == 1
    m = fresh(match)
    assert m.status == Match.Status.FINISHED and m.state_seq > head
    assert verify_match_stream(records_of(m)).verified and match_verify(match_id=m.id).verified
    assert services.matches_bots_move_stalled() == 0


PLAY_ON_SQLITE = """
import json, sys
from django.contrib.auth import get_user_model
from matches import services
from matches.models import Match

depths = []
move = services.match_bots_move
def counted(**kwargs):
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    depths.append(depth)
    return move(**kwargs)
services.match_bots_move = counted

alice = get_user_model().objects.create_user("alice", password="a-long-test-password")
seats = [services.SeatSpec(user=alice), services.SeatSpec(bot="random"), services.SeatSpec(bot="random")]
match = services.match_create(game="dueling-wizards", seats=seats, created_by=alice)
services.match_resign(match_id=match.pk, user=alice, expected_seq=match.state_seq)
match.refresh_from_db()
print(json.dumps({"status": match.status, "verdict": match.verdict, "depths": depths}))
"""


def test_on_the_embedded_default_the_bots_finish_the_game_one_command_after_another_not_one_inside_another(
    tmp_path, monkeypatch
):
    # SQLite, Celery eager, real commits: each queued command runs once the one before has committed
    # (the resignation's caller waits for them all, as it waited for the one long command), and
    # each from the same depth of the stack, however many there are.
    import base64
    import os

    from tests.league.test_demo_on_sqlite import _manage

    monkeypatch.setenv("BOT_MOVES_PER_COMMAND", "5")
    (tmp_path / "checkpoint.key").write_text(base64.b64encode(os.urandom(32)).decode())
    _manage(tmp_path, "migrate", "--noinput", "-v0")
    report = json.loads(_manage(tmp_path, "shell", "-c", PLAY_ON_SQLITE).stdout.strip().splitlines()[-1])
    assert (report["status"], report["verdict"]) == ("finished", "verified"), report
    assert len(report["depths"]) >= 10 and len(set(report["depths"])) == 1, report


def test_a_delivery_for_a_match_that_does_not_exist_is_an_error_not_a_silent_nothing():
    # Only a stale head or bots not due are normal for a queued command; anything else (no such
    # match, a bot's move the rules refuse) must reach the task's retries and the logs.
    with pytest.raises(services.MatchError) as refused:
        services.match_bots_move(match_id=uuid.uuid4(), head_seq=1)
    assert refused.value.code == "match_not_found"


@pytest.mark.parametrize("value", ["0", "-5"])
def test_a_server_refuses_to_start_with_a_bound_under_one_and_says_why(value):
    # With 0 no command would ever move a bot: every game with a bot would stall at its first turn.
    from tests.hardening.test_deployment import run_manage

    done = run_manage("check", env={"BOT_MOVES_PER_COMMAND": value})
    assert done.returncode != 0
    assert "ImproperlyConfigured: BOT_MOVES_PER_COMMAND must be at least 1" in done.stderr
