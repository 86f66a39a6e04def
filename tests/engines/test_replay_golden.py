"""Every engine replays fixed playouts of every version to the goldens written before the replay
speed-ups (issue 17, P1), applying events in place (as ``engines.base.replay`` does) and copying
(as live play does). See tests/engines/replay_golden.py."""

import pytest

from engines import registry

from .replay_golden import FINGERPRINT_EVENTS, MARK_CASES, compute, first_difference, load, playout_fingerprints

MARKED = [(name, case) for name, cases in MARK_CASES.items() for case in cases]
FINGERPRINTED = [(name, e.version) for name in FINGERPRINT_EVENTS for e in registry.all_engines() if e.name == name]
#: Version 1 of Wizard Dodgeball has no bound on turns and random bots throw often enough to keep
#: resetting its stalling count: none of its playouts ends within thousands of events (6,000
#: tried), so its goldens are cut short and only version 2's cover a finished game and its result.
NEVER_ENDS = {("wizard-dodgeball", "1")}


def _versions(name: str) -> set[str]:
    return {e.version for e in registry.all_engines() if e.name == name}


@pytest.mark.parametrize(("name", "case"), MARKED, ids=[f"{n}-{c['key']}" for n, c in MARKED])
def test_a_recorded_playout_replays_to_the_same_hash_at_every_event_in_place_and_copying(name, case):
    expected = load(name)[case["key"]]
    # In place first: a write that reached the engine's static data would then show in the copying
    # replay of the same playout too.
    for mode in ("in_place", "copy"):
        difference = first_difference(expected, compute(name, case, mode))
        assert difference is None, f"{mode}: {difference}"


@pytest.mark.parametrize(("name", "version"), FINGERPRINTED, ids=[f"{n}-v{v}" for n, v in FINGERPRINTED])
def test_fixed_playouts_replay_to_the_recorded_fingerprints_in_place_and_copying(name, version):
    expected = load(name)[version]
    for mode in ("in_place", "copy"):
        assert playout_fingerprints(name, version, FINGERPRINT_EVENTS[name], mode) == expected, mode


@pytest.mark.parametrize("name", sorted(MARK_CASES))
def test_the_marks_cover_every_version_and_finished_games(name):
    recorded = load(name)
    assert {c["version"] for c in recorded.values()} == _versions(name)
    assert {c["key"] for c in MARK_CASES[name]} == set(recorded)
    for version in _versions(name):
        if (name, version) not in NEVER_ENDS:
            assert any(c["ended"] for c in recorded.values() if c["version"] == version), version


@pytest.mark.parametrize("name", sorted(FINGERPRINT_EVENTS))
def test_every_registered_version_has_recorded_fingerprints(name):
    assert set(load(name)) == _versions(name)


def test_every_registered_game_has_a_golden():
    assert {e.name for e in registry.all_engines()} == set(MARK_CASES) | set(FINGERPRINT_EVENTS)
