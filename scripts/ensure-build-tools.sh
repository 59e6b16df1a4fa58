#!/usr/bin/env bash
# Make sure the compiled build of the rules (`make compiled`, issue 21) can be built: a C compiler
# and the headers of the Python that runs the venv. Installs Debian's build-essential and
# python3-dev when one is missing. Idempotent; needs root (or sudo) only when it installs.
# Usage: ensure-build-tools.sh PYTHON
set -euo pipefail
PY="${1:-python3}"

have_headers() {
    "$PY" -c 'import os, sysconfig; import sys; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'
}

if command -v "${CC:-cc}" >/dev/null 2>&1 && have_headers; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "ensure-build-tools: not root and no sudo; install Debian's build-essential and python3-dev" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
echo "ensure-build-tools: installing Debian's build-essential and python3-dev" >&2
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends build-essential python3-dev >/dev/null
if ! have_headers; then
    echo "ensure-build-tools: $PY has no Python.h even after installing python3-dev" >&2
    exit 1
fi
