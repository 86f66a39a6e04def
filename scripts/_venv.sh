# Sourced by scripts/start and scripts/test: one virtualenv beside the code, installed from pyproject.toml.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[${EXTRAS:-}]" 2>&1 | grep -v "^WARNING: Location" || true
