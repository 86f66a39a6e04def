"""A live frame depends on nothing its viewers may not see: the spectators' frame, built for the
match as it is and for the same match with everything hidden from spectators dealt again (``resample_hidden``), it is
the same text, byte for byte, so neither its content nor its length tells a spectator anything
(and each seat's frame the same, for what is hidden from that seat). The engines' views, specs and
log lines are held to this one by one in tests/engines/test_conformance.py; this holds the whole
frame the broadcast sends: summary, events, log, view."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model

from engines import registry
from matches import live
from matches.models import Match
from matches.services import SeatSpec, match_act, match_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("game", ["dueling-wizards", "annihilageddon"])
@pytest.mark.parametrize("moves", [0, 3, 8])
def test_each_viewers_frame_is_the_same_text_whatever_is_hidden_from_them(game, moves):
    User = get_user_model()
    players = [User.objects.create_user(name) for name in ("alice", "bob")]
    match = match_create(game=game, seats=[SeatSpec(user=u) for u in players], created_by=players[0])
    engine = registry.get(game, Match.objects.get(pk=match.pk).engine_version)
    rng = random.Random(f"{game}:{moves}")
    for _ in range(moves):
        match = Match.objects.get(pk=match.pk)
        seat = engine.to_move(match.state)[0]
        action = rng.choice(engine.legal_actions(match.state, seat))
        match_act(match_id=match.id, user=players[seat], seat=seat, action=action, expected_seq=match.state_seq)
    match = Match.objects.get(pk=match.pk)
    assert match.status != Match.Status.FINISHED
    frames = {viewer: json.dumps(frame) for viewer, frame in live.frames_for(match).items()}
    for viewer in frames:  # the spectators (None), then each seat: what is hidden from that viewer
        dealt_again = 0
        for _ in range(10):
            other = Match.objects.get(pk=match.pk)
            other.state = engine.resample_hidden(match.state, viewer, rng)
            dealt_again += other.state != match.state
            assert json.dumps(live.frames_for(other)[viewer]) == frames[viewer]
        assert dealt_again  # built over other hidden cards, not the same ones
