#!/usr/bin/env bash
# Installs the pinned stock Hermes (hermes-agent from PyPI) into .hermes/venv, for the tests that drive
# a real Hermes through its API server. Idempotent: a venv that already holds the pinned version is
# kept (CI caches .hermes/). Needs Python 3.11 to 3.13 (hermes-agent's own bounds); without one it
# says so and exits 3, so the tests can skip with that reason.
set -euo pipefail
cd "$(dirname "$0")/.."

HERMES_VERSION="0.19.0"
# aiohttp carries the API server; hermes-agent keeps it in its `messaging` extra, which also pulls
# Telegram, Discord and Slack clients. Only aiohttp is installed, at the version that extra pins.
AIOHTTP_VERSION="3.14.1"
VENV=".hermes/venv"
MARKER="$VENV/.iris-hermes-version"

# A cached venv is kept only if its Python still runs and still has the API server's aiohttp.
if [ -x "$VENV/bin/hermes" ] && [ "$(cat "$MARKER" 2>/dev/null)" = "$HERMES_VERSION" ] &&
  "$VENV/bin/python" -c 'import aiohttp' 2>/dev/null; then
  exit 0
fi

python=""
for candidate in ${HERMES_PYTHON:-} python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null 2>&1 &&
    "$candidate" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 14) else 1)' 2>/dev/null; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "hermes-venv: no Python 3.11-3.13 found (hermes-agent $HERMES_VERSION needs one); set HERMES_PYTHON to its path" >&2
  exit 3
fi

start=$(date +%s)
echo "hermes-venv: installing hermes-agent $HERMES_VERSION with $("$python" --version) into $VENV" >&2
rm -rf "$VENV"
"$python" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
  "hermes-agent==$HERMES_VERSION" "aiohttp==$AIOHTTP_VERSION"
echo "$HERMES_VERSION" >"$MARKER"
echo "hermes-venv: done in $(($(date +%s) - start)) s" >&2
