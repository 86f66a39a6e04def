"""The ruling "Leaving": a seat that resigns or runs out of time while two other seats still play
leaves the game, and the others play on to the game's own end; the match is not closed. The event
says so (``"plays_on": true``), the log line too, the seat's clock stops and the next mover's runs,
a bot that now moves moves, and at the end the leavers place below those who played on. An engine
version whose ``leave`` does not play on ends the match as before."""

from __future__ import annotations

import random
import uuid

import pytest

from audit.matchverify import verify_match_stream
from engines import registry
from engines.base import CHANCE, Engine
from matches import services
from matches.models import Event, Match, MatchLog
from matches.verification import match_verify

from .helpers import fresh
from .test_resign import records_of
from .test_time_controls import FISCHER_60, clock  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(make_user):
    return make_user("dave")


def three_wizards(users, **kwargs) -> Match:
    return services.match_create(
        game="dueling-wizards", seats=[services.SeatSpec(user=u) for u in users], created_by=users[0], **kwargs
    )


def play_to_the_end(match: Match, users, seed: int = 0, limit: int = 2000) -> Match:
    """Every seat to move plays a random legal action (a fixed seed) until the match is over."""
    rng = random.Random(seed)
    for _ in range(limit):
        m = fresh(match)
        if m.status == Match.Status.FINISHED:
            return m
        engine = registry.get(m.game, m.engine_version)
        seat = engine.to_move(m.state)[0]
        assert seat != CHANCE
        action = rng.choice(engine.legal_actions(m.state, seat))
        services.match_act(match_id=m.id, user=users[seat], seat=seat, action=action, expected_seq=m.state_seq)
    raise AssertionError("the match did not end")


def last_events(match: Match, count: int) -> list[Event]:
    return list(Event.objects.filter(stream_id=match.stream_id).order_by("-seq")[:count])[::-1]


def test_a_wizard_who_resigns_a_duel_of_three_leaves_it_and_the_two_others_play_on_to_its_end(
    alice, bob, carol, client_for, django_capture_on_commit_callbacks
):
    users = [alice, bob, carol]
    match = three_wizards(users)
    assert match.engine_version == "3"
    with django_capture_on_commit_callbacks(execute=True):
        done = services.match_resign(match_id=match.id, user=bob, expected_seq=match.state_seq)
    m = fresh(done.match)
    assert m.status == Match.Status.LIVE and m.result is None
    (resigned,) = last_events(m, 1)
    assert (resigned.type, resigned.data) == ("match.resigned", {"seat": 1, "plays_on": True})
    assert MatchLog.objects.get(match=m, seq=resigned.seq).text == "bob resigned. The others play on."
    seats = client_for(alice).get(f"/api/matches/{m.id}/").json()["seats"]
    assert [(s["in_game"], s["left"]) for s in seats] == [(True, None), (False, "resigned"), (True, None)]
    # Bob may neither move nor resign again; the two others play on.
    again = client_for(bob).post(
        f"/api/matches/{m.id}/resign/", {"expected_seq": m.state_seq, "event_id": str(uuid.uuid4())}, format="json"
    )
    assert again.status_code == 409 and again.json()["code"] == "seat_out_of_game"
    with django_capture_on_commit_callbacks(execute=True):
        m = play_to_the_end(m, users)
    # The leaver places last, below both who played on; the stream and the platform verify it.
    assert m.result["placements"][1] == 3 and sorted(m.result["placements"][s] for s in (0, 2)) in ([1, 2], [1, 1])
    assert verify_match_stream(records_of(m)).verified
    assert fresh(m).verdict == Match.Verdict.VERIFIED
    assert match_verify(match_id=m.id).verified
    seats = client_for(alice).get(f"/api/matches/{m.id}/").json()["seats"]
    assert [s["left"] for s in seats] == [None, "resigned", None]


def test_a_bot_that_moves_once_a_person_left_moves_at_once(alice, bob):
    match = services.match_create(
        game="dueling-wizards",
        seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob), services.SeatSpec(bot="random")],
        created_by=alice,
    )
    engine = registry.get("dueling-wizards")
    assert engine.to_move(match.state) == [1, 2]  # the bot waits for bob's defence
    done = services.match_resign(match_id=match.id, user=bob, expected_seq=match.state_seq)
    resigned, bot = last_events(done.match, 2)
    assert resigned.type == "match.resigned" and (bot.type, bot.actor) == ("action", "bot:random")
    assert engine.to_move(fresh(match).state) == [0]


def test_a_version_that_does_not_play_on_ends_the_match_as_before(alice, bob, carol, monkeypatch):
    # A match created while version 2 was the newest, as every match made before the ruling was.
    monkeypatch.setitem(registry._LATEST, "dueling-wizards", "2")
    match = three_wizards([alice, bob, carol])
    assert match.engine_version == "2"
    done = services.match_resign(match_id=match.id, user=bob, expected_seq=match.state_seq)
    m = fresh(done.match)
    assert m.status == Match.Status.FINISHED
    assert m.result == {
        "placements": [1, 2, 1],
        "scores": [0, 0, 0],
        "winners": [0, 2],
        "reason": "resigned",
        "resigned": 1,
    }
    resigned = Event.objects.get(stream_id=m.stream_id, type="match.resigned")
    assert resigned.data == {"seat": 1}
    assert m.left == [] and match_verify(match_id=m.id).verified


def test_with_one_other_left_a_resignation_ends_the_match_and_the_earlier_leaver_stays_below(alice, bob, carol):
    match = three_wizards([alice, bob, carol])
    services.match_resign(match_id=match.id, user=carol, expected_seq=match.state_seq)
    m = fresh(match)
    done = services.match_resign(match_id=m.id, user=alice, expected_seq=m.state_seq)
    m = fresh(done.match)
    assert m.status == Match.Status.FINISHED
    assert m.result["placements"] == [2, 1, 3] and m.result["resigned"] == 0
    assert Event.objects.filter(stream_id=m.stream_id, type="match.resigned").last().data == {"seat": 0}
    assert match_verify(match_id=m.id).verified


def test_two_casters_leave_a_game_of_four_one_after_the_other_and_the_later_one_places_higher(alice, bob, carol, dave):
    users = [alice, bob, carol, dave]
    match = services.match_create(
        game="spellcaster", seats=[services.SeatSpec(user=u) for u in users], created_by=alice
    )
    assert match.engine_version == "2"
    services.match_resign(match_id=match.id, user=dave, expected_seq=fresh(match).state_seq)
    services.match_resign(match_id=match.id, user=bob, expected_seq=fresh(match).state_seq)
    m = fresh(match)
    assert m.status == Match.Status.LIVE and m.left == [None, "resigned", None, "resigned"]
    engine = registry.get("spellcaster")
    assert [engine.in_game(m.state, s) for s in range(4)] == [True, False, True, False]
    # Two play on: the next resignation ends the match, both leavers keeping their places below.
    done = services.match_resign(match_id=m.id, user=carol, expected_seq=m.state_seq)
    m = fresh(done.match)
    assert m.status == Match.Status.FINISHED
    assert m.result["placements"] == [1, 3, 2, 4] and m.result["winners"] == [0]
    assert match_verify(match_id=m.id).verified


def test_a_claim_on_time_in_a_duel_of_three_plays_on_and_the_next_seats_clock_runs(
    alice,
    bob,
    carol,
    client_for,
    clock,  # noqa: F811
):
    users = [alice, bob, carol]
    match = three_wizards(users, time_control=FISCHER_60)
    engine = registry.get("dueling-wizards")
    # Bob defends at once; carol lets her minute run out.
    card = match.state["hands"][1][0]
    services.match_act(
        match_id=match.id, user=bob, seat=1, action={"type": "defend", "card": card}, expected_seq=match.state_seq
    )
    clock.advance(61)
    m = fresh(match)
    claimed = client_for(alice).post(
        f"/api/matches/{m.id}/timeout/", {"expected_seq": m.state_seq, "event_id": str(uuid.uuid4())}, format="json"
    )
    assert claimed.status_code == 201, claimed.json()
    m = fresh(match)
    (timeout,) = last_events(m, 1)
    assert (timeout.type, timeout.data) == ("match.timeout", {"seat": 2, "plays_on": True})
    assert MatchLog.objects.get(match=m, seq=timeout.seq).text == "carol ran out of time. The others play on."
    assert m.status == Match.Status.LIVE and not engine.in_game(m.state, 2)
    # Every defence is down: the attacker (alice) moves now, and her clock runs, not carol's.
    assert engine.to_move(m.state) == [0]
    summary = client_for(bob).get(f"/api/matches/{m.id}/").json()
    assert summary["clocks"]["running"] == [0] and summary["seats"][2]["left"] == "timeout"
    clock.advance(10)
    assert client_for(bob).get(f"/api/matches/{m.id}/").json()["clocks"]["left"][0] == pytest.approx(50)
    m = play_to_the_end(m, users)
    assert m.result["placements"][2] == 3
    assert verify_match_stream(records_of(m)).verified


def test_the_replay_the_analysis_and_a_what_if_after_a_leave_see_the_seat_out(alice, bob, carol, client_for):
    from matches.analysis.services import analysis_ensure, sandbox_create

    users = [alice, bob, carol]
    match = three_wizards(users)
    services.match_resign(match_id=match.id, user=bob, expected_seq=match.state_seq)
    left_at = fresh(match).state_seq
    m = play_to_the_end(match, users, seed=1)
    # The replay page steps through the stream: after the resignation, bob is out.
    before = client_for(alice).get(f"/api/matches/{m.id}/state/", {"at": left_at - 1}).json()["view"]
    after = client_for(alice).get(f"/api/matches/{m.id}/state/", {"at": left_at}).json()["view"]
    assert before["players"][1]["alive"] and not after["players"][1]["alive"]
    assert analysis_ensure(match=m).data["seats"] == 3
    sandbox = sandbox_create(match=m, owner=alice, at=left_at, bot_seats=[0, 2], hand_chance=False)
    assert not sandbox.state["alive"][1]


PLAYS_ON = [e for e in registry.latest() if e.max_seats >= 3 and type(e).leave is not Engine.leave]


@pytest.mark.parametrize("engine", PLAYS_ON, ids=lambda e: f"{e.name}@{e.version}")
def test_every_game_that_plays_on_does_so_through_the_services_and_verifies(
    engine, alice, django_capture_on_commit_callbacks
):
    # A person and two bots: once the person resigns, nobody but bots is left, and they play the
    # game to its own end, BOT_MOVES_PER_COMMAND moves a command (the first with the resignation,
    # the rest queued after its commit: test_bot_chunks.py); the match verifies and the person is
    # placed last.
    seats = [services.SeatSpec(user=alice), services.SeatSpec(bot="random"), services.SeatSpec(bot="random")]
    match = services.match_create(game=engine.name, seats=seats, created_by=alice)
    match = fresh(match)
    if match.status == Match.Status.FINISHED or alice_out(match):
        pytest.fail("the bots' opening ended the game before the person could resign")
    with django_capture_on_commit_callbacks(execute=True):
        done = services.match_resign(match_id=match.id, user=alice, expected_seq=match.state_seq)
    match = fresh(done.match)
    assert match.status == Match.Status.FINISHED
    assert match.result["placements"][0] == 3 and sorted(match.result["placements"][1:]) in ([1, 2], [1, 1])
    assert match.left == ["resigned", None, None]
    resigned = Event.objects.get(stream_id=match.stream_id, type="match.resigned")
    assert resigned.data == {"seat": 0, "plays_on": True}
    assert match_verify(match_id=match.id).verified


def alice_out(match: Match) -> bool:
    return not registry.get(match.game, match.engine_version).in_game(match.state, 0)


def test_a_caster_who_left_a_game_at_a_real_table_enters_none_of_its_random_outcomes(alice, bob, carol, client_for):
    # At a real table whoever enters a public roll chooses it: a seat that left plays no more, so it
    # must not pick the die that decides who goes first (SpellCaster L90), or any other outcome.
    users = [alice, bob, carol]
    match = services.match_create(
        game="spellcaster",
        seats=[services.SeatSpec(user=u) for u in users],
        created_by=alice,
        mode=Match.Mode.TABLETOP,
    )
    services.match_resign(match_id=match.id, user=bob, expected_seq=fresh(match).state_seq)
    engine = registry.get("spellcaster")
    for seat in (0, 2):
        m = fresh(match)
        action = engine.legal_actions(m.state, seat)[0]
        services.match_act(match_id=m.id, user=users[seat], seat=seat, action=action, expected_seq=m.state_seq)
    m = fresh(match)
    assert engine.to_move(m.state) == [CHANCE] and engine.chance(m.state)["label"] == "Who goes first"
    # The page offers bob no entry: it waits on the two still playing.
    assert client_for(bob).get(f"/api/matches/{m.id}/").json()["chance_entered_by"] == [0, 2]
    body = {"seat": 1, "chance": [1], "expected_seq": m.state_seq, "event_id": str(uuid.uuid4())}
    refused = client_for(bob).post(f"/api/matches/{m.id}/actions/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "seat_out_of_game", refused.json()
    assert fresh(m).state_seq == m.state_seq
    # A player still in the game enters it.
    body = {**body, "seat": 0, "event_id": str(uuid.uuid4())}
    assert client_for(alice).post(f"/api/matches/{m.id}/actions/", body, format="json").status_code == 201


def test_when_every_clock_of_a_game_of_four_runs_out_at_once_the_sweep_takes_one_seat_a_time(
    alice,
    bob,
    carol,
    dave,
    clock,  # noqa: F811
):
    # SpellCaster opens with a secret allocation every caster makes at once: four clocks run together.
    users = [alice, bob, carol, dave]
    match = services.match_create(
        game="spellcaster",
        seats=[services.SeatSpec(user=u) for u in users],
        created_by=alice,
        time_control=FISCHER_60,
    )
    clock.advance(61)
    engine = registry.get("spellcaster")
    # Each sweep claims once: two seats leave while two others still play, the third claim ends it.
    assert [services.matches_claim_timeouts() for _ in range(4)] == [1, 1, 1, 0]
    m = fresh(match)
    timeouts = list(Event.objects.filter(stream_id=m.stream_id, type="match.timeout").order_by("seq"))
    seats = [t.data["seat"] for t in timeouts]
    assert len(set(seats)) == 3, "a seat was timed out twice"
    assert [t.data.get("plays_on") for t in timeouts] == [True, True, None]
    assert m.status == Match.Status.FINISHED and m.result["timed_out"] == seats[2]
    (stayer,) = {0, 1, 2, 3} - set(seats)
    # The one still playing first; the last out second; of the two who left, the later higher.
    assert [m.result["placements"][s] for s in (stayer, seats[2], seats[1], seats[0])] == [1, 2, 3, 4]
    assert [engine.in_game(m.state, s) for s in seats[:2]] == [False, False]
    assert verify_match_stream(records_of(m)).verified
    assert match_verify(match_id=m.id).verified


@pytest.mark.parametrize("published", [[None, "timeout", None], [None, None, None], [], ["resigned", "resigned", None]])
def test_a_published_record_of_who_left_that_differs_from_the_stream_is_disputed(alice, bob, carol, published):
    match = three_wizards([alice, bob, carol])
    services.match_resign(match_id=match.id, user=bob, expected_seq=fresh(match).state_seq)
    done = services.match_resign(match_id=match.id, user=carol, expected_seq=fresh(match).state_seq)
    assert fresh(done.match).left == [None, "resigned", None] and match_verify(match_id=match.id).verified
    Match.objects.filter(pk=match.pk).update(left=published)
    verdict = match_verify(match_id=match.id)
    assert not verdict.verified and "having left the game differ" in verdict.reason
