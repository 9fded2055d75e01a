#!/usr/bin/env bash
# Installs the Bun and Deno runtimes (npm packages `bun` and `deno`) into .tools/, outside the
# lockfile (.tools/package.json allows their install scripts): the `deno` package's other-platform
# optional dependencies are missing from package-lock.json, so `npm ci` would refuse it there.
# Idempotent; prints the two binaries.
# Bounded in time: npm gives up on a registry that refuses or does not answer, and the whole install
# on RUNTIMES_INSTALL_TIMEOUT seconds (default 150), saying what it could not fetch from where.
# RUNTIMES_DIR replaces .tools/ (the tests of this bound use an empty one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${RUNTIMES_DIR:-$root/.tools}"
bin="$tools/node_modules/.bin"
limit="${RUNTIMES_INSTALL_TIMEOUT:-150}"
if [ ! -x "$bin/bun" ] || [ ! -x "$bin/deno" ] \
  || ! "$bin/bun" --version >/dev/null 2>&1 || ! "$bin/deno" --version >/dev/null 2>&1; then
  mkdir -p "$tools"
  # npm 12 runs a dependency's install script only when the project's `allowScripts` allows it: both
  # packages' postinstalls put the platform binary behind their command (Bun's command fails without).
  printf '%s\n' '{ "private": true, "allowScripts": { "bun": true, "deno": true } }' >"$tools/package.json"
  registry="$(npm config get registry 2>/dev/null || echo 'the npm registry')"
  status=0
  # One retry after 2 to 5 s, 100 s per request (a binary's download included): npm's defaults wait 5 min
  # per request and retry twice on a silent registry.
  timeout --kill-after=5 "$limit" npm install --prefix "$tools" --no-save --no-package-lock --no-audit --no-fund \
    --loglevel=error --fetch-timeout=100000 --fetch-retries=1 --fetch-retry-mintimeout=2000 \
    --fetch-retry-maxtimeout=5000 bun deno >&2 || status=$?
  if [ "$status" -ne 0 ]; then
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      why="npm did not finish within ${limit} s (RUNTIMES_INSTALL_TIMEOUT)"
    else
      why="npm failed (exit ${status}; its error is above)"
    fi
    echo "install-runtimes: could not fetch the npm packages bun and deno from ${registry}: ${why}." >&2
    echo "install-runtimes: the Bun and Deno tests need them; run this script again once the registry answers." >&2
    exit 1
  fi
fi
echo "$bin/bun"
echo "$bin/deno"
