# Sourced by scripts/test: print the interpreter of Python $1 (e.g. 3.12) on this machine,
# for uv to use as it is (never a download). pyenv's shims hide its interpreters from uv,
# so pyenv's own install folder is asked first, then the PATH.
# shellcheck shell=bash
find_python() {
  local version=$1 found=""
  if command -v pyenv >/dev/null 2>&1; then
    local installed
    installed=$(pyenv versions --bare 2>/dev/null | grep -E "^${version//./\\.}(\\.[0-9]+)?$" | sort -V | tail -1)
    if [ -n "$installed" ] && [ -x "$(pyenv root)/versions/$installed/bin/python$version" ]; then
      found="$(pyenv root)/versions/$installed/bin/python$version"
    fi
  fi
  if [ -z "$found" ] && command -v "python$version" >/dev/null 2>&1; then
    found=$(command -v "python$version")
    case "$found" in */shims/*) found="" ;; esac
  fi
  if [ -z "$found" ]; then
    echo "scripts/test: Python $version is not installed here; the suite runs on 3.11, 3.12" \
      "and 3.13. Install it (pyenv install $version, or your system's python$version)." >&2
    return 1
  fi
  echo "$found"
}
