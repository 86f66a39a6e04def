"""Which engines exist, by name and version. A match records both; replay asks for both."""

from __future__ import annotations

from .base import Engine

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
        raise UnknownEngine(f"No game called '{name}'.")
    version = version or _LATEST[name]
    try:
        return _ENGINES[(name, version)]
    except KeyError:
        raise UnknownEngine(f"{name} has no engine version {version}.") from None


def latest() -> list[Engine]:
    """The newest version of every game, in name order (stable for listings)."""
    _load_builtin()
    return [_ENGINES[(name, _LATEST[name])] for name in sorted(_LATEST)]


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for module in BUILTIN:
        importlib.import_module(module)


#: Packages that register their engines when imported.
BUILTIN = [
    "engines.dueling_wizards",
    "engines.iwdl_draft",
    "engines.wizard_dodgeball",
]
