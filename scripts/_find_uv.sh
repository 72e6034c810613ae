# Sourced by _uv.sh (and its test): set UV to a uv command of the pinned series, installing
# it with pip when the machine has none. Never downloads a Python.
# shellcheck shell=bash
export UV_PYTHON_DOWNLOADS=never
UV_SPEC='uv>=0.13,<0.14'
if command -v uv >/dev/null 2>&1; then
  UV=(uv)
elif python3 -m uv --version >/dev/null 2>&1; then
  UV=(python3 -m uv)
elif python3 -m pip install --quiet --disable-pip-version-check "$UV_SPEC" 2>/dev/null \
  && python3 -m uv --version >/dev/null 2>&1; then
  UV=(python3 -m uv)
else
  # An externally managed python3 (PEP 668: Debian's and Ubuntu's own) refuses pip
  # installs; uv goes into a private virtual environment of the checkout instead.
  UV_TOOL_ENV="$(pwd)/.cache/uv-tool"
  if [ ! -x "$UV_TOOL_ENV/bin/uv" ]; then
    python3 -m venv "$UV_TOOL_ENV" \
      || { echo "cannot install uv: python3 has no venv module (apt install python3-venv)" >&2; exit 1; }
    "$UV_TOOL_ENV/bin/python" -m pip install --quiet --disable-pip-version-check "$UV_SPEC"
  fi
  UV=("$UV_TOOL_ENV/bin/uv")
fi
