#!/usr/bin/env bash
# Installs Debian's chromium for the reference page's browser test (test/docs). Optional: without a
# system Chromium the test runs the headless one inside the @sparticuz/chromium devDependency
# (test/support/chromium.ts). CI installs it so that the page is checked on the distribution's current
# full Chromium too. Idempotent: does nothing when /usr/bin/chromium is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium
/usr/bin/chromium --version
