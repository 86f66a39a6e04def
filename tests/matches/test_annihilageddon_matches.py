"""Annihilageddon on the platform (issue 11, "Done means"): ``autoplay --game annihilageddon``
plays 2-5 wizards in one command and every match it plays is verified."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from matches.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def _autoplay(matches: int) -> str:
    out = StringIO()
    call_command("autoplay", game="annihilageddon", matches=matches, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_one_autoplay_command_plays_every_seat_count_from_two_to_five_and_verifies_each_match():
    said = _autoplay(4)
    assert "4 matches played: 4 verified, 0 disputed, 0 pending." in said
    played = Match.objects.all()
    assert sorted(m.seats.count() for m in played) == [2, 3, 4, 5]
    assert {m.engine_version for m in played} == {"2"}  # new matches play the simultaneous window
    assert all(m.status == Match.Status.FINISHED and m.verdict == Match.Verdict.VERIFIED for m in played)


@pytest.mark.slow
def test_fifty_autoplayed_matches_across_two_to_five_players_are_all_verified():
    """The issue's own command: ``autoplay --game annihilageddon --matches 50``."""
    said = _autoplay(50)
    assert "50 matches played: 50 verified, 0 disputed, 0 pending." in said
    counts = sorted(m.seats.count() for m in Match.objects.all())
    assert counts.count(2) == counts.count(3) == 13 and counts.count(4) == counts.count(5) == 12
