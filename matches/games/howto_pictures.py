"""Pictures for the How to play pages: small SVGs drawn on the server from each engine's own data
(the court, the board, the map, the cards), so a picture changes when the data does.

``picture(name)`` returns the SVG markup or None for a game without a drawing. Every text that comes
from a data file is escaped; everything else is numbers."""

from __future__ import annotations

import json
import math
from pathlib import Path

from django.utils.html import escape

ENGINES = Path(__file__).resolve().parents[2] / "engines"


def _svg(width: float, height: float, label: str, body: str) -> str:
    return (
        f'<svg class="howto-picture" data-testid="howto-picture" viewBox="0 0 {width:g} {height:g}" '
        f'role="img" aria-labelledby="howto-picture-title" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="howto-picture-title">{escape(label)}</title>{body}</svg>'
    )


def dueling_wizards() -> str:
    from engines.dueling_wizards.deck import CIRCLE, SUIT_NAMES

    colours = {"R": "#7a5230", "S": "#5b6b7a", "L": "#3f7a3a", "P": "#b8a46a", "W": "#2f6fa8"}
    cx, cy, r = 160, 150, 105
    spots = {}
    for i, suit in enumerate(CIRCLE):
        a = -math.pi / 2 + i * 2 * math.pi / len(CIRCLE)
        spots[suit] = (cx + r * math.cos(a), cy + r * math.sin(a))
    arrowhead = (
        '<defs><marker id="howto-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>'
    )
    parts = [arrowhead]
    n = len(CIRCLE)
    for i, suit in enumerate(CIRCLE):
        for step, dash in ((1, ""), (2, ' stroke-dasharray="5 4"')):
            x1, y1 = spots[suit]
            x2, y2 = spots[CIRCLE[(i + step) % n]]
            dx, dy = x2 - x1, y2 - y1
            d = math.hypot(dx, dy)
            sx, sy, ex, ey = x1 + dx / d * 30, y1 + dy / d * 30, x2 - dx / d * 32, y2 - dy / d * 32
            parts.append(
                f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="#333" '
                f'stroke-width="1.6"{dash} marker-end="url(#howto-arrow)"/>'
            )
    for suit in CIRCLE:
        x, y = spots[suit]
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="28" fill="{colours[suit]}"/>'
            f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="13" fill="#fff">'
            f"{escape(SUIT_NAMES[suit])}</text>"
        )
    order = " → ".join(SUIT_NAMES[s] for s in CIRCLE + CIRCLE[:1])
    return _svg(
        320,
        300,
        f"The circle of strength: {order}; each suit beats the next two "
        "(solid arrow: the next suit, dashed: the one after).",
        "".join(parts),
    )


def wizard_dodgeball() -> str:
    data = json.loads((ENGINES / "wizard_dodgeball" / "data" / "court.json").read_text())
    court = data["courts"][0]
    cols, rows, s = court["width"], court["length"], 22
    fills = {"back": "#e8efe0", "front": "#f6f2df"}
    parts = []
    for zone in court["zones"]:
        lo, hi = zone["rows"]
        for row in range(lo, hi + 1):
            for col in range(1, cols + 1):
                fill = "#d9d4f0" if row in court["neutral_rows"] else fills[zone["kind"]]
                parts.append(
                    f'<rect x="{(row - 1) * s}" y="{(col - 1) * s}" width="{s}" height="{s}" '
                    f'fill="{fill}" stroke="#9a9a9a" stroke-width="0.6"/>'
                )
    for line in court["attack_lines"]:
        x = line["between_rows"][1] * s - s
        parts.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{cols * s}" stroke="#b3261e" stroke-width="3"/>')
    for side, colour in zip(court["sides"], ("#1f5fa8", "#a8431f")):
        for col, row in side["default_start"]:
            parts.append(f'<circle cx="{(row - 0.5) * s}" cy="{(col - 0.5) * s}" r="8" fill="{colour}"/>')
    for col, row in court["stars"]:
        parts.append(f'<circle cx="{(row - 0.5) * s}" cy="{(col - 0.5) * s}" r="5" fill="#f2c230" stroke="#6b5400"/>')
    return _svg(
        rows * s,
        cols * s,
        f"The {court['name']}: {cols} squares wide and {rows} long, back zones at both ends behind the "
        "red attack lines, the shared neutral row in the middle with the five balls, and each team's "
        "five wizards on their starting squares.",
        "".join(parts),
    )


def spellcaster() -> str:
    data = json.loads((ENGINES / "spellcaster" / "data" / "board.json").read_text())
    colours = {"fire": "#c0392b", "earth": "#2e7d32", "water": "#1f5fa8", "air": "#7d7d7d"}
    scale, pad = 70, 30
    xy = {p: (pad + v["xy"][0] * scale, pad + v["xy"][1] * scale) for p, v in data["points"].items()}
    parts = []
    pairs: dict[tuple[str, str], list[str]] = {}
    for path in data["paths"]:
        a, b = path["between"]
        pairs.setdefault((a, b), []).append(path["element"])
    for (a, b), elements in sorted(pairs.items()):
        (x1, y1), (x2, y2) = xy[a], xy[b]
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy)
        nx, ny = -dy / d * 4, dx / d * 4
        for i, element in enumerate(elements):
            off = i - (len(elements) - 1) / 2
            parts.append(
                f'<line x1="{x1 + nx * off:.1f}" y1="{y1 + ny * off:.1f}" x2="{x2 + nx * off:.1f}" '
                f'y2="{y2 + ny * off:.1f}" stroke="{colours[element]}" stroke-width="2.5"/>'
            )
    for point, (x, y) in sorted(xy.items()):
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="#fff" stroke="#222" stroke-width="1.5"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="10">{escape(point)}</text>'
        )
    size = pad * 2 + 4 * scale
    return _svg(
        size,
        size,
        f"{data['name']}: each line is a path of one element (red fire, green earth, "
        "blue water, grey air) between two neighbouring points.",
        "".join(parts),
    )


def annihilageddon() -> str:
    cards = json.loads((ENGINES / "annihilageddon" / "cards" / "main.json").read_text())
    sample, seen = [], set()
    for card in cards:  # one card of each of the first types, in the file's order
        if card.get("type") not in seen:
            seen.add(card.get("type"))
            sample.append(card)
        if len(sample) == 4:
            break
    w, h, gap = 130, 180, 12
    parts = []
    for i, card in enumerate(sample):
        x = gap + i * (w + gap)
        parts.append(
            f'<rect x="{x}" y="10" width="{w}" height="{h}" rx="10" fill="#2b2140" stroke="#c9a227" '
            f'stroke-width="2"/>'
            f'<text x="{x + 8}" y="32" font-size="11" fill="#fff" font-weight="bold">'
            f"{escape(card['name'][:20])}</text>"
            f'<text x="{x + 8}" y="50" font-size="10" fill="#e0d7f5">{escape(card["type"])}</text>'
            f'<circle cx="{x + w - 18}" cy="{h - 8}" r="12" fill="#c9a227"/>'
            f'<text x="{x + w - 18}" y="{h - 4}" text-anchor="middle" font-size="11">{int(card["cost"])}</text>'
            f'<text x="{x + 8}" y="{h - 4}" font-size="10" fill="#fff">{int(card["vp"])} VP</text>'
        )
        words, line, y = card["text"].split(), "", 72
        for word in words:
            if len(line) + len(word) > 22:
                parts.append(f'<text x="{x + 8}" y="{y}" font-size="9" fill="#fff">{escape(line)}</text>')
                line, y = "", y + 12
                if y > h - 30:
                    break
            line = f"{line} {word}".strip()
        else:
            parts.append(f'<text x="{x + 8}" y="{y}" font-size="9" fill="#fff">{escape(line)}</text>')
    names = ", ".join(c["name"] for c in sample)
    return _svg(
        gap + len(sample) * (w + gap),
        h + 20,
        f"Four main-deck cards ({names}): name, type, rules text, victory points bottom left and "
        "cost in the gold coin.",
        "".join(parts),
    )


def wizarding_duels() -> str:
    pack = json.loads((ENGINES / "wizarding_duels" / "packs" / "original-v1.json").read_text())
    board = pack["maps"][0]
    hexes = board["halves"][0]["hexes"]
    colours = {
        "open": "#f3efe2",
        "difficult": "#c9b27c",
        "dangerous": "#d9735b",
        "obscuring": "#8fb38a",
        "impassable": "#4a4a4a",
    }
    size = 16
    centres = {}
    for key, terrain in hexes.items():
        q, r = (int(v) for v in key.split(","))
        centres[key] = (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r, terrain)
    minx = min(x for x, _, _ in centres.values()) - size
    miny = min(y for _, y, _ in centres.values()) - size
    maxx = max(x for x, _, _ in centres.values()) + size
    maxy = max(y for _, y, _ in centres.values()) + size
    parts = []
    for key in sorted(centres):
        x, y, terrain = centres[key]
        x, y = x - minx, y - miny
        corners = " ".join(
            f"{x + size * math.cos(math.radians(60 * k - 30)):.1f},{y + size * math.sin(math.radians(60 * k - 30)):.1f}"
            for k in range(6)
        )
        parts.append(
            f'<polygon points="{corners}" fill="{colours.get(terrain, "#fff")}" stroke="#777" stroke-width="0.8"/>'
        )
    legend = ", ".join(
        f"{t} {c}"
        for t, c in (
            ("open", "pale"),
            ("difficult", "tan"),
            ("dangerous", "red"),
            ("obscuring", "green"),
            ("impassable", "dark grey"),
        )
    )
    return _svg(
        maxx - minx, maxy - miny, f"One half of the {board['name']} map, hex by hex ({legend}).", "".join(parts)
    )


_DRAWERS = {
    "dueling-wizards": dueling_wizards,
    "wizard-dodgeball": wizard_dodgeball,
    "spellcaster": spellcaster,
    "annihilageddon": annihilageddon,
    "wizarding-duels": wizarding_duels,
}


def picture(name: str) -> str | None:
    drawer = _DRAWERS.get(name)
    return drawer() if drawer else None
