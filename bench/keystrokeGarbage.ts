/**
 * Old-space garbage per keystroke, in-process (bench/NOTES.md, "memory over long typing sessions"): the service opens a generated adapter
 * (bench/gen.ts) in a document kept in pieces as the language server keeps it (lsp/pieceDocument.ts), then types one
 * character at a time at the three edit sites of lspBench.ts (`service.edited`, the document updated, `validate`) and
 * prints how the old and large-object spaces grow: with `--max-semi-space-size=4` (the server's flag) what outlives two
 * scavenges lands there and stays until V8's next full collection, which at 10,000 codes comes late (old space may grow
 * to several times what the open left), and the process's CPU per keystroke. `--mode=parse` builds the model only;
 * `--mode=none` updates the document only. `--reindex=30`: after every 30 keystrokes the document is re-indexed as the
 * server does when typing pauses (lsp/indexing.ts → node/workspacePass `indexText`, into the workspace index the service
 * resolves against), and what each re-index adds to the old and large-object spaces and its CPU are printed apart
 * (bench/NOTES.md, "the re-index after a pause").
 *
 *   node --max-semi-space-size=4 --import tsx bench/keystrokeGarbage.ts [--codes=10000] [--keys=150] [--mode=all|parse|none] [--reindex=30]
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { createAdapterService, createWorkspaceIndex } from '../server/src/service';
import { indexText } from '../server/src/node/workspacePass';
import { PieceDocument } from '../server/src/lsp/pieceDocument';
import { updateClamped } from '../server/src/lsp/textDocuments';
import { deps } from '../test/lsp/harness';
import { editOffsets, generate } from './gen';

const arg = (name: string, def: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const n = Number(arg('codes', '10000'));
const keys = Number(arg('keys', '150'));
const mode = arg('mode', 'all');
const reindexEvery = Number(arg('reindex', '0'));
const index = createWorkspaceIndex();
const service = createAdapterService({ ...deps(), workspace: index });
const uri = 'file:///bench/garbage.adapter.yaml';
const text = generate(n);
const doc = new PieceDocument(uri, 'yaml', 1, text);
// Indexed at the open before its first validation, as the server does (lsp/indexing.ts `opened`: the fast scan).
indexText(service, index, uri, doc, {});
service.validate(doc);
const sites = editOffsets(text, n);
const offsets = Array.from({ length: Math.ceil(keys / sites.length) }, (_, r) => sites.map((o, k) => o + r + k * (r + 1)))
  .flat()
  .slice(0, keys);
const mb = (x: number) => x / 1048576;
const spaces = () => {
  const s = new Map(getHeapSpaceStatistics().map(x => [x.space_name, mb(x.space_used_size)] as const));
  return { old: s.get('old_space') ?? 0, large: s.get('large_object_space') ?? 0 };
};
const first = spaces();
const cpu0 = process.cpuUsage();
/** Per re-index: old space and large objects added, CPU in ms. */
const reindexes: { old: number; large: number; ms: number }[] = [];
let reindexCpu = 0;
for (const [i, off] of offsets.entries()) {
  const pos = doc.positionAt(off);
  updateClamped(doc, [{ range: { start: pos, end: pos }, text: 'x' }], i + 2, (u, f, t, e) => service.edited(u, f, t, e));
  if (mode === 'parse') service.prepareRename(doc, { line: 0, character: 0 });
  else if (mode !== 'none') service.validate(doc);
  if (reindexEvery && (i + 1) % reindexEvery === 0) {
    const before = spaces();
    const c0 = process.cpuUsage();
    indexText(service, index, uri, doc, {});
    const c = process.cpuUsage(c0);
    const after = spaces();
    const ms = (c.user + c.system) / 1000;
    reindexCpu += ms;
    reindexes.push({ old: after.old - before.old, large: after.large - before.large, ms });
  }
}
const cpu = process.cpuUsage(cpu0);
const last = spaces();
if (reindexes.length)
  process.stdout.write(
    `re-indexes: ${reindexes.map(r => `+${r.old.toFixed(1)} old, +${r.large.toFixed(1)} large, ${r.ms.toFixed(1)} ms`).join('; ')}\n`,
  );
const per = (a: number, b: number) => (((b - a) / keys) * 1024).toFixed(1);
process.stdout.write(
  `${n} codes, ${keys} keystrokes (${mode}): old space ${first.old.toFixed(1)} → ${last.old.toFixed(1)} MB (${per(first.old, last.old)} KB a keystroke), ` +
    `large objects ${first.large.toFixed(1)} → ${last.large.toFixed(1)} MB (${per(first.large, last.large)} KB a keystroke); ` +
    `CPU ${(((cpu.user + cpu.system) / 1000 - reindexCpu) / keys).toFixed(2)} ms a keystroke` +
    `${reindexes.length ? ` (the ${reindexes.length} re-indexes apart)` : ''}\n`,
);
