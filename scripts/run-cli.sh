#!/usr/bin/env bash
# Runs this checkout's CLI (dist/cli.js) with all arguments, building it first when it is missing:
# the copies of this repository that pre-commit (.pre-commit-hooks.yaml) and the GitHub Action
# (action.yml) run from are fresh clones. Needs node >= 20 and npm; the build happens once per clone.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -f "$here/dist/cli.js" ]; then
  echo "mcp-aql-errors: building the command line once in $here" >&2
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && node esbuild.js --production) >&2
fi
exec node "$here/dist/cli.js" "$@"
