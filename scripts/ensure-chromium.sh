#!/usr/bin/env bash
# Install Debian's chromium (for the browser tests) when it is not already there.
# Idempotent; needs root (or sudo) the first time. Never downloads a browser build of its own.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure-chromium: not root and no sudo; install Debian's 'chromium' package" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
echo "ensure-chromium: installing Debian's chromium package" >&2
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
command -v chromium >/dev/null
