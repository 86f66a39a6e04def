"""What a command's broadcast from memory asks the database while it builds its frames (issue 17,
P5): the seats' labels name each seat's partners, and the command read its seats without them,
so every frame's summary asked for the partners of every seat (six queries a move in a duel, in
the request that the spectators' frame waits on)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import live, tasks
from matches.models import Match, Seat

from .helpers import first_legal, fresh, new_duel, post_action

pytestmark = pytest.mark.django_db(transaction=True)


def frames_and_queries(monkeypatch) -> list[tuple[list[tuple[str, str]], list[str]]]:
    """Each broadcast's frames ((group, text) in order) with the queries run while they were built."""
    sent, capture = [], []
    held = live.frames_held

    def frames_held(**kwargs):
        capture.append(CaptureQueriesContext(connection))
        capture[-1].__enter__()
        return held(**kwargs)

    def record(layer, match_id, frames):
        texts = [(live.viewer_group(match_id, s), live.frame_message(f)["text"]) for s, f in frames]
        queries = capture.pop()
        queries.__exit__(None, None, None)
        sent.append((texts, [q["sql"] for q in queries.captured_queries]))

    def read_back(**kwargs):
        raise AssertionError(f"the broadcast read the match back: {kwargs}")

    monkeypatch.setattr(live, "frames_held", frames_held)
    monkeypatch.setattr(live, "send_frames", record)
    monkeypatch.setattr(live, "broadcast_match", read_back)
    monkeypatch.setattr(tasks.verify_match, "delay", lambda match_id: None)
    return sent


def read_frames(match: Match, after: int) -> list[tuple[str, str]]:
    return [
        (live.viewer_group(match.pk, seat), live.frame_message(frame)["text"])
        for seat, frame in live._frames_read(fresh(match), after)
    ]


def play(match, clients, sent, moves: int) -> None:
    for _ in range(moves):
        before = fresh(match).state_seq
        seat = next(s for s in clients[0].get(f"/api/matches/{match.id}/").json()["to_move"] if s in clients)
        assert post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0]).status_code == 201
        frames, queries = sent.pop()
        assert not sent
        assert frames == read_frames(match, before)
        yield queries


def test_a_moves_frames_ask_nothing_when_no_seat_has_partners(make_user, client_for, monkeypatch):
    # The command's read of its seats told that none has partners (services.match_seats).
    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    clients = {0: client_for(alice), 1: client_for(bob)}
    sent = frames_and_queries(monkeypatch)
    for queries in play(match, clients, sent, 4):
        assert queries == []


def team_duel(make_user):
    """A duel whose seat 0 is a team: alice with carol as her partner, against bob."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = new_duel(alice, bob)
    Seat.objects.get(match=match, index=0).partners.add(carol)
    return match, alice, bob, carol


def test_a_teams_partners_are_read_once_for_all_the_frames_and_named_in_each(make_user, client_for, monkeypatch):
    match, alice, bob, _carol = team_duel(make_user)
    clients = {0: client_for(alice), 1: client_for(bob)}
    sent = frames_and_queries(monkeypatch)
    for queries in play(match, clients, sent, 3):
        assert len(queries) == 1, queries
    assert "alice & carol" in read_frames(match, 0)[0][1]


def test_a_partner_still_acts_for_a_teams_seat(make_user, client_for, monkeypatch):
    match, _alice, bob, carol = team_duel(make_user)
    clients = {0: client_for(carol), 1: client_for(bob)}
    sent = frames_and_queries(monkeypatch)
    for queries in play(match, clients, sent, 3):
        assert len(queries) == 1, queries
