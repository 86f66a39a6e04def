"""Every registered version of Spellcaster replays fixed-seed playouts to exactly the states, legal
actions, turn order and results it gave before the replay speed-ups (issue 17, P1), and no apply
changes a state it was given. See tests/engines/replay_fingerprints.py."""

import pytest

from engines import registry

from ..replay_fingerprints import FILES, expected, playout_fingerprints

NAME = "spellcaster"
VERSIONS = [e.version for e in registry.all_engines() if e.name == NAME]


def test_every_registered_version_has_recorded_fingerprints():
    assert sorted(expected(NAME)) == sorted(VERSIONS)


@pytest.mark.parametrize("version", VERSIONS)
def test_fixed_playouts_replay_to_the_recorded_fingerprints(version):
    assert playout_fingerprints(NAME, version, FILES[NAME][1]) == expected(NAME)[version]
