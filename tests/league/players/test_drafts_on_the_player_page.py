"""A draft on a player's page (league.players): nobody wins a draft, so it is never counted as won,
drawn, lost or unfinished. The draft game's own line says how each of the player's drafts ended:
completed (it ran to its end and handed its teams on), forfeited (the player resigned it, or ran
out of time), or forfeited by another coach."""

from __future__ import annotations

import pytest
from django.test import Client

from engines import registry
from league.drafts import services as draft_services
from league.players.selectors import player_profile
from matches import services as match_services
from matches.models import Match
from matches.services import SeatSpec
from tests.matches.helpers import fresh

pytestmark = pytest.mark.django_db

DRAFT = registry.get("iwdl-draft")


def open_draft(first, second) -> Match:
    draft = draft_services.draft_create(
        seats=[SeatSpec(user=first), SeatSpec(user=second)], created_by=first, config={"format": "schoolyard"}
    )
    return draft.draft_match


def draft_to_its_end(draft_match: Match, coaches) -> Match:
    for _ in range(200):
        match = fresh(draft_match)
        to_move = DRAFT.to_move(match.state)
        if not to_move:
            return match
        seat = to_move[0]
        action = {k: v for k, v in DRAFT.auto_action(match.state, seat).items() if k != "auto"}
        match_services.match_act(
            match_id=match.id, user=coaches[seat], seat=seat, action=action, expected_seq=match.state_seq
        )
    raise AssertionError("the draft did not end")


def resigned_by(draft_match: Match, coach) -> Match:
    match_services.match_resign(match_id=draft_match.id, user=coach, expected_seq=fresh(draft_match).state_seq)
    return fresh(draft_match)


@pytest.fixture
def drafts(make_user, django_capture_on_commit_callbacks):
    """ann's drafts against ben: one run to its end, two she resigned, one he resigned. All verified."""
    ann, ben = make_user("ann"), make_user("ben")
    with django_capture_on_commit_callbacks(execute=True):
        done = draft_to_its_end(open_draft(ann, ben), {0: ann, 1: ben})
        hers = [resigned_by(open_draft(ann, ben), ann), resigned_by(open_draft(ben, ann), ann)]
        his = resigned_by(open_draft(ann, ben), ben)
    played = [fresh(m) for m in (done, *hers, his)]
    assert [m.status for m in played] == [Match.Status.FINISHED] * 4
    assert [m.verdict for m in played] == [Match.Verdict.VERIFIED] * 4
    return ann, ben, played


def the_draft_line(username: str) -> str:
    html = Client().get(f"/players/{username}/").content.decode()
    start = html.index('data-testid="record-iwdl-draft"')
    return " ".join(html[html.index(">", start) + 1 : html.index("</p>", start)].split())


def test_a_players_drafts_are_counted_as_drafts_not_as_wins_or_losses(drafts):
    ann, ben, _ = drafts
    line = the_draft_line("ann")
    assert line == "Drafts: 1 completed · 2 forfeited · 1 forfeited by another coach"
    assert "won" not in line and "lost" not in line and "unfinished" not in line
    assert the_draft_line("ben") == "Drafts: 1 completed · 1 forfeited · 2 forfeited by another coach"


def test_each_recent_draft_says_how_it_ended(drafts):
    ann, _, played = drafts
    game = next(g for g in player_profile(username="ann")["games"] if g["game"] == "iwdl-draft")
    said = {r["match"]["id"]: r["said"] for r in game["recent"]}
    assert [said[m.id] for m in played] == ["completed", "forfeited", "forfeited", "forfeited by another coach"]
    html = Client().get("/players/ann/").content.decode()
    table = html[html.index('data-testid="recent-iwdl-draft"') :]
    table = table[: table.index("</table>")]
    assert table.count(">forfeited by another coach<") == 1 and table.count(">completed<") == 1
    assert ">won<" not in table and ">lost<" not in table and ">drew<" not in table


def test_a_draft_is_not_in_the_won_drawn_lost_record_of_any_game(drafts):
    ann, *_ = drafts
    for game in player_profile(username="ann")["games"]:
        if game["game"] == "iwdl-draft":
            assert game["record"].get("won", 0) == game["record"].get("lost", 0) == 0
            assert game["record"].get("drew", 0) == game["record"].get("unfinished", 0) == 0
