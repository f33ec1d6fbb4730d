#!/usr/bin/env bash
# Installs what the real-editor checks need (e2e-recipe.md): Debian's neovim, chromium, libkrb5-dev and
# ripgrep, and code-server 4.100.3 (a real VS Code 1.100.3 that runs on Node 20) into .cache/code-server.
# Idempotent; every file it makes lives in the project's ignored .cache/ (apt packages aside).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CS_VERSION=4.100.3
CS_DIR="$ROOT/.cache/code-server"

need_apt=()
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then echo "setup:e2e: missing ${need_apt[*]} and this is not root: install them with your package manager" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ ! -x "$CS_DIR/node_modules/.bin/code-server" ]; then
  mkdir -p "$CS_DIR" "$ROOT/.cache/tmp"
  # @vscode/ripgrep's postinstall downloads a binary from GitHub; seed its cache with Debian's rg instead.
  RG_TMP=$(mktemp -d "$ROOT/.cache/tmp/rg-XXXX"); RG_STAGE=$(mktemp -d "$ROOT/.cache/tmp/rgs-XXXX")
  cp "$(command -v rg)" "$RG_STAGE/rg"
  mkdir -p "$RG_TMP/vscode-ripgrep-cache-1.15.11"
  tar czf "$RG_TMP/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$RG_STAGE" rg
  (cd "$CS_DIR" && [ -f package.json ] || echo '{"name":"code-server-cache","private":true}' > "$CS_DIR/package.json")
  (cd "$CS_DIR" && TMPDIR="$RG_TMP" npm_config_yes=true npm_config_unsafe_perm=true \
     npm install --no-audit --no-fund --no-save --unsafe-perm "code-server@$CS_VERSION" >"$ROOT/.cache/code-server-install.log" 2>&1) \
    || { tail -30 "$ROOT/.cache/code-server-install.log" >&2; exit 1; }
  rm -rf "$RG_TMP" "$RG_STAGE"
fi
echo "setup:e2e: $(nvim --version | head -1); $(/usr/bin/chromium --version 2>/dev/null); code-server $(XDG_CONFIG_HOME="$ROOT/.cache/xdg" XDG_DATA_HOME="$ROOT/.cache/xdg" "$CS_DIR/node_modules/.bin/code-server" --version 2>/dev/null | tail -1 || echo '?')"
