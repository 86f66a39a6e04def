"""Drive a 40-player, 6-round Swiss through the pages alone, as a newcomer would (issue 6,
"done means"): create it from the form, register everyone from the organiser panel, rule
every pairing, drop a player after round one, add a late player and correct a round-one
result after round two, pair each round, and read the final standings.

Accounts are the only thing made outside the pages. Run against a running server on the
same database, e.g.

    DATABASE_URL=... .venv/bin/python manage.py migrate
    DATABASE_URL=... .venv/bin/daphne -p 8765 config.asgi:application &
    DATABASE_URL=... .venv/bin/python benchmarks/tournament_pages.py --base-url http://127.0.0.1:8765 \
        --players 40 --rounds 6
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def make_accounts(prefix: str, count: int) -> tuple[str, list[str], str]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    User = get_user_model()
    org, late = f"{prefix}org", f"{prefix}late"
    names = [f"{prefix}{i:02d}" for i in range(1, count + 1)]
    for n in [org, late, *names]:
        User.objects.create_user(n, password=f"pw-{n}")
    return org, names, late


def run(base: str, players: int, rounds: int) -> None:
    from playwright.sync_api import sync_playwright

    prefix = f"b{uuid.uuid4().hex[:5]}"
    org_name, names, late = make_accounts(prefix, players)
    timings = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium") or "/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu"],
        )
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(20_000)
        started = time.monotonic()
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", org_name)
        page.fill("#id_password", f"pw-{org_name}")
        page.click("[data-testid=login] button[type=submit]")
        page.wait_for_selector("[data-testid=whoami]")
        page.goto(f"{base}/tournaments/")
        form = "[data-testid=new-tournament]"
        page.fill(f"{form} input[name=name]", f"Swiss {players}x{rounds}")
        page.select_option(f"{form} select[name=format]", "swiss")
        page.fill(f"{form} input[name=rounds]", str(rounds))
        page.click(f"{form} button[type=submit]")
        page.wait_for_selector("[data-testid=organiser] [data-testid=add-player-name]")
        for n in names:
            page.fill("[data-testid=add-player-name]", n)
            page.click("[data-testid=add-player]")
            page.wait_for_selector(f"[data-testid=players] li[data-player='{n}']")
        timings["registration"] = time.monotonic() - started
        page.click("[data-testid=start]")
        page.wait_for_selector("[data-testid=round-1] tbody tr")
        for rnd in range(1, rounds + 1):
            t0 = time.monotonic()
            ruled = 0
            while page.locator("[data-testid^=rule-select-]").count():
                pairing = page.locator("[data-testid^=rule-select-]").first.get_attribute("data-testid")
                pairing = pairing.removeprefix("rule-select-")
                page.click(f"[data-testid=rule-{pairing}]")
                page.wait_for_selector(f"[data-testid=rule-select-{pairing}]", state="detached")
                ruled += 1
            if rnd == 1:
                page.select_option("[data-testid=drop-select]", names[4])
                page.click("[data-testid=drop]")
                page.wait_for_selector(f"[data-testid=standings] tr:has-text('{names[4]} (dropped)')")
            if rnd == 2:
                page.fill("[data-testid=add-player-name]", late)
                page.click("[data-testid=late-join]")
                page.wait_for_selector(f"[data-testid=standings] td:has-text('{late}')")
                first = page.locator("[data-testid=round-1] [data-testid^=correct-select-]").first
                pairing = first.get_attribute("data-testid").removeprefix("correct-select-")
                before = page.inner_text(f"[data-testid=result-{pairing}]")
                other = next(o for o in first.locator("option").all_inner_texts() if o.endswith(" won") and o != before)
                first.select_option(label=other)
                page.click(f"[data-testid=correct-{pairing}]")
                page.wait_for_selector(f"[data-testid=result-{pairing}]:text('{other}')")
                print(f"corrected {pairing}: {before!r} -> {other!r}")
            if rnd < rounds:
                page.click("[data-testid=pair-next]")
                page.wait_for_selector(f"[data-testid=round-{rnd + 1}] tbody tr")
            timings[f"round {rnd}"] = time.monotonic() - t0
            print(f"round {rnd}: {ruled} pairings ruled in {timings[f'round {rnd}']:.1f} s")
        page.wait_for_selector("[data-testid=status]:text('Finished')")
        rows = page.locator("[data-testid=standings] tbody tr").count()
        winner = page.inner_text("[data-testid=champion]")
        for rnd in range(1, rounds + 1):
            text = page.inner_text(f"[data-testid=round-{rnd}]")
            assert (late in text) == (rnd >= 3), f"late entry in round {rnd}"
            if rnd >= 2:
                assert names[4] not in text, f"dropped player paired in round {rnd}"
        browser.close()
    print(
        f"{players} players + 1 late, {rounds} rounds: {rows} standings rows, {winner}; "
        f"total {time.monotonic() - started:.1f} s (registration {timings['registration']:.1f} s)"
    )
    assert rows == players + 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    run(args.base_url.rstrip("/"), args.players, args.rounds)
