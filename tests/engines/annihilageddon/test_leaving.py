"""A seat that leaves a game of three or more (RULING "Leaving", engines/base.py ``leave``): version 4
plays on without it, versions 1 to 3 do not (RULES.md, "A seat that leaves").

The rulebook is silent on a player leaving; the rulings lean on AN L320 (a player who avoids an
Attack "does not participate in the Attack text in any way", "does not pass or gain a card"), AN L147
and L280 (turns and effects go clockwise over the players in the game) and AN L183-189 (the end).
Leaves are made at every kind of moment of seeded random playouts: the active seat (in its main phase
and in the middle of its effects), a seat with a defence pending, a seat another question waits on, a
seat with nothing pending, during a draw and during setup."""

from __future__ import annotations

import json
import random

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction, canonical_json
from engines.chance import derive

from .helpers import E, act, choose, step_chance, table
from .test_bots_and_playouts import total_cards


def v4():
    return registry.get("annihilageddon", "4")


def _event(engine, st, rng, seed, n, bots):
    moving = engine.to_move(st)
    if moving == [CHANCE]:
        return {"kind": "chance", "outcome": derive(engine.chance(st), b"leave", str(seed), n)}
    seat = moving[0]
    return {"kind": "action", "seat": seat, "action": engine.bot_action(bots[seat], st, seat, rng)}


def _tokens_in_play(st):
    """Dead Wizard Tokens in the stack and held (None while a death has one in its hands)."""
    if any(f["pc"] < len(f["prog"]) and f["prog"][f["pc"]]["op"] == "_die" for f in st["stack"]):
        return None
    return st["dwt"]["count"] + sum(len(p["dwts"]) for p in st["players"])


def leave_checked(engine, st, seat):
    """``engine.leave`` with what every leave must keep: the input untouched, a JSON state, the seat
    out of the game and asked nothing, no card or token lost or made."""
    before = canonical_json(st)
    after = engine.leave(st, seat)
    assert canonical_json(st) == before, "leave changed the state it was given"
    assert after is not None
    assert json.loads(json.dumps(after)) == after
    assert not engine.in_game(after, seat)
    assert seat not in engine.to_move(after)
    assert total_cards(after) == total_cards(st)
    tokens = _tokens_in_play(after)
    if tokens is not None and _tokens_in_play(st) is not None:
        assert tokens == _tokens_in_play(st)
    assert seat in engine.view(after, None)["left"]
    # A draw only it would see (its deck, a setup deal) is withdrawn: no other seat takes its outcome.
    spec = engine.chance(after)
    assert spec is None or spec.get("visible_to") != [seat]
    return after


def _record(p):
    """A seat's record but its discard pile, as JSON."""
    return canonical_json({k: v for k, v in p.items() if k != "discard"})


def play_with_leaves(seats, seed, pick, leaves=1, bots=None, max_events=60000):
    """A random playout of version 4 in which ``pick(engine, state, n)`` names a seat to leave (or
    None), up to ``leaves`` times; played to the end. Returns (final state, [(seat, n) left], the
    leavers' player records as they left)."""
    engine = v4()
    bots = bots or ["random"] * seats
    rng = random.Random(seed)
    st = engine.setup({}, seats)
    gone: list[tuple[int, int]] = []
    frozen: dict[int, str] = {}
    for n in range(max_events):
        if len(gone) < leaves and engine.to_move(st):
            seat = pick(engine, st, n)
            if seat is not None and engine.in_game(st, seat):
                st = leave_checked(engine, st, seat)
                gone.append((seat, n))
                frozen[seat] = (
                    _record(st["players"][seat]),
                    list(st["players"][seat]["discard"]),
                    list(st["turn"]["borrowed"]),
                )
        moving = engine.to_move(st)
        if not moving:
            return st, gone, frozen
        for seat, _ in gone:
            assert seat not in moving
            pr = st["prompt"]
            assert pr is None or pr.get("seat") != seat
            with pytest.raises(IllegalAction):
                engine.bot_action("heuristic", st, seat, rng)
        event = _event(engine, st, rng, seed, n, bots)
        after = engine.apply(st, event)
        assert isinstance(engine.describe(st, event, after), str)
        # AN L320: out of the game, nothing reaches it and it does nothing: its cards, HP and tokens
        # stay as they were when it left. Only a card of its deck that a Wild Magic was playing as
        # it left comes back to its discard (AN L302), as it would have.
        for seat, _ in gone:
            record, discard, borrowed = frozen[seat]
            p = after["players"][seat]
            assert _record(p) == record, f"seat {seat} was touched after it left"
            assert p["discard"][: len(discard)] == discard
            assert all(cid in borrowed for cid in p["discard"][len(discard) :])
        st = after
    raise AssertionError(f"no end after {max_events} events")


def stayers_placements(engine, st, stayers):
    """The game's own placing (AN L195: VP, then Legends, then fewer tokens) among ``stayers``."""
    keys = {s: (-engine.vp(st, s), -engine.legends_owned(st, s), len(st["players"][s]["dwts"])) for s in stayers}
    return {s: 1 + sum(1 for o in stayers if keys[o] < keys[s]) for s in stayers}


def assert_placed_by_the_ruling(engine, st, gone):
    result = engine.result(st)
    seats = st["seats"]
    left = [s for s, _ in gone]
    stayers = [s for s in range(seats) if s not in left]
    own = stayers_placements(engine, st, stayers)
    for s in stayers:
        assert result["placements"][s] == own[s]
    # Below every seat that stayed; of two that left, the later one higher.
    for i, s in enumerate(left):
        assert result["placements"][s] == len(stayers) + len(left) - i
    assert result["winners"] == [s for s in stayers if own[s] == 1]
    assert result["left"] == left
    assert st["phase"] == "over" and engine.to_move(st) == []


# -- when the seat leaves ----------------------------------------------------------------------------


def active_seat(after):
    """The active seat, at the first moment from event ``after`` on that a turn is under way."""

    def pick(engine, st, n):
        return st["active"] if n >= after and st["phase"] == "turn" and st["active"] is not None else None

    return pick


def active_in_its_main_phase(after):
    def pick(engine, st, n):
        if n >= after and st["phase"] == "turn" and not st["stack"] and st["prompt"] is None and not st["need"]:
            return st["active"]
        return None

    return pick


def active_mid_effect(after):
    """The active seat while one of its cards or its end of turn is still resolving (a question or a draw)."""

    def pick(engine, st, n):
        if n >= after and st["phase"] == "turn" and st["stack"] and st["active"] is not None:
            return st["active"]
        return None

    return pick


def defending(after, answered=False):
    """A seat asked to defend (AN L209, L320), before it answered, or after (its answer still secret)."""

    def pick(engine, st, n):
        pr = st["prompt"]
        if n < after or pr is None or "seats" not in pr:
            return None
        seats = [s for s in pr["seats"] if (str(s) in pr["answers"]) == answered]
        return seats[-1] if seats else None

    return pick


def asked_off_turn(after):
    """A seat other than the active one that a single question waits on (a discard, a pass, a decline)."""

    def pick(engine, st, n):
        pr = st["prompt"]
        if n >= after and pr is not None and pr.get("seat") is not None and pr["seat"] != st["active"]:
            return pr["seat"]
        return None

    return pick


def passive(after):
    """A seat with nothing pending: neither active nor asked."""

    def pick(engine, st, n):
        if n < after or st["phase"] != "turn":
            return None
        busy = set(engine.to_move(st)) | {st["active"]}
        idle = [s for s in range(st["seats"]) if s not in busy and engine.in_game(st, s)]
        return idle[n % len(idle)] if idle else None

    return pick


def drawing(after):
    """A seat whose own private draw is due (the end of its turn, a card's draw)."""

    def pick(engine, st, n):
        return engine.drawing_privately(st) if n >= after else None

    return pick


def keeping(engine, st, n):
    """A seat whose setup keep is pending (AN L86-90)."""
    pr = st["prompt"]
    return pr["seat"] if st["phase"] == "setup" and pr is not None and n >= 4 else None


def dealt_to(engine, st, n):
    """A seat while its setup deal, seen only by it, is being drawn (AN L86-88)."""
    spec = engine.chance(st) if st["phase"] == "setup" and n >= 2 else None
    return spec["visible_to"][0] if spec is not None and isinstance(spec.get("visible_to"), list) else None


MOMENTS = {
    "active": active_seat(40),
    "active-main-phase": active_in_its_main_phase(120),
    "active-mid-effect": active_mid_effect(60),
    "defending": defending(30),
    "defended": defending(30, answered=True),
    "asked-off-turn": asked_off_turn(20),
    "passive": passive(50),
    "drawing": drawing(70),
    "setup-keep": keeping,
    "setup-deal": dealt_to,
}


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_a_seat_that_leaves_at_any_moment_is_out_and_the_others_play_to_the_end(moment, seats):
    for seed in range(3):
        st, gone, _ = play_with_leaves(seats, f"{moment}:{seats}:{seed}", MOMENTS[moment])
        assert len(gone) == 1, f"no {moment} moment came up (seed {seed})"
        assert_placed_by_the_ruling(v4(), st, gone)


@pytest.mark.parametrize("seats", [4, 5])
def test_two_seats_leave_and_the_later_leaver_places_above_the_earlier(seats):
    for seed in range(3):
        both = [active_seat(30), defending(90)]

        def pick(engine, st, n, both=both):
            gone = [s for s in range(st["seats"]) if not engine.in_game(st, s)]
            return both[len(gone)](engine, st, n)

        st, gone, _ = play_with_leaves(seats, f"two:{seats}:{seed}", pick, leaves=2)
        assert len(gone) == 2
        assert_placed_by_the_ruling(v4(), st, gone)


def test_the_heuristic_bot_plays_on_after_a_seat_leaves():
    st, gone, _ = play_with_leaves(4, "heuristic", active_seat(25), bots=["heuristic"] * 4)
    assert_placed_by_the_ruling(v4(), st, gone)


def test_without_a_round_bound_a_game_someone_left_ends_by_the_rulebook():
    """AN L183-189: the Legends, the main deck or the token stack still run out with fewer players
    (the stack keeps its 4 per player of the setup, AN L131), as between people (max_rounds null)."""
    engine = v4()
    for seed in range(2):
        rng = random.Random(seed)
        st = engine.setup({"max_rounds": None}, 4)
        for n in range(20000):
            if st["phase"] == "turn" and st["round"] == 2 and engine.in_game(st, 1):
                st = leave_checked(engine, st, 1)
            if not engine.to_move(st):
                break
            st = engine.apply(st, _event(engine, st, rng, f"no-bound:{seed}", n, ["heuristic"] * 4))
        assert st["phase"] == "over"
        assert st["end_reason"] in ("legends", "main_deck", "dead_wizard_tokens")
        assert_placed_by_the_ruling(engine, st, [(1, None)])


def test_the_same_playout_with_the_same_leave_ends_in_the_same_state():
    runs = [play_with_leaves(4, "again", defending(40))[0] for _ in range(2)]
    assert canonical_json(runs[0]) == canonical_json(runs[1])


# -- what leaving settles --------------------------------------------------------------------------


def _first(engine, seats, seed, want, bound=5000):
    """The first state of a random playout of version 4 where ``want(state)`` holds."""
    rng = random.Random(seed)
    st = engine.setup({}, seats)
    for n in range(bound):
        if want(st):
            return st
        st = engine.apply(st, _event(engine, st, rng, seed, n, ["random"] * seats))
    raise AssertionError("never came up")


def test_the_active_seat_leaving_in_its_main_phase_hands_the_turn_to_the_next_seat_still_in_the_game():
    """AN L147: turns go clockwise; the seat that left is passed over, and its turn ends with no
    end-of-turn texts and no draw: its hand stays its hand (RULES.md, "A seat that leaves")."""
    engine = v4()
    st = _first(
        engine, 4, "main", lambda s: s["phase"] == "turn" and not s["stack"] and not s["need"] and s["round"] > 1
    )
    seat = st["active"]
    hand = list(st["players"][seat]["hand"])
    after = leave_checked(engine, st, seat)
    assert after["active"] != seat or after["phase"] == "over"
    assert after["players"][seat]["hand"] == hand
    moving = engine.to_move(after)
    if moving != [CHANCE] and after["prompt"] is None:
        assert after["active"] == (seat + 1) % 4


def test_turns_pass_over_a_seat_that_left_and_rounds_still_count():
    """AN L147: clockwise over the seats still in the game; a round ends each time play passes the
    first player's seat, even when that seat has left."""
    engine = v4()
    st = _first(engine, 3, "rounds", lambda s: s["phase"] == "turn" and s["round"] == 2 and not s["stack"])
    st = leave_checked(engine, st, st["first"])
    rng = random.Random(3)
    actives = []
    rounds = []
    for n in range(4000):
        if not engine.to_move(st):
            break
        if st["active"] is not None and (not actives or actives[-1] != st["active"]):
            actives.append(st["active"])
            rounds.append(st["round"])
        st = engine.apply(st, _event(engine, st, rng, "rounds", n, ["random"] * 3))
    first = st["first"]
    assert first not in actives
    assert len(actives) > 4
    # Two seats in the game: each new turn of the seat after the first one's starts a new round.
    assert rounds == sorted(rounds) and rounds[-1] > rounds[0]


def test_a_seat_that_left_during_a_defense_window_is_no_victim_and_the_window_closes_when_the_rest_have_answered():
    """AN L320: a player who avoids an Attack "does not participate in the Attack text in any way"."""
    engine = v4()
    st = _first(
        engine,
        4,
        "window",
        lambda s: s["prompt"] is not None and "seats" in s["prompt"] and len(s["prompt"]["seats"]) >= 2,
    )
    pr = st["prompt"]
    seat = pr["seats"][0]
    after = leave_checked(engine, st, seat)
    if after["prompt"] is not None and "seats" in after["prompt"]:
        assert seat not in after["prompt"]["seats"]
        assert after["prompt"]["seats"] == [s for s in pr["seats"] if s != seat]
    assert canonical_json(after["players"][seat]["hand"]) == canonical_json(st["players"][seat]["hand"])


def test_a_seat_that_left_is_no_target_of_any_attack():
    """An Attack's "whom?" never offers a seat that left (AN L211-215 name the foes in the game)."""
    engine = v4()
    rng = random.Random(9)
    st = _first(engine, 4, "targets", lambda s: s["phase"] == "turn" and s["round"] > 1 and not s["stack"])
    gone = (st["active"] + 1) % 4
    st = leave_checked(engine, st, gone)
    asked = 0
    for n in range(6000):
        if not engine.to_move(st):
            break
        pr = st["prompt"]
        if pr is not None and pr["kind"] == "target":
            asked += 1
            assert gone not in pr["options"]
        if pr is not None and "seats" in pr:
            assert gone not in pr["seats"]
        st = engine.apply(st, _event(engine, st, rng, "targets", n, ["random"] * 4))
    assert asked > 0


def test_a_leave_with_only_one_other_seat_in_the_game_does_not_play_on():
    """RULING "Leaving": with one other seat still playing, the match ends at once (None)."""
    engine = v4()
    st = _first(engine, 3, "last", lambda s: s["phase"] == "turn" and not s["stack"])
    st = leave_checked(engine, st, (st["active"] + 1) % 3)
    assert engine.leave(st, st["active"]) is None
    two = _first(engine, 2, "two", lambda s: s["phase"] == "turn")
    assert engine.leave(two, 0) is None


def test_a_seat_cannot_leave_twice_or_after_the_end():
    engine = v4()
    st = _first(engine, 4, "twice", lambda s: s["phase"] == "turn")
    after = leave_checked(engine, st, 1)
    with pytest.raises(IllegalAction) as err:
        engine.leave(after, 1)
    assert err.value.code == "not_in_game"
    with pytest.raises(IllegalAction) as err:
        engine.leave(after, 7)
    assert err.value.code == "bad_seat"


def test_on_time_and_resignation_with_one_seat_left_keep_the_earlier_leavers_below():
    """RULING "Leaving": the last two seats end the match as today; those who left before place below."""
    engine = v4()
    st = _first(engine, 4, "ontime", lambda s: s["phase"] == "turn" and not s["stack"])
    st = leave_checked(engine, st, 0)
    st = leave_checked(engine, st, 2)
    res = engine.result_on_time(st, 1, 4)
    assert res["placements"] == [4, 2, 3, 1]
    assert res["winners"] == [3]
    assert res["timed_out"] == 1
    res = engine.result_on_resign(st, 3, 4)
    assert res["placements"] == [4, 1, 3, 2]
    assert res["winners"] == [1]
    assert res["resigned"] == 3


def test_a_spectator_and_every_seat_see_who_left():
    engine = v4()
    st = _first(engine, 4, "view", lambda s: s["phase"] == "turn")
    after = leave_checked(engine, st, 2)
    for viewer in (None, 0, 1, 2, 3):
        view = engine.view(after, viewer)
        assert view["left"] == [2]
        assert view["players"][2]["left"] is True
        assert view["players"][1]["left"] is False
    assert "Seat 2 leaves the game." in " ".join(after["held_notes"])


# -- the old versions ------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_old_versions_do_not_play_on(version):
    """Matches recorded before version 4 end as they always did (result_on_time): leave says None."""
    engine = registry.get("annihilageddon", version)
    rng = random.Random(1)
    st = engine.setup({}, 4)
    for n in range(300):
        st = engine.apply(st, _event(engine, st, rng, "old", n, ["random"] * 4))
    assert engine.leave(st, 1) is None
    assert engine.in_game(st, 1)
    assert "left" not in engine.view(st, None)
    assert engine.result_on_time(st, 1, 4)["placements"] == [1, 2, 1, 1]


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_version_4_plays_exactly_as_version_3_while_nobody_leaves(seats):
    """The new version changes nothing but leaving: the same events give the same states."""
    old, new = registry.get("annihilageddon", "3"), v4()
    rng_old, rng_new = random.Random(seats), random.Random(seats)
    a, b = old.setup({}, seats), new.setup({}, seats)
    for n in range(3000):
        assert canonical_json(a) == canonical_json(b)
        if not old.to_move(a):
            break
        ea = _event(old, a, rng_old, "same", n, ["random"] * seats)
        eb = _event(new, b, rng_new, "same", n, ["random"] * seats)
        assert ea == eb
        a, b = old.apply(a, ea), new.apply(b, eb)
    assert old.result(a) == new.result(b)


# -- what a leave shows --------------------------------------------------------------------------------


def _in_transit(engine, st):
    """The seat whose private draw is due with cards already on their way to its hand (its old
    deck taken whole, or cards known on its top: RULES.md, "A deck that runs short"), or None."""
    drawer = engine.drawing_privately(st)
    return drawer if drawer is not None and st["players"][drawer]["top"] else None


def _nobody_else_sees_the_cards_in_transit(engine, st, after, drawer):
    for viewer in [None, *(s for s in range(st["seats"]) if s != drawer)]:
        before = engine.view(st, viewer)["players"][drawer]
        assert before["deck_top"] == [] and before["deck_top_hidden"] == len(st["players"][drawer]["top"])
        seen = engine.view(after, viewer)["players"][drawer]
        assert seen["deck_top"] == [], f"viewer {viewer} sees seat {drawer}'s cards on their way to its hand"
        assert seen["deck_count"] == before["deck_count"]


def test_a_seat_that_leaves_during_its_own_draw_shows_nobody_the_cards_on_their_way_to_its_hand():
    """The leaver's draw stops, and what it had drawn is still seen by it alone: everything it owns
    stays where it is and nothing of it reaches the others (RULES.md, "A seat that leaves")."""
    engine = v4()
    for seed in range(3):
        st = _first(engine, 4, f"transit:{seed}", lambda s: s["phase"] == "turn" and _in_transit(engine, s) is not None)
        drawer = _in_transit(engine, st)
        after = leave_checked(engine, st, drawer)
        _nobody_else_sees_the_cards_in_transit(engine, st, after, drawer)


def _stops_anothers_draw(engine, st):
    """(the seat whose leave withdraws another seat's private draw with cards in transit, that
    seat), or None: an effect on the leaver that made another seat draw stops."""
    drawer = _in_transit(engine, st) if st["phase"] == "turn" else None
    if drawer is None or sum(engine.in_game(st, s) for s in range(st["seats"])) < 3:
        return None
    for seat in range(st["seats"]):
        if seat != drawer and engine.in_game(st, seat):
            if engine.drawing_privately(engine.leave(st, seat)) != drawer:
                return seat, drawer
    return None


def test_a_leave_that_stops_another_seats_draw_shows_nobody_that_seats_cards_on_their_way_to_its_hand():
    engine = v4()
    st = _first(engine, 5, "transit-other:25", lambda s: _stops_anothers_draw(engine, s) is not None)
    seat, drawer = _stops_anothers_draw(engine, st)
    after = leave_checked(engine, st, seat)
    _nobody_else_sees_the_cards_in_transit(engine, st, after, drawer)
    # The drawer still knows its whole deck, those cards in it.
    mine = engine.view(after, drawer)["players"][drawer]
    assert sorted(mine["deck_cards"] + mine["deck_top"]) == sorted(
        st["players"][drawer]["pool"] + st["players"][drawer]["top"]
    )


# -- a killer who leaves during its fatality's draws ---------------------------------------------------

FIRST, SECOND = "dwt-extra-dead", "dwt-patchwork"


def _fatality_drawing(moment):
    """Seat 0, the active player, kills seat 1 with Fatality Fiend (AN L370: draw two tokens, give
    the victim the one you like) on a table of three, and stops at ``moment`` of its two draws:
    the first token (FIRST) drawn and the second's draw due, the die that says which slot of the
    stack comes up due, that die thrown and the draw of an unseen token due, or the pick asked.
    With a die, FIRST and SECOND are known tokens put back into the stack (AN L394). Returns the
    state and the number of tokens in the game (the stack's, nobody holds one yet)."""
    st = table(3, hands={0: ["fatality-fiend"]}, hp={1: 3})
    d = st["dwt"]
    tokens = d["count"]
    assert not any(p["dwts"] for p in st["players"])
    if moment.startswith("second-die"):
        d["returned"] = [FIRST, SECOND]
        d["unseen"] = sorted(without_one(without_one(d["unseen"], FIRST), SECOND))
    st = act(st, 0, type="play", card="fatality-fiend")
    st = choose(st, 0, 1)
    st = choose(st, 1, "take")
    if d["returned"]:
        st = E.apply(st, {"kind": "chance", "outcome": [0]})  # slot 0 of the stack: FIRST
        if moment == "second-die-thrown":
            st = E.apply(st, {"kind": "chance", "outcome": [st["dwt"]["count"] - 1]})  # an unseen slot
    else:
        st = step_chance(st, [FIRST])
        if moment == "pick-asked":
            st = step_chance(st, [SECOND])
    assert st["stack"][-1]["work"]["t1"] == FIRST
    return st, tokens


def without_one(cards, cid):
    cards = list(cards)
    cards.remove(cid)
    return cards


@pytest.mark.parametrize("moment", ["second-draw-due", "second-die-due", "second-die-thrown", "pick-asked"])
def test_a_killer_who_leaves_during_its_fatality_draws_nothing_more_and_the_victim_keeps_the_first_token(moment):
    """Version 5. RULES.md, "A seat that leaves", a killer who left (AN L344-346, L370): it picks nothing and
    takes no Trophy; the victim keeps the first token drawn, a second one already drawn goes back
    into the stack, and a second draw still due is withdrawn: nothing is rolled or drawn that no
    state would keep. Every token stays in the stack or in a player's hands."""
    st, tokens = _fatality_drawing(moment)
    before = st["dwt"]
    engine = registry.get("annihilageddon", "5")
    after = leave_checked(engine, st, 0)
    # Nothing about the killer's token is waited for: the victim's turn begins (AN L147).
    assert engine.chance(after) is None and after["prompt"] is None
    assert after["active"] == 1 and engine.to_move(after) == [1]
    assert not any(op["op"] == "_die" for f in after["stack"] for op in f["prog"])
    victim = after["players"][1]
    assert victim["dwts"] == [FIRST] and victim["hp"] == 20
    assert not any(p["trophy"] for p in after["players"])
    d = after["dwt"]
    assert d["count"] + sum(len(p["dwts"]) for p in after["players"]) == tokens
    assert d["count"] == tokens - 1
    if moment == "pick-asked":
        assert d["returned"] == [SECOND] and d["unseen"] == before["unseen"]
    else:
        # The second token was never drawn: the stack is as the first draw left it.
        assert d["returned"] == before["returned"]
        assert d["unseen"] == before["unseen"]
    # The next log line tells the leave and the death, and no draw for a pick nobody makes.
    event = {"kind": "action", "seat": 1, "action": {"type": "end_turn"}}
    line = engine.describe(after, event, engine.apply(after, event))
    assert line.startswith("Seat 0 leaves the game. Seat 1 dies and takes Extra Dead.")


@pytest.mark.parametrize("moment", ["second-draw-due", "second-die-due", "second-die-thrown"])
def test_version_4_still_asks_a_leaving_killers_second_draw_so_its_records_replay(moment):
    """RULES.md, "Versions": a version-4 match recorded the second draw's outcome after the leave
    (a table's match could have), so version 4 still asks it and then gives the victim the first
    token all the same; only version 5 withdraws it."""
    st, tokens = _fatality_drawing(moment)
    engine = v4()
    after = leave_checked(engine, st, 0)
    assert engine.to_move(after) == [CHANCE]
    while engine.to_move(after) == [CHANCE]:
        after = engine.apply(after, {"kind": "chance", "outcome": [0]})
    assert after["players"][1]["dwts"] == [FIRST]
    assert after["dwt"]["count"] + sum(len(p["dwts"]) for p in after["players"]) == tokens
