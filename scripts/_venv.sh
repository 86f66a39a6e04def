# Sourced by scripts/start and scripts/test: one virtualenv beside the code, installed from pyproject.toml.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
target="."
[ -n "${EXTRAS:-}" ] && target=".[${EXTRAS}]"
# Install only when pyproject.toml changed since the last install of these extras: .ci/run and
# scripts/test both come here, and a reinstall costs half a minute for nothing.
stamp=".venv/.installed-$(printf '%s' "${EXTRAS:-none}" | tr -c 'A-Za-z0-9' '_')"
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  if ! .venv/bin/python -m pip install -q --disable-pip-version-check -e "$target" > .venv/install.log 2>&1; then
    cat .venv/install.log
    echo "Installing the project failed (log above)." >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
