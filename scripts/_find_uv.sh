# Sourced by _uv.sh (and its test): set UV to a uv command of the pinned series, installing
# it when the machine has none. Never downloads a Python.
# shellcheck shell=bash
export UV_PYTHON_DOWNLOADS=never
UV_SPEC='uv>=0.13,<0.14'
# The scripts work on the checkout's own environments (.venv, .venv-3.12, ...): an activated
# virtual environment is not theirs, and uv's project commands would warn "VIRTUAL_ENV=...
# does not match the project environment path ... and will be ignored" on every call.
# Each uv call runs without it (`--active` would target that environment instead).
if command -v uv >/dev/null 2>&1; then
  UV=(env -u VIRTUAL_ENV uv)
elif python3 -m uv --version >/dev/null 2>&1; then
  UV=(env -u VIRTUAL_ENV python3 -m uv)
else
  # uv goes into a private virtual environment in the user's cache, never into python3
  # itself: Debian's and Ubuntu's own python3 refuses pip installs (PEP 668), and another
  # python3 (an activated virtual environment's, say) is not the scripts' to change.
  UV_TOOL_ENV="${XDG_CACHE_HOME:-$HOME/.cache}/hermes-plugin-kit/uv"
  if ! "$UV_TOOL_ENV/bin/uv" --version >/dev/null 2>&1; then
    if ! out=$(env -u VIRTUAL_ENV python3 -m venv --clear "$UV_TOOL_ENV" 2>&1); then
      echo "cannot install uv: python3 -m venv failed (on Debian/Ubuntu: apt install python3-venv)" >&2
      echo "$out" >&2
      exit 1
    fi
    if ! out=$("$UV_TOOL_ENV/bin/python" -m pip install --quiet --disable-pip-version-check \
      "$UV_SPEC" 2>&1); then
      echo "cannot install uv into $UV_TOOL_ENV with pip:" >&2
      echo "$out" >&2
      exit 1
    fi
  fi
  UV=(env -u VIRTUAL_ENV "$UV_TOOL_ENV/bin/uv")
fi
