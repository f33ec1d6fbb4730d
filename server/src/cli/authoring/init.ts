/**
 * `mcp-aql-errors init`: writes a commented `.mcp-aql.yaml` in the working directory (every key with
 * its default and what it does), like `eslint --init`. Never overwrites: a config file already there
 * (.yaml, .yml or .json) is an error, exit 2.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE_NAMES, DEFAULT_MAX_FILE_SIZE } from '../../service';
import { UsageError } from '../files';
import type { Io } from '../io';
import { parseOptions } from '../options';
import { writeOutput } from '../safeWrite';

export const INIT_CONFIG = `# MCP-AQL error contracts: the configuration the command line (mcp-aql-errors check) and the
# editor extension both read. Every key is optional; the values below are the defaults.
# Reference: https://github.com/mcp-aql/mcp-aql-errors#configuration-file

# Level per diagnostic code: off, hint, information, warning, error (README "Diagnostics").
rules: {}
# rules:
#   template.unquoted-placeholder: "off"
#   http.category-mismatch: error

# Extra globs of adapter files, added to *-adapter.md, *.adapter.{yaml,yml,json}, *-adapter.{yaml,yml}
# and YAML files whose top level has error_codes, error_mapping or type: adapter.
files: []

# Globs never checked, relative to this file's folder; a pattern without "/" matches a name at any depth.
ignore: []
# ignore:
#   - vendor/**
#   - "*.draft.adapter.yaml"

# Which other files' error_codes satisfy a code: of error_mapping: workspace, folder or file.
codeScope: workspace

# Files longer than this many characters get one file.too-large problem and are not checked.
maxFileSize: ${DEFAULT_MAX_FILE_SIZE}
`;

export function runInit(argv: readonly string[], io: Io): number {
  const { plain } = parseOptions('init', argv);
  if (plain.length) throw new UsageError(`init: unknown argument '${plain[0]}'`);
  const there = CONFIG_FILE_NAMES.find(n => existsSync(join(io.cwd, n)));
  if (there) throw new UsageError(`init: ${there} already exists; nothing written`);
  // Only where nothing is: a dangling link (which existsSync does not see) is refused too.
  writeOutput(io.cwd, CONFIG_FILE_NAMES[0]!, INIT_CONFIG, 'the config file', true);
  io.stderr(`wrote ${CONFIG_FILE_NAMES[0]}\n`);
  return 0;
}
