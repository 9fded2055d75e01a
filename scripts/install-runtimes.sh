#!/usr/bin/env bash
# Installs the Bun and Deno runtimes (npm packages `bun` and `deno`) into .tools/, outside the
# lockfile: the `deno` package's other-platform optional dependencies are missing from
# package-lock.json, so `npm ci` would refuse it there. Idempotent; prints the two binaries.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
bin="$tools/node_modules/.bin"
if [ ! -x "$bin/bun" ] || [ ! -x "$bin/deno" ] \
  || ! "$bin/bun" --version >/dev/null 2>&1 || ! "$bin/deno" --version >/dev/null 2>&1; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-save --no-package-lock --no-audit --no-fund --loglevel=error bun deno >&2
fi
echo "$bin/bun"
echo "$bin/deno"
