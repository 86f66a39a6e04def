"""The "How to play" page of every game: the text is the engine's own Markdown file (``Engine.howto``),
so a new game brings its page by declaring one; the picture comes from the engine's data (howto_pictures)."""

from __future__ import annotations

import inspect
from functools import lru_cache
from pathlib import Path

from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe
from markdown_it import MarkdownIt

from engines import registry
from engines.base import Engine

from . import howto_pictures


def howto_file(engine: Engine) -> Path | None:
    """The engine's how-to file, resolved beside the module that defines the engine class; None without one."""
    if not engine.howto:
        return None
    path = Path(inspect.getfile(type(engine))).parent / engine.howto
    return path if path.is_file() else None


def has_howto(name: str) -> bool:
    try:
        return howto_file(registry.get(name)) is not None
    except registry.UnknownEngine:
        return False


@lru_cache(maxsize=32)
def _render(path: str, mtime: float) -> str:
    # Raw HTML stays off: the files are ours, but the page's CSP and escaping should not depend on it.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return md.render(Path(path).read_text(encoding="utf-8"))


def how_to_play(request, name: str):
    try:
        engine = registry.get(name)
    except registry.UnknownEngine:
        raise Http404("No such game.") from None
    path = howto_file(engine)
    if path is None:
        raise Http404("This game has no How to play page yet.")
    body = _render(str(path), path.stat().st_mtime)
    picture = howto_pictures.picture(engine.name)
    return render(
        request,
        "games/how_to_play.html",
        {
            "engine": engine,
            "body": mark_safe(body),  # rendered from our own file with raw HTML disabled
            "picture": mark_safe(picture) if picture else None,  # built from numbers with escaped text
            "rated": bool(engine.rating),
        },
    )
