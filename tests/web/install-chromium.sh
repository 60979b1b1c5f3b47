#!/usr/bin/env bash
# install-chromium.sh - the Debian package of the headless browser that tests/web/ screenshots the
# judge's web pages with (Debian 12, root). Part of the README's test command and of .ci/run.
set -euo pipefail
if command -v chromium >/dev/null; then
    echo "[chromium] already installed: $(chromium --version 2>/dev/null | head -1)" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then apt-get update -q; fi
apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core \
    || { apt-get update -q && apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core; }
echo "[chromium] installed: $(chromium --version 2>/dev/null | head -1)" >&2
