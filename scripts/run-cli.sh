#!/usr/bin/env bash
# Runs this checkout's CLI (dist/cli.js) with all arguments. At a release tag it is prebuilt (the release
# commit holds it: .github/workflows/release.yml), so nothing is installed; at any other commit the
# copies pre-commit (.pre-commit-hooks.yaml) and the GitHub Action (action.yml) run from are fresh
# clones without it, and it is built once per clone (needs npm).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -f "$here/dist/cli.js" ]; then
  echo "mcp-aql-errors: building the command line once in $here" >&2
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && node esbuild.js --production) >&2
fi
exec node "$here/dist/cli.js" "$@"
