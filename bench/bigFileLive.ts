/**
 * The live heap the language server keeps for one big open file (bench/NOTES.md, "eighth sitting"): the real server
 * wiring in this process (test/lsp/harness.ts's in-memory client), one generated adapter opened with `maxFileSize` at
 * its ceiling, then a full collection: heap used before the open and after its diagnostics. Needs `--expose-gc`.
 *
 *   node --expose-gc --import tsx bench/bigFileLive.ts [--mib=14.4]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inMemory, PLAIN } from '../test/lsp/harness';
import { generate } from './gen';
import * as hollow from '../server/src/service/parse/hollow';

const arg = (name: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const mib = Number(arg('mib') ?? 14.4);
const gc = (globalThis as { gc?: () => void }).gc!;
const mb = () => process.memoryUsage().heapUsed / 1e6;

async function main(): Promise<void> {
  const dir = join(__dirname, 'work', 'big', `${mib}mib`);
  const file = join(dir, 'big.adapter.yaml');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, generate(Math.round(mib * 4687.5)));
  }
  // The limit raised beside the file too, as bench/bigFileBench.ts does for `check` (the server reads it).
  writeFileSync(join(dir, '.mcp-aql.yaml'), `maxFileSize: ${16 * 1024 * 1024}\n`);
  const client = await inMemory(PLAIN, { maxFileSize: 16 * 1024 * 1024 });
  const uri = pathToFileURL(file).href;
  gc();
  const before = mb();
  const t0 = performance.now();
  await client.open(uri, readFileSync(file, 'utf8'));
  const d = await client.waitForDiagnostics(uri, undefined, 120_000);
  const ms = performance.now() - t0;
  gc();
  gc();
  console.log(
    `${mib} MiB: live heap ${(mb() - before).toFixed(1)} MB over the server before the open; ${d.length} diagnostics, ${ms.toFixed(0)} ms; ${hollow.rereads} entries read again`,
  );
  // Keystrokes inside the first entry's template (every chunk after it moves): didChange → that version's diagnostics.
  const keys: string[] = [];
  for (let v = 2; v <= 5; v++) {
    const k0 = performance.now();
    await client.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: 7, character: 25 }, end: { line: 7, character: 25 } }, text: 'x' }],
    });
    while (!client.publications.some(p => p.uri === uri && p.version === v)) await new Promise(res => setImmediate(res));
    keys.push((performance.now() - k0).toFixed(0));
  }
  gc();
  console.log(
    `keystrokes: ${keys.join(' / ')} ms; live heap after them ${(mb() - before).toFixed(1)} MB; ${hollow.rereads} entries read again in all`,
  );
  await client.close();
}
void main();
