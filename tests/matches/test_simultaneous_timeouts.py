"""When several seats moving at once have all run out, the one whose time ran out first loses.

Dueling Wizards' defences are simultaneous, so two defenders' clocks run together from different
times left. A claim (or the platform's sweep) made after both ran out used to time out the lower
seat, whichever ran out first: a wizard with time to spare lost to one who had none for longer.
In a duel of three the seat timed out leaves and the two others play on (the ruling "Leaving"):
the claims below time out the right seat, and the match, ended on time later, verifies.
"""

from __future__ import annotations

import pytest

from matches.models import Event, Match

from . import test_time_controls
from .helpers import fresh, post_action
from .test_time_controls import claim, match_verdict, timed_duel

pytestmark = pytest.mark.django_db

clock = test_time_controls.clock  # the platform's now, moved on by hand


def summary(client, match):
    return client.get(f"/api/matches/{match.id}/").json()


def timed_out(match) -> dict:
    """The data of the match's last claim on time."""
    return Event.objects.filter(stream_id=match.stream_id, type="match.timeout").order_by("-seq")[0].data


def end_on_time(client, match, clock) -> None:
    """Let every clock run out, claim after claim, until the match is over (two seats left: the next ends it)."""
    for _ in range(3):
        if fresh(match).status == Match.Status.FINISHED:
            return
        clock.advance(3600)
        assert claim(client, match).status_code == 201
    assert fresh(match).status == Match.Status.FINISHED


def play(users, client_for, match, seat):
    m = fresh(match)
    kind = "defend" if m.state["phase"] == "defend" else "attack"
    response = post_action(client_for(users[seat]), m, seat, {"type": kind, "card": m.state["hands"][seat][0]})
    assert response.status_code == 201, response.json()


def test_of_two_defenders_out_of_time_the_one_who_ran_out_first_loses(alice, bob, carol, client_for, clock):
    users = [alice, bob, carol]
    match = timed_duel(alice, bob, carol)
    assert summary(client_for(alice), match)["to_move"] == [1, 2]
    clock.advance(40)
    play(users, client_for, match, 2)  # carol takes 40 s over her defence
    clock.advance(5)
    play(users, client_for, match, 1)  # bob 45 s in all
    # Play on at once until two seats whose times differ are to move together.
    for _ in range(20):
        now = summary(client_for(alice), match)
        left = now["clocks"]["left"]
        if len(now["to_move"]) > 1 and len({left[s] for s in now["to_move"]}) > 1:
            break
        play(users, client_for, match, now["to_move"][0])
    else:
        pytest.fail("no two seats with different times left came to move together")
    first_out = min(now["to_move"], key=lambda s: left[s])
    clock.advance(max(left[s] for s in now["to_move"]) + 1)  # both have run out now

    won = claim(client_for(alice), match)
    assert won.status_code == 201, won.json()
    assert timed_out(match) == {"seat": first_out, "plays_on": True}, now
    end_on_time(client_for(alice), match, clock)
    assert match_verdict(match) == Match.Verdict.VERIFIED


def test_a_bot_waiting_on_a_person_who_stalls_never_loses_on_time(alice, bob, client_for, clock):
    # Bots move as soon as no person moves with them, so a bot defending beside a person waits on
    # that person, its clock running with theirs: the person who stalls must be the one who loses.
    from matches import services

    match = services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=alice), services.SeatSpec(bot="random"), services.SeatSpec(user=bob)],
        created_by=alice,
        time_control=test_time_controls.FISCHER_60,
    )
    assert summary(client_for(bob), match)["to_move"] == [1, 2]
    clock.advance(61)

    won = claim(client_for(alice), match)
    assert won.status_code == 201, won.json()
    assert timed_out(match) == {"seat": 2, "plays_on": True}
    end_on_time(client_for(alice), match, clock)
    assert 1 in fresh(match).result["winners"] and fresh(match).result["placements"][2] == 3
    assert match_verdict(match) == Match.Verdict.VERIFIED


def test_a_bot_that_waited_past_its_time_on_people_moves_and_the_match_still_verifies(alice, bob, client_for, clock):
    # In the verifier's replay the bot's clock runs while it waits on whoever defends beside it
    # (the server's stands: test_bot_clocks_stand_while_they_wait.py): alice's slow defence spends
    # 50 s of its minute, and bob, with time to spare, waits until the rest is out before he
    # defends. The bot then answers at once; its move must not make the match disputed (a loser
    # could void a result that way).
    from matches import services

    match = services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=alice), services.SeatSpec(bot="random"), services.SeatSpec(user=bob)],
        created_by=alice,
        time_control=test_time_controls.FISCHER_60,
    )
    users = [alice, None, bob]
    waited_with_alice = False
    for _ in range(40):
        now = summary(client_for(alice), match)
        to_move, left = set(now["to_move"]), now["clocks"]["left"]
        person = min(to_move - {1})
        if to_move == {0, 1} and not waited_with_alice:
            clock.advance(50)  # alice takes 50 s, and so does the bot waiting on her
            waited_with_alice = True
        elif to_move == {1, 2} and waited_with_alice and left[2] > 15:
            clock.advance(13)  # the 10 s the bot had left in the verifier's replay are out, bob's are not
            play(users, client_for, match, 2)
            break
        play(users, client_for, match, person)
    else:
        pytest.fail("the bot never came to wait on bob with more than 15 s left to him")
    seen = summary(client_for(alice), match)
    assert 1 not in seen["to_move"] and seen["clocks"]["left"][1] == 60  # the bot has moved, its clock standing

    clock.advance(200)
    ended = claim(client_for(alice), match)
    assert ended.status_code == 201, ended.json()
    assert timed_out(match)["seat"] != 1
    end_on_time(client_for(alice), match, clock)
    assert fresh(match).result.get("timed_out") != 1
    assert match_verdict(match) == Match.Verdict.VERIFIED
