# Sourced by the set-up scripts: make uv available and keep it on this machine's Python.
# shellcheck shell=bash
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/_find_uv.sh
"${UV[@]}" sync --locked --all-packages --quiet
