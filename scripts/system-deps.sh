#!/usr/bin/env bash
# System packages the tests need: Debian's Chromium (browser tests, via Playwright),
# poppler-utils (pdftoppm/pdftotext for print-and-play checks), cairo and fonts (PDF).
# Installs them with apt-get when running as root; otherwise says what is missing.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
ldconfig -p 2>/dev/null | grep -q 'libcairo.so.2' || need+=(libcairo2)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "Missing system packages: ${need[*]} (install them with your package manager;" \
       "tests that need them will be skipped)" >&2
fi
