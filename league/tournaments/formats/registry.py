"""The formats there are: every module of this package that defines a ``Format`` subclass with
a ``name``. Found on first use (not at import), so the pure table builders in ``standings.py``
can look a format up without importing the format modules that use them."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Format


class UnknownFormat(LookupError):
    pass


@cache
def _formats() -> dict[str, Format]:
    from .base import Format

    found: dict[str, Format] = {}
    package = importlib.import_module(__package__)
    for module_info in pkgutil.iter_modules(package.__path__):
        if module_info.name in ("base", "registry") or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.{module_info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Format)
                and value.__module__ == module.__name__
                and getattr(value, "name", "")
            ):
                if value.name in found:
                    raise RuntimeError(f"Two tournament formats are called {value.name!r}.")
                found[value.name] = value()
    return dict(sorted(found.items(), key=lambda kv: (kv[1].position, kv[0])))


def get(name: str) -> Format:
    try:
        return _formats()[name]
    except KeyError:
        raise UnknownFormat(f"Format is one of {', '.join(_formats())}.") from None


def of(state: dict) -> Format:
    """The format of a folded tournament state."""
    return get(state["format"])


def names() -> tuple[str, ...]:
    return tuple(_formats())


def all_formats() -> list[Format]:
    return list(_formats().values())
