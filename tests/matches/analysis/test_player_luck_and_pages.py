"""A player's luck over their verified matches, and the fairness pages."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from matches.autoplay import autoplay_match
from matches.models import Event, Match
from matches.verification import match_verify

from ..helpers import fresh, new_duel, play_out

pytestmark = pytest.mark.django_db


def _verified_game_of(user, client) -> Match:
    match = play_out({0: client}, new_duel(user, bots=("random",)))
    if fresh(match).verdict != Match.Verdict.VERIFIED:
        match_verify(match_id=match.id)
    return fresh(match)


def test_a_players_luck_is_the_sum_of_their_seats_luck_in_their_verified_matches(client_for, alice):
    client = client_for(alice)
    matches = [_verified_game_of(alice, client) for _ in range(2)]
    autoplay_match(game="dueling-wizards", seats=2)  # not Alice's: not counted
    body = client_for().get("/api/players/alice/luck/").json()
    assert body["verified_matches"] == 2 and body["analysed"] == 2
    expected = sum(
        Fraction(client.get(f"/api/matches/{m.id}/analysis/").json()["luck"]["totals"][0]["luck"]["exact"])
        for m in matches
    )
    assert body["luck"] == pytest.approx(float(expected), abs=1e-5)
    assert {r["match"] for r in body["recent"]} == {str(m.id) for m in matches}
    assert body["by_game"] == [{"game": "dueling-wizards", "matches": 2, "luck": pytest.approx(body["luck"])}]


def test_a_disputed_match_counts_for_nobodys_luck(client_for, alice):
    match = _verified_game_of(alice, client_for(alice))
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.DISPUTED)
    body = client_for().get("/api/players/alice/luck/").json()
    assert body["verified_matches"] == 0 and body["analysed"] == 0 and body["luck"] == 0


def test_the_fairness_page_shows_every_group_with_its_p_value_and_says_what_it_means(client, alice):
    match = autoplay_match(game="spellcaster", seats=2)
    # The groups are read off the match's own chance events: which dice a random game rolls is
    # chance too (SpellCaster rolls its d10s only in a contest or a capture, which a short game
    # may never reach), but every game rolls who goes first and draws cards.
    specs = [
        data["spec"] for data in Event.objects.filter(stream__match=match, type="chance").values_list("data", flat=True)
    ]
    keys = {f"die:{lo}-{hi}" for s in specs if s["kind"] == "dice" for lo, hi in s["dice"]}
    keys |= {f"pool:{s['pool']}" for s in specs if s["kind"] == "draw"} | {"draw-tenths"}
    assert "die:0-1" in keys and any(k.startswith("pool:") for k in keys)
    page = client.get("/fairness/").content.decode()
    assert set(re.findall(r'data-testid="fairness-group" data-key="([^"]+)"', page)) == keys
    assert page.count("p = ") >= len(keys)
    assert "chi-square test gives a p-value" in page


def test_a_players_fairness_page_shows_their_luck(client, client_for, alice):
    _verified_game_of(alice, client_for(alice))
    page = client.get("/fairness/alice/").content.decode()
    assert 'data-testid="player-luck"' in page and "over 1 of\n    1 verified matches" in page
    assert client.get("/fairness/nobody/").status_code == 404


def test_a_players_unanalysed_matches_are_analysed_a_bounded_batch_per_request(client_for, alice, monkeypatch):
    from matches.analysis import api

    client = client_for(alice)
    for _ in range(2):
        _verified_game_of(alice, client)
    # One analysis per request here (ten in production): a long career is counted over a few requests.
    monkeypatch.setattr(api, "LUCK_FILL_PER_REQUEST", 1)
    assert client_for().get("/api/players/alice/luck/").json()["analysed"] == 1
    assert client_for().get("/api/players/alice/luck/").json()["analysed"] == 2


def test_an_analysis_made_by_other_odds_code_is_computed_again_before_it_counts_for_luck(client_for, alice):
    from matches.analysis.models import MatchAnalysis

    match = _verified_game_of(alice, client_for(alice))
    client_for().get(f"/api/matches/{match.id}/analysis/")
    # As if the engine's odds code had changed since (new stakes, new luck): the same analysis version.
    MatchAnalysis.objects.filter(match=match).update(odds_fingerprint="older-code", luck=[99.0, -99.0])
    body = client_for().get("/api/players/alice/luck/").json()
    assert MatchAnalysis.objects.get(match=match).odds_fingerprint != "older-code"
    assert body["analysed"] == 1 and abs(body["luck"]) < 99
