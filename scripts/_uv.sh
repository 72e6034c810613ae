# Sourced by the set-up scripts: make uv available and keep it on this machine's Python.
# shellcheck shell=bash
set -euo pipefail
# Python caches compiled modules (__pycache__): a machine that switches this off (some
# containers set PYTHONDONTWRITEBYTECODE=1) compiles all of hermes again in every process
# the tests start, about 1.3 s of CPU each (uv installs without compiling)
unset PYTHONDONTWRITEBYTECODE
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/_find_uv.sh
"${UV[@]}" sync --locked --all-packages --quiet
