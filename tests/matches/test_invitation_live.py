"""The invitation page is told live that its invitation changed (issue 15, left over from Deliver
item 5: the inviter's page polled). Each answer is delivered through the outbox after its commit."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from matches.invitations import services
from matches.models import OutboxMessage
from matches.services import SeatSpec

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]


@database_sync_to_async
def three_way_invitation():
    from django.contrib.auth import get_user_model

    users = {n: get_user_model().objects.create_user(n, password=f"pw-{n}") for n in ("ann", "ben", "cat", "dan")}
    invitation, _ = services.match_open(
        game="dueling-wizards",
        seats=[SeatSpec(user=users["ann"]), SeatSpec(user=users["ben"]), SeatSpec(user=users["cat"])],
        created_by=users["ann"],
        mode="server",
    )
    return invitation, users


@database_sync_to_async
def cookie(username: str) -> bytes:
    client = Client()
    assert client.login(username=username, password=f"pw-{username}")
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def follow(invitation, username: str | None) -> tuple[WebsocketCommunicator, bool, int | None]:
    from config.asgi import application

    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if username:
        headers.append((b"cookie", await cookie(username)))
    socket = WebsocketCommunicator(application, f"/ws/invitations/{invitation.id}/", headers=headers)
    connected, code = await socket.connect()
    return socket, connected, code


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_the_inviter_and_the_invitees_hear_of_every_answer_after_it_commits():
    invitation, users = await three_way_invitation()
    sockets = []
    for name in ("ann", "cat"):
        socket, connected, _ = await follow(invitation, name)
        assert connected
        sockets.append(socket)
    await database_sync_to_async(services.invitation_accept)(invitation_id=invitation.id, user=users["ben"])
    for socket in sockets:
        assert await socket.receive_json_from(timeout=10) == {"type": "changed"}
    await database_sync_to_async(services.invitation_decline)(invitation_id=invitation.id, user=users["cat"])
    for socket in sockets:
        assert await socket.receive_json_from(timeout=10) == {"type": "changed"}
    # Through the outbox: written with each answer, delivered after its commit.
    delivered = await database_sync_to_async(
        lambda: list(OutboxMessage.objects.filter(topic="invitation.changed").values_list("delivered_at", flat=True))
    )()
    assert len(delivered) == 2 and all(delivered)
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_nobody_else_can_follow_an_invitation():
    invitation, _ = await three_way_invitation()
    for name in ("dan", None):
        socket, connected, code = await follow(invitation, name)
        assert not connected and code == 4404
        # The refused consumer still waits for the disconnect a browser would send.
        await socket.disconnect()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_frame_sent_to_the_socket_is_answered_with_an_error_and_the_socket_stays():
    invitation, users = await three_way_invitation()
    socket, connected, _ = await follow(invitation, "ann")
    assert connected
    await socket.send_json_to({"type": "resync"})
    error = await socket.receive_json_from(timeout=10)
    assert error["type"] == "error" and error["code"] == "unknown_type"
    await database_sync_to_async(services.invitation_cancel)(invitation_id=invitation.id, user=users["ann"])
    assert await socket.receive_json_from(timeout=10) == {"type": "changed"}
    await socket.disconnect()
