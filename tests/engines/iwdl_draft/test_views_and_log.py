"""What each coach and a spectator see, the match log, and hidden team building."""

import json

from engines.iwdl_draft import ENGINE as E
from engines.wizard_dodgeball.data import roster

from .helpers import P1, P2, ROSTER, act, basic_with, building, pick, run_auto, stacked, start

TOP = [21, 3, 58, 12, 44, 63, 25, 47, 10, 30, 7, 41]


def test_the_pool_shows_names_and_magic_in_draw_order():
    view = E.view(start(top=TOP), None)
    assert view["phase"] == "choose_first"
    card = view["pool"][0]
    assert {k: card[k] for k in ("jersey", "name", "magic", "move")} == {
        "jersey": 21,
        "name": "Hoary Burblepot",
        "magic": 3,
        "move": 4,
    }
    # The stat card's dice travel with it, so a coach sees what they draft.
    assert card["attack"] == roster()[21]["attack"] and card["resist"] == roster()[21]["resist"]
    assert [w["jersey"] for w in view["pool"]] == TOP[:10]
    assert view["deck_remaining"] == 14
    assert view["choosing_first"] == 1 and view["on_the_clock"] is None


def test_the_deck_order_is_never_shown_while_the_draft_is_live():
    """Advanced Draft (Schoolyard): only the pool is face up."""
    state = act(start(top=TOP), 1, {"type": "take_first_pick"})
    for viewer in (None, 0, 1):
        view = E.view(state, viewer)
        assert view["deck"] is None
        text = json.dumps(view)
        for jersey in state["deck"]:
            assert ROSTER[jersey]["name"] not in text


def test_the_view_shows_whose_pick_it_is_and_the_pick_history():
    state = act(start(top=TOP), 1, {"type": "pass_first_pick"})
    state = pick(state, 0, 21)
    view = E.view(state, 1)
    assert (view["phase"], view["on_the_clock"], view["pick_number"], view["picks_total"]) == ("picking", 1, 2, 10)
    assert view["history"] == [
        {
            "pick": 1,
            "seat": 0,
            "wizard": 21,
            "auto": False,
            "refill": 7,
            "name": "Hoary Burblepot",
            "magic": 3,
            "refill_name": "Brambletta Fogg",
        }
    ]
    assert view["teams"][0]["picks"][0]["jersey"] == 21
    assert view["legal_actions"] == [{"type": "pick", "wizard": j} for j in state["pool"]]
    assert E.view(state, 0)["legal_actions"] == []


def test_line_ups_and_spells_are_hidden_from_the_other_coach_and_spectators_until_all_are_ready():
    """Ruling on Setup: line-ups and spell lists are secret until both teams are set."""
    state = basic_with(P1, P2)
    state = act(state, 0, {"type": "lineup", "wizards": list(reversed(P1))})
    state = act(state, 0, {"type": "spells", "spells": ["freeze"]})
    mine = E.view(state, 0)
    assert mine["me"]["lineup"] == list(reversed(P1)) and mine["me"]["spells"] == ["freeze"]
    assert mine["me"]["spell_cost"] == 1 and mine["me"]["budget"] == 13
    for viewer in (1, None):
        team = E.view(state, viewer)["teams"][0]
        assert team["lineup"] is None and team["spells"] is None
        assert team["lineup_set"] and team["spells_set"]
    state = act(state, 0, {"type": "ready"})
    assert E.view(state, None)["ready"] == [0]
    for action in ({"type": "lineup", "wizards": P2}, {"type": "spells", "spells": []}, {"type": "ready"}):
        state = act(state, 1, action)
    view = E.view(state, None)
    assert view["phase"] == "over"
    assert view["teams"][0]["lineup"] == list(reversed(P1)) and view["teams"][0]["spells"] == ["freeze"]
    assert view["deck"] == state["deck"]


def test_a_spectator_sees_everything_public_and_has_no_actions():
    state = act(start(top=TOP), 1, {"type": "take_first_pick"})
    view = E.view(state, None)
    assert view["viewer"] is None and view["me"] is None and view["legal_actions"] == []
    assert view["to_move"] == [1] and view["first_pick"] == {"seat": 1, "choice": "take", "auto": False}


def test_a_six_wizard_teams_budget_is_hidden_from_others_once_its_line_up_is_set():
    state = building(start("tournament"))
    state = act(state, 2, {"type": "lineup", "wizards": state["teams"][2][1:]})
    assert E.view(state, 2)["budgets"][2] is not None
    assert E.view(state, 0)["budgets"][2] is None


def test_another_coachs_line_up_and_spell_actions_are_redacted_while_live():
    lineup = {"type": "lineup", "wizards": P1}
    spells = {"type": "spells", "spells": ["freeze"]}
    assert E.redact_action(0, lineup, 1) == {"type": "lineup"}
    assert E.redact_action(0, spells, None) == {"type": "spells"}
    assert E.redact_action(0, spells, 0) == spells
    assert E.redact_action(0, {"type": "pick", "wizard": 21}, 1) == {"type": "pick", "wizard": 21}
    assert E.redact_action(1, {"type": "ready"}, 0) == {"type": "ready"}


def line(state, seat, action):
    event = {"kind": "action", "seat": seat, "action": action}
    return E.describe(state, event, E.apply(state, event))


def test_the_log_reads_as_sentences():
    state = start(top=TOP)
    assert line(state, 1, {"type": "pass_first_pick"}) == (
        "Seat 1 (player 2) passes the first pick; seat 0 (player 1) picks first."
    )
    assert line(state, 1, {"type": "take_first_pick"}) == "Seat 1 (player 2) takes the first pick."
    state = act(state, 1, {"type": "pass_first_pick"})
    assert line(state, 0, {"type": "pick", "wizard": 21}) == (
        "Seat 0 (player 1) picks #21 Hoary Burblepot (MAGIC 3); #7 Brambletta Fogg joins the pool."
    )


def test_the_shuffle_is_logged_with_the_pool_but_not_the_deck():
    before = E.setup({}, 2)
    event = {"kind": "chance", "outcome": stacked(TOP)}
    after = E.apply(before, event)
    text = E.describe(before, event, after)
    assert text.startswith("The wizard deck is shuffled; the pool is #21 Hoary Burblepot, #3 Oswin Quillfeather")
    assert "Brambletta Fogg" not in text
    assert text.endswith("Player 2 (seat 1) takes the first pick or passes it.")


def test_team_building_lines_do_not_reveal_the_choices_until_the_end():
    state = basic_with(P1, P2)
    assert line(state, 0, {"type": "lineup", "wizards": P1}) == "Seat 0 (player 1) sets a line-up."
    assert line(state, 0, {"type": "spells", "spells": ["freeze"]}) == "Seat 0 (player 1) chooses a spell list."
    state = run_auto(state, until=lambda s: s["ready"][0] and s["lineups"][1] and s["spells"][1] is not None)
    final = line(state, 1, {"type": "ready"})
    assert final.startswith("Seat 1 (player 2) is ready. Every coach is ready; the draft is complete. Seat 0: #21")
