"""In-process callers state the head a tournament command is based on: ``expected_seq`` is a
required keyword of every command (a seq, or ``AT_HEAD`` said out loud), as the API requires it."""

from __future__ import annotations

import inspect

import pytest

from league.tournaments import services, timer_services
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.eventstore import StaleSequence

from .helpers import field, open_tournament, state

COMMANDS = [
    getattr(module, name)
    for module in (services, timer_services)
    for name in dir(module)
    if name.startswith("tournament_")
    and callable(getattr(module, name))
    and "expected_seq" in inspect.signature(getattr(module, name)).parameters
]


def test_every_tournament_command_requires_expected_seq_by_keyword():
    assert len(COMMANDS) >= 20
    for command in COMMANDS:
        parameter = inspect.signature(command).parameters["expected_seq"]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, command.__name__
        assert parameter.default is inspect.Parameter.empty, command.__name__


@pytest.mark.django_db
def test_a_command_without_a_stated_head_is_a_programming_error(alice):
    t = open_tournament(alice, "swiss", field(4), start=True)
    with pytest.raises(TypeError, match="expected_seq"):
        services.tournament_pair_next(tournament=t, by=alice)  # type: ignore[call-arg]


@pytest.mark.django_db
def test_a_stated_head_that_moved_on_is_refused(alice):
    players = field(2)
    t = open_tournament(alice, "single_elimination")
    head = state(t)["seq"]
    services.tournament_register(tournament=t, user=players[0], expected_seq=head)
    with pytest.raises((StaleSequence, Refusal)):
        services.tournament_register(tournament=t, user=players[1], expected_seq=head)
    services.tournament_register(tournament=t, user=players[1], expected_seq=AT_HEAD)
    assert len(state(t)["entry_order"]) == 2
