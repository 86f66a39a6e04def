"""CSV cells that a spreadsheet opens as text, whoever chose the text."""

from __future__ import annotations

#: What a spreadsheet reads as the start of a formula (tab and carriage return as some do, OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value):
    """``value`` for a CSV cell of people's text (a name): one that starts like a formula gets a
    leading apostrophe, so the spreadsheet shows it and runs nothing. Only for text columns: a
    number column keeps its minus signs."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
