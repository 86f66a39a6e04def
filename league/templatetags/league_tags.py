import uuid

from django import template
from django.utils.safestring import mark_safe

from league.seasons.crest import crest_svg

register = template.Library()


@register.simple_tag
def crest(club, size=32):
    """A club's crest as inline SVG (built from escaped data only); a Club or a standings row."""
    name = club["name"] if isinstance(club, dict) else club.name
    colours = club["colours"] if isinstance(club, dict) else club.colours
    return mark_safe(crest_svg(name=name, colours=list(colours), size=size))  # noqa: S308


@register.filter
def form_letters(form: str):
    return list(form or "")


@register.simple_tag
def new_event_id() -> str:
    """A fresh command id for a form: the page's one press and its resends share it (idempotent)."""
    return str(uuid.uuid4())
