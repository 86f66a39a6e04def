"""What engines declare is what the platform does (issue 9, item 4): no list elsewhere repeats it."""

from __future__ import annotations

import pytest

from engines import registry
from matches.autoplay import autoplay_match
from matches.forms import NewMatchForm
from matches.services import SeatSpec, match_create

pytestmark = pytest.mark.django_db


def test_the_new_match_form_offers_exactly_the_playable_engines_and_their_bots(alice):
    form = NewMatchForm(user=alice)
    offered = [name for name, _ in form.fields["game"].choices]
    assert offered == [e.name for e in registry.latest() if e.playable]
    assert "iwdl-draft" not in offered  # a draft is started from leagues and tournaments
    bots = {b for b, _ in form.fields["bot"].choices if b}
    assert bots == {b for e in registry.latest() if e.playable for b in e.bots}


def test_play_the_bot_means_the_engines_strongest_bot(alice):
    form = NewMatchForm({"game": "wizard-dodgeball", "mode": "server"}, user=alice)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["bot"] == registry.get("wizard-dodgeball").best_bot == "heuristic"


def test_a_bound_for_bot_games_is_switched_off_between_people_and_kept_when_a_bot_plays(alice, bob):
    bounded = [e for e in registry.latest() if e.people_config]
    assert bounded, "some engine bounds its bot games"
    for engine in bounded:
        assert engine.min_seats == 2 and _takes(engine, 2)
        people = match_create(game=engine.name, seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
        for key, value in engine.people_config.items():
            assert people.config[key] == value
        against_a_bot = match_create(
            game=engine.name, seats=[SeatSpec(user=alice), SeatSpec(bot="random")], created_by=alice
        )
        bots = autoplay_match(game=engine.name, seats=2)
        for key in engine.people_config:
            assert against_a_bot.config[key] == bots.config[key] == engine.default_config(2)[key]


def _takes(engine, n):
    try:
        engine.validate_config({}, n)
        return True
    except Exception:
        return False


def test_autoplay_cycles_through_the_seat_counts_asked_for_and_refuses_nonsense(capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from matches.models import Match

    call_command("autoplay", game="dueling-wizards", matches=2, seats="2-3")
    assert sorted(m.seats.count() for m in Match.objects.all()) == [2, 3]
    for wanted in ("two", "7-9"):
        with pytest.raises(CommandError):
            call_command("autoplay", game="dueling-wizards", matches=1, seats=wanted)
