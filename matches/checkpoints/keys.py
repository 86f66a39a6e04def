"""The platform's Ed25519 signing key for checkpoints.

From the environment: ``CHECKPOINT_SIGNING_KEY`` (base64 of the 32-byte raw private key), or
``CHECKPOINT_KEY_FILE`` (a file holding that base64 text). Either may also be a Django setting
of the same name, which wins. The embedded default for a first run (DEBUG on, nothing set):
a key generated once and kept in ``$XDG_DATA_HOME/wizard-duels/checkpoint-signing.key``
(``~/.local/share/...``), outside the repository so it is never committed. With DEBUG off the
key must be given: a production key generated on the fly would sign checkpoints nobody can
tie to the platform's published key.

Generate one with: python -c "import base64, os; print(base64.b64encode(os.urandom(32)).decode())"
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from audit import checkpoint as audit_checkpoint


def _setting(name: str) -> str:
    value = getattr(settings, name, None)
    return str(value) if value else os.environ.get(name, "")


def default_key_file() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "wizard-duels" / "checkpoint-signing.key"


def _decode(text: str, where: str) -> bytes:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 32:
        raise ImproperlyConfigured(f"{where} must be the base64 of a 32-byte Ed25519 private key.")
    return raw


def _generate(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # O_EXCL: two processes starting together keep the first one's key, never a mix.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as handle:
        handle.write(base64.b64encode(os.urandom(32)).decode("ascii") + "\n")


def signing_key() -> bytes:
    """The raw 32-byte private key."""
    inline = _setting("CHECKPOINT_SIGNING_KEY")
    if inline:
        return _decode(inline, "CHECKPOINT_SIGNING_KEY")
    named = _setting("CHECKPOINT_KEY_FILE")
    if named:
        path = Path(named)
        if not path.exists():
            raise ImproperlyConfigured(f"CHECKPOINT_KEY_FILE names {path}, which does not exist.")
    else:
        if not settings.DEBUG:
            raise ImproperlyConfigured("Set CHECKPOINT_SIGNING_KEY or CHECKPOINT_KEY_FILE when DEBUG is false.")
        path = default_key_file()
        if not path.exists():
            _generate(path)
    return _decode(path.read_text(encoding="ascii"), str(path))


def public_key() -> str:
    """Base64 of the raw 32-byte public key, as published."""
    return audit_checkpoint.public_key_of(signing_key())


def key_id() -> str:
    return audit_checkpoint.key_id(public_key())
