"""A refusal never repeats a long value that was sent, in every engine, every version.

A refusal's sentence goes back to whoever sent the action (and a page may show it): one that quoted
what was sent (a spell card's name, an action type) sent a request's whole body back, tens of KB,
and put it in front of people. Here, at states where an action or a random outcome is due, each
value of a listed action (and of a derived outcome, and of a default config) is replaced by a
5,000-character string, and every refusal's sentence must stay short and must not hold it.
"""

from __future__ import annotations

import pytest

from engines.base import CHANCE, EngineError, check_action_numbers, quoted
from engines.chance import check_outcome, derive, indices_for_cards
from matches.services import MatchError, match_config_check

from .test_conformance import CASES, SEED, case_id, playout, sample
from .test_hostile_actions import _paths, _replaced

LONG = "spell" + "x" * 4990 + "end!!"
#: What may not show of it: a value cut to a few dozen characters is still whatever was sent.
SHOWN = LONG[:30]
#: The longest sentence a refusal may be (the longest of today's is some 150 characters).
MOST = 200
#: States per case, spread over a playout's first events.
STATES = 12
PREFIX = 300
#: Listed actions tried per state.
ACTIONS = 8


def _echoes(exc: EngineError | MatchError) -> bool:
    return len(exc.message) >= MOST or SHOWN in exc.message


def _brief(value) -> str:
    return repr(value).replace(LONG, "LONG")[:200]


def _variants(value) -> list:
    """``value`` with each value in it (and the whole) in turn the long string, and with a long key added."""
    out = [LONG, [LONG], {LONG: LONG}]
    out += [_replaced(value, path, LONG) for path in _paths(value)]
    if isinstance(value, dict):
        out.append({**value, LONG: 1})
        out += [{**value, key: [LONG]} for key in value]
    return out


class Refusals:
    """Runs calls that may be refused; keeps each refusal that repeats or runs long, one per place."""

    def __init__(self):
        self.bad: dict[str, str] = {}

    def run(self, sent, call, *args) -> None:
        try:
            call(*args)
        except (EngineError, MatchError) as exc:
            # One report per place that refuses: its code and its sentence with what was sent cut out.
            where = f"{exc.code}: {exc.message.replace(LONG, '...')[:60]}"
            if _echoes(exc) and where not in self.bad:
                self.bad[where] = f"{len(exc.message)} characters refusing {_brief(sent)}: {exc.message[:150]}"

    def check(self) -> None:
        assert not self.bad, "refusals that repeat what was sent:\n" + "\n".join(
            f"{c}: {m}" for c, m in self.bad.items()
        )


def _arrive(engine, state, seat: int, action) -> None:
    """An action as a match command takes it (matches/services.py)."""
    check_action_numbers(action)
    engine.check_sent_action(action)
    engine.apply(state, {"kind": "action", "seat": seat, "action": action})


@pytest.fixture(scope="module", params=CASES, ids=[case_id(c) for c in CASES])
def spots(request):
    engine, seats = request.param
    states, _events = playout(engine, seats, f"echo:{engine.name}@{engine.version}:{seats}", PREFIX, prefix=True)
    movers = [s for s in states if engine.to_move(s) and engine.to_move(s) != [CHANCE]]
    chances = [s for s in states if engine.to_move(s) == [CHANCE]]
    return engine, seats, [movers[i] for i in sample(movers, STATES)], [chances[i] for i in sample(chances, STATES)]


def test_a_refused_action_does_not_repeat_a_long_value_it_was_sent(spots):
    engine, _seats, movers, _chances = spots
    tried, refusals = 0, Refusals()
    for state in movers:
        for seat in engine.to_move(state):
            listed = engine.legal_actions(state, seat)
            for base in [listed[i] for i in sample(listed, ACTIONS)]:
                for action in _variants(base):
                    tried += 1
                    refusals.run(action, _arrive, engine, state, seat, action)
                    refusals.run(action, engine.validate, state, seat, action)
    assert tried
    refusals.check()


def test_a_refused_random_outcome_does_not_repeat_a_long_value_it_was_sent(spots):
    engine, _seats, _movers, chances = spots
    refusals = Refusals()
    for i, state in enumerate(chances):
        spec = engine.chance(state)
        outcome = derive(spec, SEED, "echo", i)
        for sent in _variants(outcome):
            refusals.run(sent, check_outcome, spec, sent)
        if spec.get("kind") == "draw":
            # At a real table a draw is entered as the cards drawn.
            pool = engine.draw_pool(state)
            count = int(spec["count"])
            for cards in ([LONG] * count, [pool[0]] * (count - 1) + [LONG], [[LONG]] * count):
                refusals.run(cards, indices_for_cards, pool, cards)
    refusals.check()


@pytest.mark.parametrize(("engine", "seats"), CASES, ids=[case_id(c) for c in CASES])
def test_a_refused_config_does_not_repeat_a_long_value_it_was_sent(engine, seats):
    refusals = Refusals()
    for config in _variants(engine.default_config(seats)):
        if isinstance(config, dict):
            refusals.run(config, lambda c: match_config_check(engine=engine, config=c, seats=seats), config)
            refusals.run(config, engine.validate_config, config, seats)
    refusals.check()


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("fireball", "'fireball'"),
        (7, "7"),
        (LONG, "that value"),
        (10**60, "that value"),
        (["fireball"], "that value"),
        ({"a": 1}, "that value"),
        ("\u202eevil", "'\\u202eevil'"),
    ],
)
def test_a_sent_value_is_quoted_only_when_it_is_a_short_string_or_number(value, said):
    assert quoted(value) == said


@pytest.mark.django_db
def test_the_api_refuses_a_long_option_or_card_without_repeating_it(alice, bob, client_for):
    client = client_for(alice)
    bot = {"bot": "random"}
    created = client.post(
        "/api/matches/",
        {"game": "dueling-wizards", "seats": [{"username": "alice"}, bot], "config": {LONG: 1}},
        format="json",
    )
    assert created.status_code == 400 and created.json()["code"] == "unknown_option"
    assert SHOWN not in created.content.decode() and len(created.content) < MOST * 2
    # A draft is made in a draft room (POST /api/matches/ refuses one, draft_needs_a_room).
    draft = {"coaches": ["alice", "alice"], "format": LONG}
    created = client.post("/api/drafts/", draft, format="json")
    assert created.status_code == 400 and created.json()["code"] == "invalid_request"
    assert SHOWN not in created.content.decode() and len(created.content) < MOST * 2
    # DRF's own field messages quote the value too ('"<value>" is not a valid UUID.').
    body = {"game": "dueling-wizards", "seats": [{"username": "alice"}, bot], "event_id": LONG}
    created = client.post("/api/matches/", body, format="json")
    assert created.status_code == 400 and created.json()["code"] == "invalid_request"
    assert SHOWN not in created.content.decode() and len(created.content) < MOST * 2
    # A short value is still quoted back, so a person sees what they sent wrong.
    created = client.post("/api/drafts/", {"coaches": ["alice", "bob"], "format": "blitz"}, format="json")
    assert '"blitz" is not a valid choice.' in created.json()["detail"]
