"""Words for the identifiers league pages would otherwise show raw (tie-break and spell ids)."""

from __future__ import annotations

from django import template

register = template.Library()

#: league.seasons.table.CRITERIA in words.
TIEBREAK_WORDS = {
    "head_to_head": "head-to-head results",
    "wizard_difference": "wizard difference",
    "wizards_remaining": "wizards remaining",
    "wins": "wins",
    "lot": "drawing lots",
}


@register.filter
def tiebreak_words(criteria) -> str:
    """["head_to_head", "wins", "lot"] -> "head-to-head results, then wins, then drawing lots"."""
    words = [TIEBREAK_WORDS.get(c, str(c).replace("_", " ")) for c in criteria or ()]
    return ", then ".join(words)


@register.filter
def spell_name(card_id) -> str:
    """A Wizard Dodgeball spell card id ("slow_speed") -> its name ("Slow / Speed")."""
    from engines.wizard_dodgeball import data

    card = data.spell_cards().get(card_id)
    return card["name"] if card else str(card_id).replace("_", " ")
