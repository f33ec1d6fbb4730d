// The floor of a workspace check (docs/performance.md): read every adapter file and `parseDocument` it with `yaml`
// (a Markdown adapter's front matter; a JSON adapter whole), on N worker threads, nothing else.
// Usage: node --require bench/rss.cjs bench/yamlFloor.mjs <dir> [threads=2]; prints the file count.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseDocument } from 'yaml';

const ADAPTER = /(-adapter\.md|\.adapter\.ya?ml|\.adapter\.json)$/;

function list(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) list(p, out);
    else if (ADAPTER.test(e.name)) out.push(p);
  }
  return out;
}

function parseOne(path) {
  let text = readFileSync(path, 'utf8');
  if (path.endsWith('.md')) {
    const end = text.indexOf('\n---', 4);
    text = text.slice(4, end < 0 ? text.length : end + 1);
  }
  return parseDocument(text).errors.length;
}

if (isMainThread) {
  const [dir, threads = '2'] = process.argv.slice(2);
  const files = list(dir);
  const n = Math.max(1, Number(threads));
  const per = Math.ceil(files.length / n);
  let done = 0;
  for (let i = 0; i < n; i++) {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: files.slice(i * per, (i + 1) * per) });
    w.on('message', () => {
      if (++done === n) process.stdout.write(`${files.length}\n`);
    });
  }
} else {
  let errors = 0;
  for (const p of workerData) errors += parseOne(p);
  parentPort.postMessage(errors);
}
