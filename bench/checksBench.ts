/**
 * In-process micro-bench of the checks side of a keystroke: `node --import tsx bench/checksBench.ts [sizes]`.
 * One service, one generated file per size (bench/gen.ts), one-character edits at the first, middle and
 * last entries (insert, then delete) through `service.edited`; per keystroke the model is built first
 * (prepareRename at the top of the file: the parse alone), then `validate` on the cached model times the
 * checks plus the diagnostics conversion. Medians in ms. Profile with `node --cpu-prof --import tsx ...`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type Registry } from '../server/src/service';
import { median } from './floor';
import { editOffsets, generate } from './gen';

const ROOT = join(__dirname, '..');
const read = (p: string): unknown => JSON.parse(readFileSync(join(ROOT, p), 'utf8'));
const sizes = (process.argv[2] ?? '10000,20000').split(',').map(Number);
const KEYSTROKES = Number(process.argv[3] ?? 60);

for (const n of sizes) {
  const service = createAdapterService({
    registry: read('schemas/error-registry.json') as Registry,
    schema: read('schemas/adapter.schema.json') as object,
  });
  const uri = 'file:///bench/bench.adapter.yaml';
  let text = generate(n);
  let version = 1;
  let doc = TextDocument.create(uri, 'yaml', version, text);
  let t = performance.now();
  const first = service.validate(doc);
  const open = performance.now() - t;
  const places = editOffsets(text, n);
  const parse: number[] = [];
  const checks: number[] = [];
  let count = 0;
  for (let k = 0; k < KEYSTROKES; k++) {
    const at = places[k % places.length]!;
    const insert = Math.floor(k / places.length) % 2 === 0;
    const change = insert ? { start: at, end: at, text: 'x' } : { start: at, end: at + 1, text: '' };
    text = text.slice(0, change.start) + change.text + text.slice(change.end);
    service.edited(uri, version, version + 1, [change]);
    doc = TextDocument.create(uri, 'yaml', ++version, text);
    t = performance.now();
    service.prepareRename(doc, { line: 0, character: 0 });
    parse.push(performance.now() - t);
    t = performance.now();
    count = service.validate(doc).length;
    checks.push(performance.now() - t);
  }
  console.log(
    `${n} codes: open ${open.toFixed(1)} ms (${first.length} diagnostics); per keystroke (median of ${KEYSTROKES}): parse ${median(parse).toFixed(2)} ms, checks ${median(checks).toFixed(2)} ms (${count} diagnostics)`,
  );
}
