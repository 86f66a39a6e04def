"""Websocket frames are validated: whatever a client sends, it gets an error frame and keeps its
socket (issue 15, "Why": a JSON list, a string, binary or non-JSON frame closed the socket with a
server traceback; "Deliver" items 3 and 4: resync frames limited)."""

from __future__ import annotations

import types

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from matches import consumers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@database_sync_to_async
def a_duel():
    from django.contrib.auth import get_user_model

    from tests.matches.helpers import new_duel

    User = get_user_model()
    return new_duel(User.objects.create_user("alice"), User.objects.create_user("bob"))


async def open_match_socket(match) -> tuple[WebsocketCommunicator, int]:
    socket = WebsocketCommunicator(application, f"/ws/matches/{match.id}/", headers=HEADERS)
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_json_from(timeout=10)
    return socket, first["head_seq"]


@pytest.mark.parametrize(
    "frame, code",
    [
        ({"text_data": "[1, 2, 3]"}, "not_an_object"),
        ({"text_data": '"resync"'}, "not_an_object"),
        ({"text_data": "42"}, "not_an_object"),
        ({"text_data": "null"}, "not_an_object"),
        ({"text_data": "resync please"}, "not_json"),
        ({"text_data": "{" * 50_000}, "frame_too_large"),
        ({"text_data": "[" * 2000 + "]" * 2000}, "not_json"),  # deeper than the parser recurses
        ({"bytes_data": b"\x00\x01\x02"}, "binary_frame"),
        ({"text_data": '{"type": "move", "card": 3}'}, "unknown_type"),
        ({"text_data": '{"no": "type"}'}, "unknown_type"),
    ],
)
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_bad_frame_on_a_match_socket_is_answered_with_an_error_and_the_socket_stays(frame, code):
    match = await a_duel()
    socket, head = await open_match_socket(match)
    if "text_data" in frame:
        await socket.send_to(text_data=frame["text_data"])
    else:
        await socket.send_to(bytes_data=frame["bytes_data"])
    answer = await socket.receive_json_from(timeout=10)
    assert answer["type"] == "error" and answer["code"] == code and answer["detail"]
    # Still open, and still serving: a resync answers with the current view.
    await socket.send_json_to({"type": "resync"})
    update = await socket.receive_json_from(timeout=10)
    assert update["type"] == "update" and update["head_seq"] == head
    await socket.disconnect(timeout=30)


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_resyncs_are_limited_to_one_a_second_and_the_socket_stays():
    match = await a_duel()
    socket, _ = await open_match_socket(match)
    await socket.send_json_to({"type": "resync"})
    assert (await socket.receive_json_from(timeout=10))["type"] == "update"
    # A client looping on resync made the server replay its whole view each time.
    for _ in range(5):
        await socket.send_json_to({"type": "resync"})
    answers = [await socket.receive_json_from(timeout=10) for _ in range(5)]
    assert [a.get("code") for a in answers] == ["throttled"] * 5
    await socket.disconnect(timeout=30)


@pytest.mark.parametrize("frame", ["[]", "not json", '{"type": "resync"}'])
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_stream_socket_answers_any_frame_with_an_error_and_stays_open(frame):
    socket = WebsocketCommunicator(
        application, "/ws/streams/tournament:0f0f0f0f-0000-4000-8000-000000000000/", headers=HEADERS
    )
    connected, _ = await socket.connect()
    assert connected
    await socket.send_to(text_data=frame)
    answer = await socket.receive_json_from(timeout=10)
    assert answer["type"] == "error"
    await socket.send_to(bytes_data=b"\xff")
    assert (await socket.receive_json_from(timeout=10))["code"] == "binary_frame"
    await socket.disconnect(timeout=30)


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_database_fault_during_an_update_is_an_error_frame_and_the_next_update_catches_up(monkeypatch):
    from django.db import OperationalError

    from matches import live

    match = await a_duel()
    socket, head = await open_match_socket(match)
    real = live.update_for

    def dropped(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(live, "update_for", dropped)
    await socket.send_json_to({"type": "resync"})
    answer = await socket.receive_json_from(timeout=10)
    assert answer["type"] == "error" and answer["code"] == "database_unavailable"
    monkeypatch.setattr(live, "update_for", real)
    await socket.send_to(text_data="[]")  # still open: it answers
    assert (await socket.receive_json_from(timeout=10))["code"] == "not_an_object"
    await socket.disconnect(timeout=30)


async def answers_until_closed(socket: WebsocketCommunicator) -> tuple[list[dict], dict | None]:
    """Every frame the socket is sent, up to and with its close (None if it stays open)."""
    import json

    answers = []
    while not await socket.receive_nothing(timeout=1):
        output = await socket.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return answers, output
        answers.append(json.loads(output["text"]))
    return answers, None


@pytest.mark.parametrize("path", ["match", "/ws/streams/tournament:0f0f0f0f-0000-4000-8000-000000000000/"])
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_socket_that_floods_frames_is_answered_a_few_times_then_closed_while_others_are_served(path):
    match = await a_duel()
    watcher, _ = await open_match_socket(match)
    if path == "match":
        flooder, _ = await open_match_socket(match)
    else:
        flooder = WebsocketCommunicator(application, path, headers=HEADERS)
        assert (await flooder.connect())[0]
    for _ in range(500):
        await flooder.send_to(text_data='{"type": "ping"}')
    answers, closed = await answers_until_closed(flooder)
    # A page sends a resync now and then; five hundred frames at once are no page's. They cost the
    # server a parse and an answer each, on the loop every socket of the process shares: past a
    # small burst the socket is told why and closed (its page, if it is one, reconnects).
    assert closed == {"type": "websocket.close", "code": 4429}
    assert len(answers) <= consumers.FRAME_BURST + 1
    assert answers[-1]["code"] == "too_many_frames" and answers[-1]["detail"]
    await flooder.disconnect(timeout=30)
    # The match's other socket is served as before.
    await watcher.send_json_to({"type": "resync"})
    assert (await watcher.receive_json_from(timeout=10))["type"] == "update"
    await watcher.disconnect(timeout=30)


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_page_asking_once_a_second_is_never_cut_off(monkeypatch):
    # The consumers' clock only (asyncio's own stays real), a second a frame.
    clock = [1000.0]
    monkeypatch.setattr(consumers, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    match = await a_duel()
    socket, _ = await open_match_socket(match)
    for _ in range(3 * consumers.FRAME_BURST):
        clock[0] += 1.0
        await socket.send_json_to({"type": "resync"})
        assert (await socket.receive_json_from(timeout=10))["type"] == "update"
    await socket.disconnect(timeout=30)
