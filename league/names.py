"""What a name chosen by a person may hold: text on one line, shown as it reads.

Names of tournaments, leagues and clubs go into page titles, e-mail subjects (Django refuses a
line break there, so a tournament named across two lines could never send its mails), one-line
exports (TRF, CSV) and other people's screens. So no control characters (line breaks, tabs,
escapes), no line or paragraph separators, and no bidirectional embeddings, overrides or
isolates, which make a name display as another text than it is ("Trojan Source"). Marks that
only join or shape letters (the zero-width joiner in an emoji sequence) stay allowed.
"""

from __future__ import annotations

import unicodedata

#: U+202A-U+202E (embeddings and overrides) and U+2066-U+2069 (isolates).
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def name_problem(value: str) -> str | None:
    """Why ``value`` cannot be a name, as a sentence's end, or None."""
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return "a name is one line of text, without line breaks, tabs or other control characters"
        if ch in BIDI_CONTROLS:
            return "a name may not hold characters that change the direction text is shown in"
    return None
