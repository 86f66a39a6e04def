"""Which engines exist, by name and version. A match records both; replay asks for both."""

from __future__ import annotations

import threading

from .base import Engine, quoted

_ENGINES: dict[tuple[str, str], Engine] = {}
_LATEST: dict[str, str] = {}


def register(engine: Engine) -> Engine:
    key = (engine.name, engine.version)
    if key in _ENGINES:
        raise ValueError(f"engine {key} registered twice")
    _ENGINES[key] = engine
    if engine.name not in _LATEST or _version_key(engine.version) > _version_key(_LATEST[engine.name]):
        _LATEST[engine.name] = engine.version
    return engine


def _version_key(version: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in version.split("."))


class UnknownEngine(LookupError):
    pass


def get(name: str, version: str | None = None) -> Engine:
    _load_builtin()
    if name not in _LATEST:
        raise UnknownEngine(f"No game called {quoted(name, otherwise='that')}.")
    version = version or _LATEST[name]
    try:
        return _ENGINES[(name, version)]
    except KeyError:
        raise UnknownEngine(f"{name} has no engine version {version}.") from None


def latest() -> list[Engine]:
    """The newest version of every game, in name order (stable for listings)."""
    _load_builtin()
    return [_ENGINES[(name, _LATEST[name])] for name in sorted(_LATEST)]


def all_engines() -> list[Engine]:
    """Every registered engine, every version (for replay, verification and the conformance suite)."""
    _load_builtin()
    return [_ENGINES[key] for key in sorted(_ENGINES, key=lambda k: (k[0], _version_key(k[1])))]


def playable() -> list[Engine]:
    """The games people start from the pages: the newest version of each playable engine."""
    return [e for e in latest() if e.playable]


def preload() -> None:
    """Every engine imported and its data loaded (``Engine.preload``): for a process's start-up,
    before it freezes what it loaded and forks (config/asgi.py, config/celery.py)."""
    for engine in all_engines():
        engine.preload()


def rated() -> list[Engine]:
    return [e for e in latest() if e.rating]


_loaded = False
_LOADING = threading.RLock()  # re-entrant: an engine package may itself call into the registry


def _load_builtin() -> None:
    """Import every package under engines/: each registers its engines when imported.

    Discovery instead of a list, so adding a game touches only its own package. Packages
    are imported in name order so registration never depends on the file system's order."""
    global _loaded
    if _loaded:
        return
    # Many request threads may ask at once in a fresh process: one imports, the others wait for
    # it to finish (flagging "loaded" before the imports were done made them see no games).
    with _LOADING:
        if _loaded:
            return
        import importlib
        import pkgutil

        import engines

        for info in sorted(pkgutil.iter_modules(engines.__path__), key=lambda m: m.name):
            if info.ispkg:
                importlib.import_module(f"engines.{info.name}")
        _loaded = True
