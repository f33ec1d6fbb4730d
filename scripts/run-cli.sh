#!/usr/bin/env bash
# Runs this checkout's CLI (dist/cli.js) with all arguments. At a release tag it is prebuilt (the release
# commit holds it: .github/workflows/release.yml), so nothing is installed; at any other commit the
# copies pre-commit (.pre-commit-hooks.yaml) and the GitHub Action (action.yml) run from are fresh
# clones without it, and it is built once per clone from the few packages it bundles (needs npm).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -f "$here/dist/cli.js" ]; then
  # Only the packages the command line bundles (esbuild, yaml, ajv and the LSP types, at the versions
  # package-lock.json holds), in a folder of their own: a few MB, not the 520 development packages.
  echo "mcp-aql-errors: building the command line once in $here" >&2
  deps="$here/.cli-build"
  pins="$(cd "$here" && node -p 'const l = require("./package-lock.json").packages; ["esbuild", "yaml", "ajv", "vscode-languageserver-types", "vscode-languageserver-textdocument"].map(n => n + "@" + l["node_modules/" + n].version).join(" ")')"
  mkdir -p "$deps"
  # shellcheck disable=SC2086 # $pins is a list of name@version words
  (cd "$deps" && npm install --prefix "$deps" --no-save --no-package-lock --no-audit --no-fund --loglevel=error $pins) >&2
  (cd "$here" && NODE_PATH="$deps/node_modules" node esbuild.js --production --cli-only) >&2
fi
exec node "$here/dist/cli.js" "$@"
