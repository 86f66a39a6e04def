"""Club crests drawn as SVG from a club's colours and initials (original artwork, generated)."""

from __future__ import annotations

from html import escape


def initials(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w[:1].isalpha()]
    return "".join(w[0] for w in words[:2]).upper()


def crest_svg(*, name: str, colours: list[str], size: int = 48) -> str:
    primary, secondary = (colours + ["#5b3cc4", "#ffffff"])[:2]
    text = escape(initials(name))
    return (
        f'<svg class="crest" role="img" aria-label="{escape(name)} crest" width="{size}" height="{size}" '
        f'viewBox="0 0 40 48" xmlns="http://www.w3.org/2000/svg">'
        f'<path d="M2 3 H38 V22 C38 35 28 43 20 46 C12 43 2 35 2 22 Z" fill="{escape(primary)}" '
        f'stroke="#1d1b2f" stroke-width="2"/>'
        f'<path d="M2 16 L38 8 V18 L2 26 Z" fill="{escape(secondary)}" opacity="0.85"/>'
        f'<text x="20" y="38" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="700" '
        f'font-size="13" fill="{escape(secondary)}" stroke="#1d1b2f" stroke-width="0.4">{text}</text></svg>'
    )
