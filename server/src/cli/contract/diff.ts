/**
 * `mcp-aql-errors diff <old> <new>` / `diff --base REV [paths…]` (docs/contract-diff.md): every change between two
 * versions of the error contract, classified breaking / dangerous / safe (docs/contract-diff.md). Exit 0
 * when no change reaches --fail-on (default: breaking), 1 when one does, 2 bad usage or unreadable input.
 */
import { pathToFileURL } from 'node:url';
import { createAdapterService, DEFAULT_MAX_FILE_SIZE, type Severity } from '../../service';
import { InputError } from '../args';
import {
  neutralizeCommands,
  escapeControls,
  formatChangesJson,
  formatChangesMarkdown,
  formatChangesText,
  type ChangeReport,
  formatChangesGithub,
  formatChangesSarif,
} from '../format';
import { ConfigLookup } from '../config';
import { readPath, readRevision, type Side } from './sides';
import { deps, VERSION } from '../deps';
import { UsageError } from '../files';
import type { Io } from '../io';
import { parseOptions } from '../options';
import { writeOutputFile } from '../output';

export const DIFF_FORMATS = ['text', 'json', 'markdown', 'sarif', 'github'] as const;
const FAIL_ON = ['breaking', 'dangerous', 'none'] as const;

interface DiffArgs {
  paths: string[];
  base?: string;
  format: (typeof DIFF_FORMATS)[number];
  failOn: (typeof FAIL_ON)[number];
  outputFile?: string;
  config?: string;
  noConfig?: boolean;
  followSymlinks?: boolean;
}

function parse(argv: readonly string[]): DiffArgs {
  const { options, plain, afterDashes = [] } = parseOptions('diff', argv);
  const a: DiffArgs = { paths: [...plain, ...afterDashes], format: 'text', failOn: 'breaking' };
  for (const [name, v] of options) {
    const value = String(v);
    if (name === '--base') a.base = value;
    else if (name === '--format') {
      if (!(DIFF_FORMATS as readonly string[]).includes(value))
        throw new UsageError(`diff: unknown format '${value}' (${DIFF_FORMATS.join(', ')})`);
      a.format = value as DiffArgs['format'];
    } else if (name === '--fail-on') {
      if (!(FAIL_ON as readonly string[]).includes(value)) throw new UsageError(`--fail-on takes ${FAIL_ON.join(', ')}`);
      a.failOn = value as DiffArgs['failOn'];
    } else if (name === '--output-file') a.outputFile = value;
    else if (name === '--config') a.config = value;
    else if (name === '--no-config') a.noConfig = true;
    else if (name === '--follow-symlinks') a.followSymlinks = true;
  }
  if (a.config !== undefined && a.noConfig) throw new UsageError('--config and --no-config exclude each other');
  if (a.base === undefined && a.paths.length !== 2)
    throw new UsageError('diff needs two files, two folders, or --base <revision> [paths…]');
  // The old side is read through literal git pathspecs: a glob would match on one side only.
  if (a.base !== undefined && a.paths.some(p => /[*?[{]/.test(p))) throw new UsageError('diff --base takes files or folders, not globs');
  return a;
}

const RANK: Record<Severity, number> = { breaking: 2, dangerous: 1, safe: 0 };

export function runContractDiff(argv: readonly string[], io: Io): number {
  const args = parse(argv);
  const configs = new ConfigLookup(io.cwd, args);
  let before: Side, after: Side, title: string;
  if (args.base !== undefined) {
    ({ before, after } = readRevision(args.base, args.paths, io, configs, args.followSymlinks));
    title = `${args.base} → working tree`;
  } else {
    const [o, n] = args.paths as [string, string];
    const b = readPath(o, n, io, configs, args.followSymlinks);
    const a = readPath(n, n, io, configs, args.followSymlinks);
    if (b.folder !== a.folder) throw new UsageError('diff compares two files or two folders, not a file with a folder');
    [before, after, title] = [b, a, `${o} → ${n}`];
  }
  const service = createAdapterService(deps);
  const labels = new Map([...before.labels, ...after.labels]);
  // A named file that is not an adapter would have every code of the other side reported as added or
  // removed: with an old side not read, a gate would pass on "0 breaking". Refused, naming it.
  for (const side of [before, after])
    for (const { doc, opts } of side.inputs)
      if (side.named.has(doc.uri) && !service.isAdapter(doc, opts))
        throw new InputError(
          `diff: '${escapeControls(labels.get(doc.uri) ?? doc.uri)}' is not read as an adapter file (README "Which files"): nothing to compare`,
        );
  // An adapter the service will not parse (over maxFileSize) would look removed: refuse rather than report that.
  for (const { doc, opts } of [...before.inputs, ...after.inputs]) {
    const max = opts?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    if (doc.getText().length > max && service.isAdapter(doc, opts))
      throw new InputError(`${escapeControls(labels.get(doc.uri) ?? doc.uri)}: larger than maxFileSize (${max}); cannot compare`);
  }
  const changes = service.diffContracts(before.inputs, after.inputs);
  const report: ChangeReport = { changes, labels, title };
  const newUris = new Set(after.labels.keys());
  const text =
    args.format === 'json'
      ? formatChangesJson(report)
      : args.format === 'markdown'
        ? formatChangesMarkdown(report)
        : args.format === 'sarif'
          ? formatChangesSarif(report, VERSION, pathToFileURL(io.cwd).href, newUris)
          : args.format === 'github'
            ? formatChangesGithub(report, newUris)
            : formatChangesText(report);
  if (args.outputFile !== undefined) writeOutputFile(io, args.outputFile, text);
  // github: our annotations (io.ts lets exactly those through); json and sarif: `##[` escaped in their strings.
  else
    io.stdout(
      args.format === 'json' || args.format === 'sarif' ? neutralizeCommands(text, 'json') : text,
      args.format === 'github' ? 'annotations' : 'text',
    );
  if (args.failOn === 'none') return 0;
  return changes.some(c => RANK[c.severity] >= RANK[args.failOn as Severity]) ? 1 : 0;
}
