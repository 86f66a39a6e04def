"""How to play, one page per game (issue 18, Deliver item 4): the text is the engine's own howto.md,
the picture is drawn from the engine's data; linked from the match page and the new-match form.
Also every rated game's leaderboard is linked from the home page and from its how-to page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from engines import registry
from matches.games.howto import howto_file
from matches.services import SeatSpec, match_create

pytestmark = pytest.mark.django_db

GAMES = ["dueling-wizards", "wizard-dodgeball", "spellcaster", "annihilageddon", "wizarding-duels"]
RULEBOOKS = Path("/work/shared/rules")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_how_to_play_page_with_a_heading_rulings_and_a_picture(game):
    response = Client().get(f"/games/{game}/how-to-play/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<h1>How to play {registry.get(game).title}</h1>" in html
    # The Markdown is rendered (headings, lists), not shown as raw "## ..." text.
    assert "<h2>The goal</h2>" in html and "## " not in html
    assert "<h2>Rulings that catch people out</h2>" in html
    assert re.search(r'<svg class="howto-picture" data-testid="howto-picture"[^>]*role="img"', html)
    assert '<title id="howto-picture-title">' in html


@pytest.mark.parametrize("game", GAMES)
def test_each_rated_game_s_how_to_play_page_links_its_leaderboard(game):
    html = Client().get(f"/games/{game}/how-to-play/").content.decode()
    assert f'href="/ratings/{game}/" data-testid="leaderboard-link"' in html


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


@pytest.mark.parametrize("game", [g for g in GAMES if (RULEBOOKS / f"{g}.txt").exists()])
def test_the_text_is_in_our_own_words_no_run_of_ten_words_comes_from_the_rulebook(game):
    # Facts and numbers may come from the rulebook, sentences may not: ten words in a row in
    # common with it would be a copied phrase.
    book = words((RULEBOOKS / f"{game}.txt").read_text(encoding="utf-8"))
    runs = {tuple(book[i : i + 10]) for i in range(len(book) - 9)}
    ours = words(howto_file(registry.get(game)).read_text(encoding="utf-8"))
    copied = [" ".join(ours[i : i + 10]) for i in range(len(ours) - 9) if tuple(ours[i : i + 10]) in runs]
    assert copied == []


def test_the_new_match_form_links_every_game_s_how_to_play_page_and_every_leaderboard(alice):
    client = Client()
    client.force_login(alice)
    html = client.get("/").content.decode()
    guides = html[html.index('data-testid="howto-links"') :]
    guides = guides[: guides.index("</p>")]
    for game in GAMES:
        assert f'href="/games/{game}/how-to-play/"' in guides
    boards = html[html.index('data-testid="leaderboard-links"') :]
    boards = boards[: boards.index("</p>")]
    assert re.findall(r'href="/ratings/([a-z-]+)/"', boards) == sorted(e.name for e in registry.rated())
    assert 'href="/ratings/dueling-wizards/">Dueling Wizards</a>' in boards


def test_the_match_page_links_its_game_s_how_to_play_page(alice, bob):
    match = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    client = Client()
    client.force_login(alice)
    html = client.get(f"/matches/{match.id}/").content.decode()
    assert 'href="/games/dueling-wizards/how-to-play/" data-testid="howto-link"' in html


def test_a_game_without_a_howto_file_has_no_link_and_its_page_is_not_found(alice, bob, monkeypatch):
    engine = registry.get("dueling-wizards")
    monkeypatch.setattr(engine, "howto", None)  # as a new game that brings no page
    match = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    client = Client()
    client.force_login(alice)
    assert 'data-testid="howto-link"' not in client.get(f"/matches/{match.id}/").content.decode()
    assert "/games/dueling-wizards/how-to-play/" not in client.get("/").content.decode()
    assert client.get("/games/dueling-wizards/how-to-play/").status_code == 404


def test_the_draft_and_unknown_games_have_no_how_to_play_page():
    # The IWDL draft is explained on Wizard Dodgeball's page; an unknown name is not a game.
    assert Client().get("/games/iwdl-draft/how-to-play/").status_code == 404
    assert Client().get("/games/no-such-game/how-to-play/").status_code == 404
    assert "draft" in Client().get("/games/wizard-dodgeball/how-to-play/").content.decode().lower()


@pytest.mark.parametrize("game", GAMES)
def test_every_link_in_a_how_to_play_text_leads_to_a_page(game):
    html = Client().get(f"/games/{game}/how-to-play/").content.decode()
    text = html[html.index('class="howto-text"') :]
    for href in re.findall(r'href="(/[^"]*)"', text):
        assert Client().get(href).status_code == 200, href
