"""A fold (``apply_in_place``) keeps an index derived from its state beside it (``state.Budgets``,
issue 17, P1): what stands on each square, which the rules ask instead of scanning the wizards
and balls; whether every ball is active, which settle asks after every event; each jersey's
record, for the turn's wizard; each wizard's spent cards, for the end of its turn; the faces each wizard bears; and with the court's table of the squares each line goes
through, whether a line is clear (``clear_line``). It is never
stored and never hashed, so nothing checks it but these tests: after every event of playouts
(random bots, whose casts teleport; heuristic bots, whose throws hit, are caught and dodged
aside, and whose eliminated wizards' balls are placed), the index must be the occupancy and the
balls' activity read afresh, and the folded state must be the copying ``apply``'s (the
reference path, which has no index)."""

import json
import operator

import pytest

from engines import registry
from engines.base import canonical_json
from engines.wizard_dodgeball import spells
from engines.wizard_dodgeball.geometry import court, line_blocked_by, line_of_sight
from engines.wizard_dodgeball.rules import LEAVES_NO_EFFECT, NO_FACE_BITS
from engines.wizard_dodgeball.state import (
    _FACE_BIT,
    Budgets,
    allowance_with,
    clear_line,
    court_of,
    face_bits,
    occupancy,
    spent_cards,
    wizard_squares,
)

from ..test_conformance import Rng, step
from .playouts import bot_playout


def _fold_beside_apply(engine, seats: int, key: str, bot: str, bound: int):
    """Play with ``bot``, folding one owned state in place beside the copying apply; yield
    (event, folded state, applied state) after every event."""
    folded = None
    for before, event, applied in bot_playout(engine, seats, key, bot, bound):
        if folded is None:
            folded = engine.owned_copy(before)
        folded = engine.apply_in_place(folded, event)
        yield event, folded, applied


CASES = [("1", 2, "random"), ("2", 2, "random"), ("2", 4, "random"), ("2", 2, "heuristic"), ("2", 4, "heuristic")]


@pytest.mark.parametrize("version,seats,bot", CASES)
def test_the_index_is_the_occupancy_after_every_event_of_a_fold(version, seats, bot):
    engine = registry.get("wizard-dodgeball", version)
    met = set()
    games = 0
    for g in range(6 if bot == "heuristic" else 1):
        for event, folded, applied in _fold_beside_apply(
            engine, seats, f"wd-index:{version}:{seats}:{bot}:{g}", bot, 3000
        ):
            budgets = folded["budgets"]
            assert type(budgets) is Budgets
            assert budgets.occ == occupancy(folded), event
            assert budgets.active == all(b["active"] for b in folded["balls"]), event
            assert [budgets.by_j[w["j"]] for w in folded["wizards"]] == folded["wizards"]
            assert all(budgets.by_j[w["j"]] is w for w in folded["wizards"]), event
            # the order a wizard's cards were spent in is not the cards' order: compared as sorted
            for side in (0, 1):
                lineup = [w for w in folded["wizards"] if w["side"] == side]
                assert len(budgets.lineups[side]) == 5 and all(map(operator.is_, budgets.lineups[side], lineup))
            assert budgets.court is court_of(folded)
            assert budgets.moves == {w["j"]: allowance_with(w["j"], 0) for w in folded["wizards"]}
            bits = {w["j"]: face_bits(folded, w["j"]) for w in folded["wizards"]}
            assert budgets.bits == {j: b for j, b in bits.items() if b}, event
            fresh = spent_cards(folded)
            # recharge looks for no effect of these cards: there is none
            assert not [e for e in applied["effects"] if e["card"] in LEAVES_NO_EFFECT], event
            assert {j: sorted(ids) for j, ids in budgets.spent.items()} == {j: sorted(ids) for j, ids in fresh.items()}
            assert canonical_json(folded) == canonical_json(applied), event
            if event["kind"] == "action":
                met.add(event["action"]["type"])
            for r in applied["rolls"]:
                met.add(r.get("result"))
        games += 1
    # the moves of wizards and balls the index follows were met, not only plain moves
    wanted = {"move", "pick_up"}
    wanted |= (
        {"drop", "teleport_to"} if bot == "random" else {"hit", "caught", "dodge_to", "place_ball", "return_wizard"}
    )
    assert wanted <= met, (wanted - met, met)


def test_a_copy_carries_no_index_and_leaves_the_folds_alone():
    """``apply`` on a folded state copies the budgets as a plain list: the copy's rules scan the
    state, and nothing they do reaches the index of the state they were given."""
    engine = registry.get("wizard-dodgeball")
    folded = [f for _e, f, _a in _fold_beside_apply(engine, 2, "wd-index:copy", "random", 60)][-1]
    before = dict(folded["budgets"].occ)
    n = 0
    state = folded
    rng = Rng("wd-index:copy:after")
    while engine.to_move(state) and n < 60:
        state = engine.apply(state, step(engine, state, n + 100, rng))
        assert type(state["budgets"]) is list
        n += 1
    assert folded["budgets"].occ == before == occupancy(folded)
    # JSON and the hash see the budgets alone
    assert json.loads(json.dumps(folded))["budgets"] == list(folded["budgets"])


def test_a_state_taken_from_the_middle_of_a_fold_can_be_owned_and_folded_on_to_the_same_end():
    """A verifier or an analysis may take an owned copy of a state a fold has indexed (it did
    not: marshal refused the index's list subclass); the copy is plain, and folding on from it
    builds its own index and ends where the fold it was taken from ends."""
    engine = registry.get("wizard-dodgeball")
    events, middle = [], None
    for event, folded, _applied in _fold_beside_apply(engine, 2, "wd-index:owned", "random", 400):
        events.append(event)
        if len(events) == 200:
            middle = engine.owned_copy(folded)
    assert type(middle["budgets"]) is list
    # what else is copied with it, a chance spec for one (the analysis does), is copied as it is
    spec = {"kind": "dice", "label": "Roll-off", "dice": [[1, 6], [1, 6]]}
    assert engine.owned_copy(spec) == spec
    for event in events[200:]:
        middle = engine.apply_in_place(middle, event)
    assert middle["budgets"].occ == occupancy(middle)
    assert canonical_json(middle) == canonical_json(folded)


def test_the_court_knows_for_every_line_exactly_the_squares_that_can_block_it():
    """``Court.line_offsets`` (the squares a line goes through, by its displacement) against
    ``line_blocked_by`` for every pair of squares on the court and every square of it."""
    c = court("iwdl-standard")
    for a in c.squares:
        for b in c.squares:
            assert set(c.between(a, b)) == {s for s in c.squares if line_blocked_by(a, b, s)}, (a, b)


@pytest.mark.parametrize("version,seats,bot", CASES)
def test_sight_read_from_the_index_is_the_reference_line_of_sight_after_every_event_of_a_fold(version, seats, bot):
    """``clear_line`` (the fold's line of sight, from the occupancy index) against ``line_of_sight``
    over the wizards' squares, from every wizard on the court to every square, after every event
    of playouts: loose balls stand on lines and must not block, wizards must."""
    engine = registry.get("wizard-dodgeball", version)
    blocked = clear = ball_on_line = 0
    for g in range(2 if bot == "heuristic" else 1):
        for n, (event, folded, _applied) in enumerate(
            _fold_beside_apply(engine, seats, f"wd-sight:{version}:{seats}:{bot}:{g}", bot, 1500)
        ):
            if n % 7:
                continue  # every seventh event: each asks about every line from every wizard
            c = court_of(folded)
            occ = folded["budgets"].occ
            squares = wizard_squares(folded)
            balls = {s for s, (k, _i) in occ.items() if k == "b"}
            for a in squares:
                for b in c.squares:
                    fast = clear_line(c, occ, a, b)
                    assert fast == line_of_sight(a, b, squares), (event, a, b)
                    blocked += not fast
                    clear += fast
                    ball_on_line += fast and any(s in balls for s in c.between(a, b))
    # both answers were met, and clear lines through a loose ball's square
    assert blocked and clear and ball_on_line, (blocked, clear, ball_on_line)


def test_the_cards_a_recharge_reads_no_bits_for_are_those_whose_faces_have_none():
    """``rules.NO_FACE_BITS`` (a recharge of one of these cards leaves ``Budgets.bits`` as they
    were) against the faces' data: exactly the cards leaving an effect none of whose faces is one
    of ``face_bits``'. The bits after every event of playouts are held by the tests above."""
    cards: dict[str, set[str]] = {}
    for face_id, face in spells.faces().items():
        cards.setdefault(face["card"], set()).add(face_id)
    want = {card for card, faces in cards.items() if not faces & set(_FACE_BIT)} - LEAVES_NO_EFFECT
    assert NO_FACE_BITS == want
    assert want and len(want) < len(cards) - len(LEAVES_NO_EFFECT)
