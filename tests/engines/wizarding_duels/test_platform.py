"""Through the platform's services (database wd_wd): server-dealt autoplay verifies, and a tabletop
match takes every draw from the seat allowed to see it, entered as the cards that came up."""

import random

from engines.base import CHANCE
from engines.wizarding_duels import ENGINE
from matches.autoplay import autoplay_match
from matches.models import Match
from matches.services import MatchError, SeatSpec, match_act, match_create, match_record_chance
from matches.verification import match_verify


def test_server_dealt_bot_matches_finish_and_verify(db):
    for bot in ("random", "heuristic"):
        match = autoplay_match(game="wizarding-duels", seats=2, bot=bot)
        assert match.status == Match.Status.FINISHED
        assert match_verify(match_id=match.id).verified


def test_a_tabletop_match_takes_each_draw_from_the_seat_that_may_see_it(db, alice, bob):
    match = match_create(
        game="wizarding-duels",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
        created_by=alice,
        mode=Match.Mode.TABLETOP,
    )
    users = {0: alice, 1: bob}
    rng = random.Random(7)
    private_refused = False
    for _ in range(5000):
        m = Match.objects.get(pk=match.pk)
        state = m.state
        to_move = ENGINE.to_move(state)
        if not to_move:
            break
        if to_move == [CHANCE]:
            spec = ENGINE.chance(state)
            vis = spec.get("visible_to", "all")
            seat = vis[0] if isinstance(vis, list) else 0
            if isinstance(vis, list) and not private_refused:
                try:
                    match_record_chance(
                        match_id=m.id, user=users[1 - seat], seat=1 - seat, outcome=[0], expected_seq=m.state_seq
                    )
                except MatchError as exc:
                    private_refused = exc.code == "outcome_not_yours"
            if spec["kind"] == "draw":
                pool = ENGINE.draw_pool(state)
                picks = sorted(range(len(pool)), key=lambda _: rng.random())[: spec["count"]]
                outcome = {"cards": [pool[i] for i in picks]}
            else:
                outcome = [rng.randint(lo, hi) for lo, hi in spec["dice"]]
            match_record_chance(match_id=m.id, user=users[seat], seat=seat, outcome=outcome, expected_seq=m.state_seq)
        else:
            seat = to_move[0]
            action = ENGINE.bot_action("random", state, seat, rng)
            match_act(match_id=m.id, user=users[seat], seat=seat, action=action, expected_seq=m.state_seq)
    m = Match.objects.get(pk=match.pk)
    assert m.status == Match.Status.FINISHED and private_refused
    assert ENGINE.result(m.state)["placements"] in ([1, 1], [1, 2], [2, 1])
