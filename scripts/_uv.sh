# Sourced by the set-up scripts: make uv available and keep it on this machine's Python.
# shellcheck shell=bash
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export UV_PYTHON_DOWNLOADS=never
if command -v uv >/dev/null 2>&1; then
  UV=(uv)
else
  python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check 'uv>=0.13,<0.14'
  UV=(python3 -m uv)
fi
"${UV[@]}" sync --locked --all-packages --quiet
