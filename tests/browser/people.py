"""Helpers the browser tests share: the people they sign in as, and the match head a page shows."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model


def users(*names):
    """Accounts named ``names``, each with the password ``pw-<name>`` that ``page_as`` signs in with."""
    User = get_user_model()
    return [User.objects.create_user(n, password=f"pw-{n}") for n in names]


def fill_until_shown(page, selector: str, value: str, tries: int = 5) -> None:
    """Fill a field of a page that redraws itself on live updates, until the field shows ``value``.

    Playwright checks a field, then fills it in a second step; a redraw between the two replaces
    the field, and the value goes into the detached old one while the new one shows what the page
    knew before. A person cannot type into a field that is gone, so a test that fills across
    redraws looks at what the page shows, as the person would, and types again."""
    for _ in range(tries):
        page.fill(selector, value)
        if page.input_value(selector) == value:
            return
    raise AssertionError(f"{selector} never showed {value!r} after {tries} fills")


def head_seq(page):
    return page.locator("#match").get_attribute("data-head-seq")


def hold_first_answer(page, path_end: str, method: str) -> None:
    """Hold the page's first ``method`` fetch whose URL ends with ``path_end`` until the test calls
    ``window.__release()``. ``window.__held`` turns true once it is held, and ``window.__lateSeen``
    one task after the page has parsed it (its own handling runs in the microtasks before that
    task), so a test waits on what the page did with a late answer, not on a timeout."""
    page.add_init_script(
        """
(([pathEnd, method]) => {
  const original = window.fetch.bind(window);
  let held = false;
  window.fetch = async (url, init) => {
    const response = await original(url, init);
    if (held || !String(url).endsWith(pathEnd) || ((init && init.method) || "GET") !== method) return response;
    held = true;
    const text = await response.text();
    window.__held = true;
    await new Promise((release) => { window.__release = release; });
    const late = new Response(text, { status: response.status, headers: response.headers });
    const parse = late.json.bind(late);
    late.json = async () => { const value = await parse(); setTimeout(() => { window.__lateSeen = true; }, 0); return value; };
    return late;
  };
})(__ARGS__);
""".replace("__ARGS__", json.dumps([path_end, method]))
    )


def bot_bounds(rounds: int, name: str) -> list:
    """The two forms of a test that plays a newcomer's game against the bot to the end: bounded to
    ``rounds`` in the suite, and under the engine's default bound (what the home page starts, a
    minute and a half or more of clicks) in a ``slow`` run."""
    return [pytest.param(rounds, id=name), pytest.param(None, id="default-bound", marks=pytest.mark.slow)]


def match_against_the_bot(off_loop, game: str, max_rounds: int | None):
    """A match of ``game`` between a new person, "newcomer", and the heuristic bot, under
    ``max_rounds`` (None: the engine's default bound)."""
    from matches.services import SeatSpec, match_create

    (newcomer,) = users("newcomer")
    match = off_loop(
        match_create,
        game=game,
        seats=[SeatSpec(user=newcomer), SeatSpec(bot="heuristic")],
        created_by=newcomer,
        config={} if max_rounds is None else {"max_rounds": max_rounds},
    )
    return match
