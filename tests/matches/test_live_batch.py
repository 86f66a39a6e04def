"""A batch of verdicts (``matches_verify``, issue 17, P6) is broadcast as one small verdict frame
per match to the match's spectators and to each seat, not every seat's summary and view: a
verdict adds no event, so the verdict is all an open page has to change. Sockets pass the frame
on; a socket that connects later reads the verdict with the rest of the match."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from matches import live, selectors
from matches.autoplay import autoplay_match
from matches.models import Match
from matches.verification import matches_verify

from .helpers import fresh, new_duel
from .test_live import connect

pytestmark = pytest.mark.usefixtures("close_thread_connections")


class RecordingLayer:
    def __init__(self):
        self.sent = []

    async def group_send(self, group, message):
        self.sent.append((group, message))


def unverified(match: Match) -> Match:
    # Finished and verified on commit (tasks run eagerly here): set back to pending, as a season
    # played with verification held back leaves its streams for matches_verify.
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.PENDING, verified_at=None)
    return fresh(match)


@pytest.mark.django_db
def test_a_batch_of_verdicts_sends_each_match_one_verdict_frame_per_viewer_group(make_user, monkeypatch):
    alice, bob, cyd = make_user("alice"), make_user("bob"), make_user("cyd")
    finished = [unverified(autoplay_match(game="dueling-wizards", seats=2)) for _ in range(2)]
    three = fresh(new_duel(alice, bob, cyd))
    sent = RecordingLayer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: sent)
    monkeypatch.setattr(live, "BROADCAST_CHUNK", 2)  # the matches read and sent in chunks
    # The outbox message of matches_verify, delivered after its commit, carries every match.
    matches_verify(match_ids=[m.pk for m in finished])
    items = [{"match_id": str(m.pk), "head_seq": m.state_seq, "after": m.state_seq} for m in finished]
    sent.sent.clear()
    live.broadcast_matches(
        items=[*items, {"match_id": "00000000-0000-0000-0000-000000000000", "head_seq": 1, "after": 0}]
        + [{"match_id": str(three.pk), "head_seq": three.state_seq, "after": three.state_seq}]
    )

    expected_groups = [
        group
        for m in [*finished, three]
        for group in [live.group_name(m.pk), *(live.seat_group(m.pk, s.index) for s in m.seats.all())]
    ]
    assert [group for group, _ in sent.sent] == expected_groups  # no group twice, the missing match skipped
    for match in [*finished, three]:
        match = fresh(match)
        frames = [message["frame"] for group, message in sent.sent if group.startswith(live.group_name(match.pk))]
        assert all(f == frames[0] for f in frames)  # built once, no seat's secrets in it
        frame = frames[0]
        assert frame["type"] == "verdict" and frame["match_id"] == str(match.pk)
        assert frame["after"] == frame["head_seq"] == match.state_seq
        assert frame["events"] == [] and frame["log"] == [] and "view" not in frame
        # What the page would show after a reload: the summary's verification, the same.
        assert frame["verification"] == selectors.match_summary(match=match, seat=None)["verification"]
    assert sent.sent[0][1]["frame"]["verification"]["verdict"] == "verified"
    assert sent.sent[0][1]["frame"]["verification"]["verified_at"] is not None


@pytest.mark.django_db
def test_matches_verify_broadcasts_its_verdicts_after_its_commit(monkeypatch, django_capture_on_commit_callbacks):
    match = unverified(autoplay_match(game="dueling-wizards", seats=2))
    sent = RecordingLayer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: sent)
    with django_capture_on_commit_callbacks(execute=True):
        matches_verify(match_ids=[match.pk])
    verdicts = [m["frame"] for g, m in sent.sent if m["frame"]["type"] == "verdict"]
    assert [f["verification"]["verdict"] for f in verdicts] == ["verified"] * 3  # spectators, two seats
    assert all(m["frame"]["type"] == "verdict" for g, m in sent.sent)  # and no full frames besides


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_an_open_socket_gets_the_verdict_frame_and_one_connecting_later_reads_the_verdict(monkeypatch):
    match = await database_sync_to_async(lambda: unverified(autoplay_match(game="dueling-wizards", seats=2)))()
    watcher = await connect(match, after=match.state_seq)
    first = await watcher.receive_json_from(timeout=5)
    assert first["match"]["verification"]["verdict"] == "pending"

    await database_sync_to_async(matches_verify)(match_ids=[match.pk])
    frame = await watcher.receive_json_from(timeout=5)
    assert frame["type"] == "verdict" and frame["verification"]["verdict"] == "verified"
    assert frame["events"] == [] and frame["after"] == match.state_seq
    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()

    later = await connect(match, after=match.state_seq)
    update = await later.receive_json_from(timeout=5)
    assert update["type"] == "update" and update["match"]["verification"]["verdict"] == "verified"
    await later.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_batch_sends_only_to_the_groups_someone_watches_on_redis(monkeypatch):
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    layer = get_channel_layer()
    if not isinstance(layer, RedisChannelLayer):
        pytest.fail("Run with REDIS_URL set: the project's channel layer is channels-redis'.")
    watched, unwatched = [
        await database_sync_to_async(lambda: unverified(autoplay_match(game="dueling-wizards", seats=2)))()
        for _ in range(2)
    ]
    watcher = await connect(watched, after=watched.state_seq)
    await watcher.receive_json_from(timeout=5)
    groups = []
    real = layer.group_send

    async def spy(group, message):
        groups.append(group)
        await real(group, message)

    monkeypatch.setattr(layer, "group_send", spy)
    await database_sync_to_async(matches_verify)(match_ids=[unwatched.pk, watched.pk])

    frame = await watcher.receive_json_from(timeout=5)
    assert frame["type"] == "verdict" and frame["verification"]["verdict"] == "verified"
    assert frame["match_id"] == str(watched.pk)
    # Nobody holds the seats' sockets or watches the other match: one send, not six.
    assert groups == [live.group_name(watched.pk)]
    await watcher.disconnect()
