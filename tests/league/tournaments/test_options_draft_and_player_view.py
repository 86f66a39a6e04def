"""Options the organiser changes after creation (tie-breaks and their order, Swiss
forbidden pairs between rounds, the check-in window), the IWDL tournament draft for a
four-coach Wizard Dodgeball tournament, and a player's own view (issue 6)."""

from __future__ import annotations

import pytest

from engines import registry
from engines.iwdl_draft.engine import match_config
from league.tournaments import selectors, services
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.models import Event, Match
from matches.services import match_act

from .helpers import (
    api_command,
    at_head,
    field,
    lower_id_wins,
    open_tournament,
    pid,
    settle,
    state,
)

pytestmark = pytest.mark.django_db
DRAFT = registry.get("iwdl-draft")


def refused(code, fn, *args, **kwargs):
    with pytest.raises(Refusal) as exc:
        fn(*args, **kwargs, **at_head(fn))
    assert exc.value.code == code
    return exc.value


def test_the_organiser_reorders_tie_breaks_and_the_standings_columns_follow(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3, tiebreaks=["buchholz", "wins"])
    settle(t, lower_id_wins)
    services.tournament_configure(
        tournament=t, by=alice, tiebreaks=["sonneborn_berger", "buchholz"], expected_seq=AT_HEAD
    )
    s = state(t)
    assert s["options"]["tiebreaks"] == ["sonneborn_berger", "buchholz"]
    summary = selectors.tournament_summary(tournament=t, user=alice)
    assert summary["standings"]["columns"] == ["sonneborn_berger", "buchholz"]
    head = s["seq"]
    refused("bad_options", services.tournament_configure, tournament=t, by=alice, tiebreaks=["luck"])
    refused("not_organiser", services.tournament_configure, tournament=t, by=players[0], tiebreaks=["wins"])
    refused(
        "nothing_to_change",
        services.tournament_configure,
        tournament=t,
        by=alice,
        tiebreaks=["sonneborn_berger", "buchholz"],
    )
    assert state(t)["seq"] == head  # refusals write nothing


def test_a_pair_forbidden_between_rounds_is_not_paired_in_later_rounds(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    settle(t, lower_id_wins)
    s = state(t)
    met = {frozenset(r["players"]) for r in s["pairings"].values()}
    # Forbid one of the two pairs round two would otherwise be free to make.
    a, b = next((x, y) for x in players for y in players if x.pk < y.pk and frozenset((pid(x), pid(y))) not in met)
    services.tournament_configure(
        tournament=t, by=alice, forbidden_pairs=[[a.username, b.username]], expected_seq=AT_HEAD
    )
    assert state(t)["options"]["forbidden_pairs"] == [sorted([pid(a), pid(b)])]
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    round_two = [r["players"] for r in state(t)["pairings"].values() if r["round"] == 2]
    assert sorted([pid(a), pid(b)]) not in [sorted(p) for p in round_two]
    # Lifting it again is an option change too.
    services.tournament_configure(tournament=t, by=alice, forbidden_pairs=[], expected_seq=AT_HEAD)
    assert state(t)["options"]["forbidden_pairs"] == []
    refused(
        "no_forbidden_pairs",
        services.tournament_configure,
        tournament=open_tournament(alice, "round_robin", field(3, "q")),
        by=alice,
        forbidden_pairs=[],
    )


def test_the_check_in_window_is_set_before_the_start_only(alice):
    players = field(2)
    t = open_tournament(alice, "single_elimination", players)
    services.tournament_configure(
        tournament=t,
        by=alice,
        check_in_opens="2030-01-01T10:00:00+00:00",
        check_in_closes="2030-01-01T11:00:00+00:00",
        expected_seq=AT_HEAD,
    )
    options = state(t)["options"]
    assert options["check_in_required"] and options["check_in_opens"].startswith("2030-01-01T10:00")
    refused("check_in_not_open", services.tournament_check_in, tournament=t, user=players[0])
    refused(
        "bad_options", services.tournament_configure, tournament=t, by=alice, check_in_opens="2030-01-01T12:00:00+00:00"
    )  # would open after it closes
    started = open_tournament(alice, "single_elimination", field(2, "r"), start=True)
    refused(
        "already_started",
        services.tournament_configure,
        tournament=started,
        by=alice,
        check_in_closes="2030-01-01T11:00:00+00:00",
    )


def test_a_players_view_shows_their_next_match_results_and_standing(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    me = pid(players[0])
    view = selectors.player_view(state(t), me)
    assert view["next"]["round"] == 1 and view["results"] == [] and view["standing"]["rank"] >= 1
    settle(t, lambda r: me if me in r["players"] else lower_id_wins(r))
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    view = selectors.player_view(state(t), me)
    assert [r["outcome"] for r in view["results"]] == ["won"]
    assert view["results"][0]["points"] == "1"
    assert view["next"]["round"] == 2 and me in view["next"]["players"]
    assert str(view["standing"]["score"]) == "1" and view["standing"]["played"] == 1


def finish(draft_id, users_by_seat):
    for _ in range(120):
        m = Match.objects.get(pk=draft_id)
        to_move = DRAFT.to_move(m.state)
        if not to_move:
            return m
        seat = to_move[0]
        action = {k: v for k, v in DRAFT.auto_action(m.state, seat).items() if k != "auto"}
        match_act(match_id=m.id, user=users_by_seat[seat], seat=seat, action=action, expected_seq=m.state_seq)
    raise AssertionError("the draft did not end")


def test_a_four_coach_iwdl_tournament_drafts_first_and_each_pairing_plays_the_drafted_teams(alice):
    coaches = field(4, "coach")
    t = open_tournament(alice, "round_robin", coaches, game="wizard-dodgeball")
    refused("not_organiser", services.tournament_draft_open, tournament=t, by=coaches[0])
    out = services.tournament_draft_open(tournament=t, by=alice, expected_seq=AT_HEAD)
    draft = out.state["draft"]
    assert draft["seats"] == [pid(c) for c in coaches]
    draft_match = Match.objects.get(pk=draft["draft_id"])
    assert draft_match.game == "iwdl-draft" and draft_match.config["format"] == "tournament"
    assert draft_match.origin == {"tournament_draft": str(t.id)}
    refused("draft_exists", services.tournament_draft_open, tournament=t, by=alice)
    refused("draft_seated", services.tournament_register, tournament=t, user=field(1, "late")[0])

    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    record = next(r for r in state(t)["pairings"].values() if r["round"] == 1)
    head = state(t)["seq"]
    refused("draft_not_finished", services.tournament_match_create, tournament=t, pairing=record["id"], by=alice)
    assert state(t)["seq"] == head

    done = finish(draft["draft_id"], {i: c for i, c in enumerate(coaches)})
    assert [len(team) for team in done.state["teams"]] == [6, 6, 6, 6]
    out = services.tournament_match_create(tournament=t, pairing=record["id"], by=alice, expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"][record["id"]]["match_id"])
    a, b = (draft["seats"].index(p) for p in record["players"])
    assert match.game == "wizard-dodgeball"
    drafted = match_config(done.state, seats=(a, b))
    # The engine completes the config with its defaults; the teams are the drafted ones.
    assert [(t["wizards"], t["spells"]) for t in match.config["teams"]] == [
        (t["wizards"], t["spells"]) for t in drafted["teams"]
    ]
    summary = selectors.tournament_summary(tournament=t, user=alice)
    assert summary["draft"]["finished"] and summary["draft"]["url"] == f"/drafts/{draft['draft_id']}/"


def test_the_tournament_draft_needs_a_wizard_dodgeball_tournament_of_exactly_four(alice):
    refused("not_iwdl", services.tournament_draft_open, tournament=open_tournament(alice, "swiss", field(4)), by=alice)
    three = open_tournament(alice, "round_robin", field(3, "c"), game="wizard-dodgeball")
    refused("four_coaches_needed", services.tournament_draft_open, tournament=three, by=alice)
    assert not Event.objects.filter(stream_id=three.stream_id, type="draft.opened").exists()


def test_the_api_opens_the_draft_changes_options_and_serves_a_players_page(alice, client_for):
    coaches = field(4, "coach")
    t = open_tournament(alice, "round_robin", coaches, game="wizard-dodgeball")
    url = f"/api/tournaments/{t.id}"
    r = api_command(client_for(coaches[0]), t, "draft")
    assert r.status_code == 403 and r.json()["code"] == "not_organiser"
    r = api_command(client_for(alice), t, "draft", pick_order="straight")
    assert r.status_code == 201, r.json()
    assert r.json()["draft"]["coaches"] == [c.username for c in coaches]
    assert Match.objects.get(pk=r.json()["draft"]["draft_id"]).config["order"] == "straight"
    r = api_command(client_for(alice), t, "configure", tiebreaks=["wins", "head_to_head"])
    assert r.status_code == 201 and r.json()["options"]["tiebreaks"] == ["wins", "head_to_head"]
    r = api_command(client_for(alice), t, "configure", tiebreaks=["nonsense"])
    assert r.status_code == 400 and set(r.json()) >= {"code", "detail"}
    api_command(client_for(alice), t, "start")
    r = client_for(coaches[1]).get(f"{url}/?player={coaches[1].username}")
    assert r.status_code == 200
    assert r.json()["player"]["name"] == coaches[1].username and r.json()["player"]["next"]["round"] == 1
    assert client_for(alice).get(f"{url}/?player=nobody").status_code == 404
