#!/usr/bin/env bash
# Runs this checkout's CLI (dist/cli.js) with all arguments. At a release tag it is prebuilt (the release
# commit holds it: .github/workflows/release.yml), so nothing is installed; at any other commit the
# copies pre-commit (.pre-commit-hooks.yaml) and the GitHub Action (action.yml) run from are fresh
# clones without it, and it is built once per clone from the few packages it bundles (needs npm).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -f "$here/dist/cli.js" ]; then
  # Only the packages the command line bundles (esbuild, yaml, ajv and the LSP types), installed with
  # `npm ci` from scripts/cli-build/package-lock.json: the versions the repository's package-lock.json
  # holds, each checked against its integrity hash, no install scripts run. A few MB in a folder of
  # their own (.cli-build/), not the 520 development packages.
  echo "mcp-aql-errors: building the command line once in $here" >&2
  deps="$here/.cli-build"
  mkdir -p "$deps"
  cp "$here/scripts/cli-build/package.json" "$here/scripts/cli-build/package-lock.json" "$deps/"
  (cd "$deps" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
  (cd "$here" && NODE_PATH="$deps/node_modules" node esbuild.js --production --cli-only) >&2
fi
exec node "$here/dist/cli.js" "$@"
