"""The shared conformance suite's checks (tests/engines/test_conformance.py), run on this engine for
2-4 seats; they run again from the shared suite once the engine is registered."""

import pytest

from engines.spellcaster.engine import SpellCasterEngine
from tests.engines import test_conformance as suite

ENGINE = SpellCasterEngine()
CHECKS = [
    suite.test_random_playouts_end_and_every_event_applies,
    suite.test_states_views_specs_and_actions_are_json,
    suite.test_apply_never_mutates_and_every_listed_legal_action_applies,
    suite.test_refused_events_raise_and_leave_the_state_untouched,
    suite.test_every_bot_plays_a_legal_action,
    suite.test_no_view_spec_or_legal_action_depends_on_what_is_hidden_from_its_viewer,
    suite.test_no_log_line_names_what_spectators_cannot_see,
]


@pytest.fixture(scope="module", params=[2, 3, 4], ids=lambda n: f"{n}p")
def played(request):
    seats = request.param
    states, events = suite.playout(ENGINE, seats, f"spellcaster-local:{seats}")
    return ENGINE, seats, states, events


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__[5:] for c in CHECKS])
def test_conformance_check_passes(played, check):
    check(played)


def test_the_engine_declares_what_the_platform_needs():
    assert ENGINE.name == "spellcaster" and (ENGINE.min_seats, ENGINE.max_seats) == (2, 4)
    assert ENGINE.bots == ("heuristic", "random") and ENGINE.rating == "openskill"
    assert suite.seat_counts(ENGINE) == [2, 3, 4]
