/**
 * `mcp-aql-errors preview <file> [--code X] [--dialect …|all] [--status N --body JSON] [--format text|json]`
 * (design s5): the envelopes a client receives, each with its schema verdict. Exit 0 all valid,
 * 1 an envelope fails its schema, 2 bad usage or unreadable input.
 */
import { relative, resolve } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type EnvelopePreview, type SimulationResult } from '../../service';
import { readRegularFile } from '../../node/readRegularFile';
import { fileUri } from '../../node/bytePaths';
import { deps } from '../deps';
import { leavesCwd, LINK_NOTE, UsageError } from '../files';
import { jsonText, escapeControls, shownPath } from '../format';
import { parseOptions } from '../options';
import type { Io } from '../io';

const DIALECT_IDS = ['mcp-aql', 'mcp-tool-result', 'json-rpc', 'atlas-gate'];

interface PreviewArgs {
  file?: string;
  code?: string;
  dialect: string;
  status?: number;
  body?: unknown;
  format: 'text' | 'json';
  mirror: boolean;
  follow?: boolean;
}

function parse(argv: readonly string[]): PreviewArgs {
  const a: PreviewArgs = { dialect: 'all', format: 'text', mirror: false };
  const { options, plain } = parseOptions('preview', argv);
  if (plain.length > 1) throw new UsageError('preview takes one file');
  a.file = plain[0];
  for (const [x, v] of options) {
    const val = () => v as string;
    switch (x) {
      case '--code':
        a.code = val();
        break;
      case '--dialect':
        a.dialect = val();
        if (a.dialect !== 'all' && !DIALECT_IDS.includes(a.dialect))
          throw new UsageError(`unknown dialect '${a.dialect}' (${DIALECT_IDS.join(', ')}, all)`);
        break;
      case '--status': {
        const n = Number(val());
        if (!Number.isInteger(n) || n < 100 || n > 599) throw new UsageError('--status takes an HTTP status 100–599');
        a.status = n;
        break;
      }
      case '--body': {
        const v = val();
        try {
          a.body = JSON.parse(v);
        } catch (e) {
          throw new UsageError(`--body is not JSON: ${(e as Error).message}`);
        }
        break;
      }
      case '--format': {
        const f = val();
        if (f !== 'text' && f !== 'json') throw new UsageError("--format takes 'text' or 'json'");
        a.format = f;
        break;
      }
      case '--mirror-confirmation':
        a.mirror = true;
        break;
      case '--follow-symlinks':
        a.follow = true;
        break;
    }
  }
  if (!a.file) throw new UsageError('preview needs a file');
  if (a.body !== undefined && a.status === undefined) throw new UsageError('--body goes with --status');
  return a;
}

export async function runPreview(argv: readonly string[], io: Io): Promise<number> {
  const a = parse(argv);
  const path = resolve(io.cwd, a.file!);
  // The same rules as check: a link leading out of the working directory is not followed, only a regular file is read.
  if (!a.follow && leavesCwd(path, io.cwd)) throw new UsageError(`'${a.file}': ${LINK_NOTE}`);
  const read = readRegularFile(path);
  if (!read.ok) throw new UsageError(`cannot read '${a.file}': ${read.message}`);
  const text = new TextDecoder('utf-8').decode(read.bytes);
  const doc = TextDocument.create(fileUri(path), 'yaml', 1, text);
  const service = createAdapterService(deps);
  if (!service.isAdapter(doc)) throw new UsageError(`'${a.file}' is not an adapter file`);
  let sim: SimulationResult | undefined;
  let p: EnvelopePreview | undefined;
  if (a.status !== undefined) {
    sim = service.simulate(doc, { status: a.status, body: a.body });
    p = sim.preview;
  } else {
    const code = a.code ?? service.declaredCodes(doc)[0]?.code;
    if (!code) throw new UsageError(`'${a.file}' declares no error_codes: name one with --code`);
    p = service.preview(doc, { code, mirrorConfirmation: a.mirror });
    if (p?.source === 'unknown')
      throw new UsageError(`preview: unknown code '${code}': neither a registry code nor declared in ${shownPath(relative(io.cwd, path))}`);
  }
  if (!p) throw new UsageError('nothing to preview');
  const dialects = p.dialects.filter(d => a.dialect === 'all' || d.id === a.dialect);
  if (a.format === 'json') {
    const out: Record<string, unknown> = {};
    for (const d of dialects) out[d.id] = { envelope: d.envelope, valid: d.valid, errors: d.errors };
    io.stdout(jsonText(out));
  } else {
    // Every part that comes from the adapter or the command line has its control characters escaped.
    const lines: string[] = [];
    const push = (...ls: string[]) => lines.push(...ls.map(l => escapeControls(l)));
    if (sim) {
      push(`Upstream ${sim.status} → ${sim.code} (rule: ${sim.rule})`);
      for (const c of sim.considered) {
        push(`  ${c.matched ? '✓' : '✗'} ${c.rule}${c.code ? ` → ${c.code}` : ''}${c.condition ? `  when ${c.condition}` : ''}`);
        for (const s of c.steps) push(`      ${s}`);
        if (c.error) push(`      condition not understood: ${c.error}`);
      }
      push('');
    }
    push(`${p.code} — ${p.category ?? 'no category'} (${p.source}${p.kind === 'warning' ? ', warning' : ''})`, `message: ${p.message}`);
    for (const n of p.notes) push(`note: ${n}`);
    for (const d of dialects) {
      // JSON escapes C0 controls in strings but not DEL, C1 or bidi controls; its own line breaks are kept.
      push('', `== ${d.title} [${d.valid ? 'valid' : 'INVALID'}] ==`, d.channel, ...JSON.stringify(d.envelope, null, 2).split('\n'));
      for (const e of d.errors) push(`  ✗ ${e}`);
    }
    io.stdout(lines.join('\n') + '\n');
  }
  return dialects.every(d => d.valid) ? 0 : 1;
}
