"""Emails for the round's byes and for the organiser's pairing edits: whoever sits a round out is
told so (with what the bye is worth), and a swap or a moved bye tells each player whose opponent
changed who they play now. Sent through the outbox after the commit, like the paired round's."""

from __future__ import annotations

import pytest
from django.core import mail

from league.tournaments import services
from matches.commands import AT_HEAD

from .helpers import field, lower_id_wins, open_tournament, people, pid, settle, state

pytestmark = pytest.mark.django_db


def with_addresses(users):
    for u in users:
        u.email = f"{u.username}@example.org"
        u.save()
    return users


@pytest.fixture
def organiser():
    return people("org")[0]


def by_recipient():
    return {m.to[0]: m for m in mail.outbox}


def round_records(t, n):
    s = state(t)
    return [s["pairings"][k] for k in s["rounds"][n - 1]["pairings"]]


def names_of(users):
    return {pid(u): u.username for u in users}


def test_the_player_with_the_rounds_bye_is_told_they_sit_it_out_and_what_it_is_worth(
    organiser, django_capture_on_commit_callbacks
):
    players = with_addresses(field(5))
    with django_capture_on_commit_callbacks(execute=True):
        t = open_tournament(organiser, "swiss", players, start=True, rounds=3)
    [bye] = [r for r in round_records(t, 1) if len(r["players"]) == 1]
    holder = names_of(players)[bye["players"][0]]
    sent = by_recipient()
    assert sorted(sent) == sorted(u.email for u in players)  # the four paired and the one with the bye
    message = sent[f"{holder}@example.org"]
    assert "round 1, you have a bye" in message.subject
    assert "worth 1 point" in message.body
    assert f"/tournaments/{t.id}/players/{holder}/" in message.body
    others = [m for to, m in sent.items() if to != f"{holder}@example.org"]
    assert all("you play" in m.subject for m in others)


def test_a_requested_bye_is_confirmed_with_its_configured_worth(organiser, django_capture_on_commit_callbacks):
    players = with_addresses(field(4))
    t = open_tournament(organiser, "swiss", players, start=True, rounds=3, requested_bye_points="1/2")
    away = players[0]
    services.tournament_bye_request(tournament=t, user=away, round=2, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)
    message = by_recipient()[away.email]
    assert "round 2, you have a bye" in message.subject
    assert "the bye you asked for, worth 0.5 points" in message.body


def test_a_swap_tells_the_four_players_their_new_opponents_and_nobody_else(
    organiser, django_capture_on_commit_callbacks
):
    players = with_addresses(field(6))
    t = open_tournament(organiser, "swiss", players, start=True, rounds=3)
    first, second, third = sorted(round_records(t, 1), key=lambda r: r["board"])
    a, b = first["players"][0], second["players"][0]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_pairing_swap(
            tournament=t, by=organiser, round=1, players=[a, b], reason="Clubmates", expected_seq=AT_HEAD
        )
    names = names_of(players)
    moved = {*first["players"], *second["players"]}
    sent = by_recipient()
    assert sorted(sent) == sorted(f"{names[p]}@example.org" for p in moved)  # the third table is not disturbed
    for record in round_records(t, 1):
        if set(record["players"]) & moved:
            x, y = (names[p] for p in record["players"])
            assert f"you play {y}" in sent[f"{x}@example.org"].subject
            assert f"you play {x}" in sent[f"{y}@example.org"].subject


def test_moving_the_bye_tells_its_new_holder_and_pairs_the_old_one(organiser, django_capture_on_commit_callbacks):
    players = with_addresses(field(5))
    t = open_tournament(organiser, "swiss", players, start=True, rounds=3)
    records = round_records(t, 1)
    [bye] = [r for r in records if len(r["players"]) == 1]
    old_holder = bye["players"][0]
    chosen = next(r for r in records if len(r["players"]) == 2)["players"][0]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_bye_set(
            tournament=t, by=organiser, round=1, player=chosen, reason="Leaves early", expected_seq=AT_HEAD
        )
    names = names_of(players)
    sent = by_recipient()
    assert "round 1, you have a bye" in sent[f"{names[chosen]}@example.org"].subject
    assert "round 1, you play" in sent[f"{names[old_holder]}@example.org"].subject
    assert len(sent) == 3  # the new bye holder, the old one and the opponent they now play
