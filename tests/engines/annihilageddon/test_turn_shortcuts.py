"""The turn handover's shortcuts (issue 17, P1) against the frames they stand for, along random
playouts of every version:

- ``end_turn`` does the end of turn's first ops before pushing its frame (its draw recorded due
  itself): the state an ``end_turn`` leaves must be the one the whole frame, pushed and run,
  leaves;
- ``start_turn_at_once`` starts the next turn without its frames when they would run straight
  through: every event must leave the state it leaves with the frames always pushed;
- ``end_turn_at_once`` runs the end of a turn from its draw on as straight code: every event
  must leave the state ``run`` leaves from the same frame."""

import json

import pytest

from engines import registry
from engines.annihilageddon import fast as fast_paths
from engines.annihilageddon import turn
from engines.annihilageddon.cards import CARDS
from engines.annihilageddon.engine import copy_state
from engines.annihilageddon.interp import HAVING, controls_any, frame, run

from ..test_conformance import playout
from .shortcuts import planted, strictly_after, with_and_without


def _end_turn_by_frames(st: dict, seat: int) -> dict:
    """What an ``end_turn`` did before the shortcut: the whole frame pushed, then run."""
    st = copy_state(st)
    _fresh_notes(st)
    st["turn"]["ending"] = True
    st["stack"].append(frame(list(turn.END_OF_TURN), {"you": seat, "active": seat, "source": seat}))
    run(st)
    return st


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_an_end_of_turn_leaves_the_state_its_whole_frame_leaves(version, seats):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-end-turn:{version}:{seats}", bound=900, prefix=True)
    ends = [(st, ev) for st, ev in zip(states, events) if ev["kind"] == "action" and ev["action"]["type"] == "end_turn"]
    cases = []
    for st, ev in ends:
        cases.append((st, ev))
        # The same moment with an end-of-turn text pending (a played Kiddo Chaos, or one in play).
        played = copy_state(st)
        played["turn"]["played"] = played["turn"]["played"] + ["kiddo-chaos"]
        cases += [(played, ev), (planted(st, ev["seat"], ["kiddo-chaos"]), ev)]
    assert len(ends) > 20
    for st, ev in ends[::4]:
        # Decks of every size around the draw's 5 (end_turn shuffles the discard pile in
        # itself when the deck runs short), the rest of the deck in the discard pile, or gone.
        for size in range(8):
            for keep_discard in (True, False):
                cut = copy_state(st)
                p = cut["players"][ev["seat"]]
                deck = p["top"] + p["pool"]
                p["top"], p["pool"] = [], sorted(deck[:size])
                p["discard"] = p["discard"] + deck[size:] if keep_discard else []
                cases.append((cut, ev))
    for st, ev in cases:
        assert json.dumps(engine.apply(st, ev)) == json.dumps(_end_turn_by_frames(st, ev["seat"]))


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_turn_started_at_once_leaves_the_state_its_frames_leave(version, seats, monkeypatch):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-start-turn:{version}:{seats}", bound=900, prefix=True)
    # Its common case is hand_over_at_once's (test_hand_over_at_once): left to the ops here.
    monkeypatch.setattr(turn, "hand_over_at_once", lambda st: False)
    counted, fast, slow = with_and_without(
        engine,
        list(zip(states, events)),
        monkeypatch,
        turn,
        "start_turn_at_once",
        lambda st, seat: False,
        outcome=strictly_after,
    )
    # Both ways are met: a turn started at once, and one whose refill or start-of-turn text needs the frames.
    assert counted.taken > 10 and counted.declined
    assert fast == slow


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_turn_started_at_once_with_a_start_of_turn_text_leaves_the_state_its_frames_leave(version, monkeypatch):
    """Each of START_AT_ONCE's texts, and one it leaves to the frames (Murder Arcade's Attack),
    planted among the Ongoing cards of the seat whose turn comes next, before every event that
    may end a turn."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, 3, f"an-start-text:{version}", bound=600, prefix=True)
    cases = []
    for st, ev in zip(states, events):
        if st["phase"] != "turn" or not (ev["kind"] == "chance" or ev["action"]["type"] == "end_turn"):
            continue
        nxt = (st["active"] + 1) % st["seats"]
        cases += [(planted(st, nxt, [cid]), ev) for cid in [*turn.START_AT_ONCE, "murder-arcade"]]
    with_text = []
    monkeypatch.setattr(turn, "hand_over_at_once", lambda st: False)  # as above

    def counting(start_turn_at_once):
        def counted(st, seat):
            text = controls_any(st, seat, HAVING["start_of_turn"])
            ok = start_turn_at_once(st, seat)
            if ok and text:
                with_text.append(seat)
            return ok

        return counted

    _, fast, slow = with_and_without(
        engine,
        cases,
        monkeypatch,
        turn,
        "start_turn_at_once",
        lambda st, seat: False,
        wrap=counting,
        outcome=strictly_after,
    )
    assert len(with_text) > 10
    assert fast == slow


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_an_end_of_turn_run_at_once_leaves_the_state_run_leaves(version, seats, monkeypatch):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-end-at-once:{version}:{seats}", bound=900, prefix=True)
    seen = []

    def counted(st, f):
        seen.append(f["work"].get("outcome") is not None)  # an end_turn, or the draw's chance event
        end_turn_at_once(st, f)

    end_turn_at_once = turn.end_turn_at_once
    monkeypatch.setattr(turn, "end_turn_at_once", counted)
    # The draw's chance event in the general path (test_fold_fast_paths holds the fast one to it).
    monkeypatch.setattr(fast_paths, "end_draw_at_once", lambda st, f, need, outcome: False)
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in zip(states, events)]
    # Both ways in: an end_turn whose draw waits, and the chance event that brings the cards. Few
    # of the first: end_turn shuffles a short deck itself (held to the whole frame above).
    assert seen.count(True) > 10 and seen.count(False) > 5
    monkeypatch.setattr(turn, "end_turn_at_once", lambda st, f: run(st))
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in zip(states, events)]
    assert fast == slow


def test_an_end_of_turn_run_at_once_hands_over_to_run_for_the_trophy_and_the_legend_flip():
    """The two ops that ask or draw, met on purpose: the Trophy holder's sixth card and a Legend
    to flip, each from a state of a playout where the end of a turn is next."""
    engine = registry.get("annihilageddon", "2")
    states, events = playout(engine, 2, "an-end-at-once-handover", bound=900, prefix=True)
    ends = [(st, ev) for st, ev in zip(states, events) if ev["kind"] == "action" and ev["action"]["type"] == "end_turn"]
    assert len(ends) > 10
    met = set()
    for st, ev in ends[:10]:
        for change in ("trophy", "flip", "last_legend"):
            before = copy_state(st)
            if change == "trophy":
                for q in before["players"]:
                    q["trophy"] = False
                before["players"][ev["seat"]]["trophy"] = True
            else:
                before["legend"] = {**before["legend"], "up": None}
                if change == "last_legend":
                    before["legend"]["down"] = 0
            fast = engine.apply(before, ev)
            slow = _end_turn_by_frames(before, ev["seat"])
            assert json.dumps(fast) == json.dumps(slow), change
            if fast["need"] is not None and "zone" in fast["need"]:
                # The draw waited: its chance event (the first cards of the pool) runs the rest.
                outcome = list(range(fast["need"]["count"]))
                fast = engine.apply(fast, {"kind": "chance", "outcome": outcome})
                _fresh_notes(slow)
                slow["need"] = None
                slow["stack"][-1]["work"]["outcome"] = outcome
                run(slow)
                met.add(change)
                assert json.dumps(fast) == json.dumps(slow), change
    assert met == {"trophy", "flip", "last_legend"}


def _fresh_notes(st: dict) -> None:
    st["notes"] = []
    if "held_notes" in st:
        st["held_notes"] = []


def test_a_refill_run_at_once_leaves_the_state_run_leaves(monkeypatch):
    """Along playouts of every version at 2 and 4 seats, and again with each of START_AT_ONCE's
    texts and Murder Arcade (left to the frames) planted among the active player's Ongoing cards
    before every refill's draw; the draws meet a Mayhem (left to the frames) and other cards."""
    drawn = []
    for version in ("1", "2"):
        for seats in (2, 4):
            drawn += _refills_against_run(version, seats, monkeypatch)
    assert "mayhem" in drawn and "main" in drawn


def _refills_against_run(version: str, seats: int, monkeypatch) -> list[str]:
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-refill-at-once:{version}:{seats}", bound=900, prefix=True)
    cases = []
    for st, ev in zip(states, events):
        cases.append((st, ev))
        top = st["stack"][-1] if st["stack"] else None
        if ev["kind"] == "chance" and top and top["prog"][top["pc"]]["op"] == "_refill" and st["phase"] == "turn":
            cases += [(planted(st, st["active"], [cid]), ev) for cid in [*turn.START_AT_ONCE, "murder-arcade"]]
    drawn = []

    def counted(st, f):
        drawn.append(CARDS[st["main"][f["work"]["outcome"][0]]]["kind"])
        refill_at_once(st, f)

    refill_at_once = turn.refill_at_once
    monkeypatch.setattr(turn, "refill_at_once", counted)
    # The draw's chance event in the general path (test_fold_fast_paths holds the fast one to it).
    monkeypatch.setattr(fast_paths, "refill_drawn", lambda st, f, need, outcome: False)
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    assert len(drawn) > 10
    monkeypatch.setattr(turn, "refill_at_once", lambda st, f: run(st))
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    monkeypatch.undo()
    assert fast == slow, (version, seats)
    return drawn


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_an_end_of_turn_draw_taken_by_apply_in_place_itself_leaves_the_state_resume_leaves(version):
    """apply_in_place hands the end of turn's draw to end_turn_at_once itself when the frame
    holds turn.END_OF_TURN (the list end_turn shares); a state read back from JSON holds
    an equal list instead and goes through resume: both must end the same, at 2 and 4 seats, for
    the draw and for a Legend flip's draw after it (the frame's other chance event)."""
    engine = registry.get("annihilageddon", version)
    draws = flips = 0
    for seats in (2, 4):
        states, events = playout(engine, seats, f"an-end-draw-direct:{version}:{seats}", bound=900, prefix=True)
        for st, ev in zip(states, events):
            top = st["stack"][-1] if st["stack"] else None
            if ev["kind"] != "chance" or top is None or top["prog"] is not turn.END_OF_TURN:
                continue
            draws += top["pc"] == turn.END_OF_TURN.index({"op": "_end_draw"})
            _assert_direct_as_read_back(engine, st, ev)
            # The same draw with a Legend to flip after it: the flip's draw is another chance
            # event on the same frame, at another op (resume's, not end_turn_at_once's).
            flip = copy_state(st)
            flip["legend"] = {**flip["legend"], "up": None}
            flip = engine.apply_in_place(flip, ev)
            if flip["need"] is not None and flip["stack"][-1]["prog"] is turn.END_OF_TURN:
                flips += 1
                _assert_direct_as_read_back(engine, flip, {"kind": "chance", "outcome": [0]})
    assert draws > 20 and flips > 20


def _assert_direct_as_read_back(engine, st: dict, ev: dict) -> None:
    read_back = json.loads(json.dumps(st))
    assert read_back["stack"][-1]["prog"] is not turn.END_OF_TURN
    direct = engine.apply_in_place(copy_state(st), ev)
    assert json.dumps(direct) == json.dumps(engine.apply_in_place(read_back, ev))
