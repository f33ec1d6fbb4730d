#!/usr/bin/env bash
# Installs what the real-editor checks need: Debian's neovim (the second real LSP client).
# Idempotent; needs root for apt-get (CI and the developer machines run as root).
set -euo pipefail
if ! command -v nvim >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then echo "setup:e2e: neovim is missing and this is not root: install it with your package manager" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends neovim >/dev/null
fi
echo "setup:e2e: $(nvim --version | head -1)"
