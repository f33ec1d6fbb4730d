/**
 * Where the language server's heap goes for one big open file (bench/NOTES.md, "tenth sitting"): V8's sampling heap
 * profiler in this process, the real server wiring (test/lsp/harness.ts), the generated adapter of bigFileLive.ts
 * opened, its diagnostics, 4 s, two full collections; then the sampled bytes still live (or, with `--garbage`, every
 * sampled allocation, collected or not) by allocating function and by the innermost function of the project, each
 * with the first characters of its code (tsx puts a module on one line). Needs `--expose-gc` and the file made by
 * bigFileLive.ts or bigFileServerMemory.ts.
 *
 *   node --expose-gc --import tsx bench/bigFileHeapProfile.ts [--mib=14.4] [--garbage | --major]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';
import { inMemory, PLAIN } from '../test/lsp/harness';

const arg = (name: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const mib = Number(arg('mib') ?? 14.4);
const garbage = process.argv.includes('--garbage');
/** `--major`: also what a mark-compact collected (what outlived the young generation), not what a scavenge did. */
const major = process.argv.includes('--major');
const gc = (globalThis as { gc?: () => void }).gc!;

interface PNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number; scriptId: string };
  selfSize: number;
  children: PNode[];
}

async function main(): Promise<void> {
  const file = join(__dirname, 'work', 'big', `${mib}mib`, 'big.adapter.yaml');
  const client = await inMemory(PLAIN, { maxFileSize: 16 * 1024 * 1024 });
  const uri = pathToFileURL(file).href;
  const text = readFileSync(file, 'utf8');
  gc();
  const s = new Session();
  s.connect();
  await s.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: garbage || major,
    includeObjectsCollectedByMinorGC: garbage,
  } as never);
  await client.open(uri, text);
  await client.waitForDiagnostics(uri, undefined, 120_000);
  await new Promise(r => setTimeout(r, 4000));
  gc();
  gc();
  const { profile } = (await s.post('HeapProfiler.getSamplingProfile')) as unknown as { profile: { head: PNode } };
  await s.post('HeapProfiler.stopSampling');
  const self = new Map<string, number>();
  const stack = new Map<string, number>();
  await s.post('Debugger.enable');
  const sources = new Map<string, string>();
  const srcOf = async (id: string) => {
    if (!sources.has(id))
      sources.set(
        id,
        ((await s.post('Debugger.getScriptSource', { scriptId: id } as never)) as unknown as { scriptSource: string }).scriptSource,
      );
    return sources.get(id)!;
  };
  const snippet = new Map<string, string>();
  const collect = async (n: PNode) => {
    if (n.callFrame.url.includes('server/src')) {
      const lines = (await srcOf(n.callFrame.scriptId)).split('\n');
      const l = lines[n.callFrame.lineNumber] ?? '';
      snippet.set(
        `${n.callFrame.scriptId}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`,
        l.slice(n.callFrame.columnNumber, n.callFrame.columnNumber + 70).replace(/\s+/g, ' '),
      );
    }
    for (const c of n.children) await collect(c);
  };
  await collect(profile.head);
  const walk = (n: PNode, path: string[]) => {
    const sn = snippet.get(`${n.callFrame.scriptId}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`);
    const f = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\/(server|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}${sn ? ' «' + sn + '»' : ''}`;
    self.set(f, (self.get(f) ?? 0) + n.selfSize);
    const p = [...path, f];
    // attribute to the innermost project frame
    const own = [...p].reverse().find(x => x.includes('server/src'));
    if (own && n.selfSize) stack.set(own, (stack.get(own) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, p);
  };
  const top = (m: Map<string, number>, k: number): string =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([f, b]) => `${(b / 1e6).toFixed(1).padStart(7)} MB  ${f}`)
      .join('\n');
  walk(profile.head, []);
  // `--stack=<text>`: the call paths (project frames) that allocated in a function whose line holds <text>.
  const want = arg('stack');
  if (want) {
    const paths = new Map<string, number>();
    const up = (n: PNode, path: string[]) => {
      const f = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*\//, '')}`;
      const p = [...path, f];
      const sn = snippet.get(`${n.callFrame.scriptId}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`) ?? '';
      if (n.selfSize && (f.includes(want) || sn.includes(want))) {
        const k = p.filter(x => /\.ts$/.test(x)).join(' < ');
        paths.set(k, (paths.get(k) ?? 0) + n.selfSize);
      }
      for (const c of n.children) up(c, p);
    };
    up(profile.head, []);
    console.log(`--- paths to ${want}\n` + top(paths, 10));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`total sampled ${(total / 1e6).toFixed(1)} MB (${garbage ? 'with garbage' : major ? 'live and old garbage' : 'live'})`);
  console.log('--- by allocating frame\n' + top(self, 40));
  console.log('--- by innermost project frame\n' + top(stack, 40));
  await client.close();
  process.exit(0);
}
void main();
