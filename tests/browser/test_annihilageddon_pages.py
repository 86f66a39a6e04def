"""Annihilageddon in a real browser: a newcomer beats (or loses to) the bot from the home page, four
people play at one table, the card gallery shows the whole set (issue 11, item 6).

The page script carries the card set as people read it; ``catalog()`` below is its source, and
``python -m tests.browser.test_annihilageddon_pages --write`` rewrites it after a card edit.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "games" / "annihilageddon.js"
MARK = re.compile(r"/\*catalog\*/(.*?)/\*end\*/", re.S)


def catalog() -> dict:
    """What the page shows of each card: its numbers and its text, never its program."""
    from engines.annihilageddon.cards import CARDS

    out = {}
    for cid in sorted(CARDS):
        c = CARDS[cid]
        row = {"name": c["name"], "kind": c["kind"], "type": c.get("type"), "cost": c.get("cost"),
               "vp": c.get("vp", 0) if type(c.get("vp", 0)) is int else "*", "copies": c.get("copies", 1),
               "icons": list(c.get("icons", [])), "text": c["text"]}
        if c.get("wizard"):
            row["wizard"] = c["wizard"]
        if "respawn_hp" in c:
            row["hp"] = c["respawn_hp"]
        if c.get("letter") == "first":
            row["first"] = True
        out[cid] = row
    return out


def script_catalog() -> dict:
    return json.loads(MARK.search(SCRIPT.read_text(encoding="utf-8")).group(1))


def test_the_page_script_carries_the_engines_card_set_card_for_card():
    # A card edited in engines/annihilageddon/cards/ and not regenerated here would show people
    # a text the engine does not play.
    assert script_catalog() == catalog()


if __name__ == "__main__" and "--write" in sys.argv:
    text = SCRIPT.read_text(encoding="utf-8")
    blob = json.dumps(catalog(), ensure_ascii=False, separators=(",", ":"))
    SCRIPT.write_text(MARK.sub(lambda m: f"/*catalog*/{blob}/*end*/", text, count=1), encoding="utf-8")
    print(f"wrote {len(blob)} characters of card data into {SCRIPT}")
