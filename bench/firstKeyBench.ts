/**
 * The first keystrokes after an open, in-process, in CPU time (robust on a loaded machine): one fresh process per
 * run opens a generated adapter (bench/gen.ts) through the service and types one character at a time at the
 * first, middle and last entries (bench/gen.ts's editOffsets), as the server does (`service.edited`, then the
 * document updated); per keystroke, the process's CPU (all threads, `process.cpuUsage`) for the parse (a request
 * that builds the model only) and for the checks (`validate` on it). The code runs bundled by esbuild as the
 * server's is (under tsx every imported call goes through a getter). `--compare=<another checkout>` runs that
 * checkout's service too, interleaved (its bench/gen.ts, schemas and node_modules are used; nothing is written
 * there). Medians per keystroke index; writes nothing but bench/work/. `--warm-up`: after the open, the warm-up the
 * server runs in its idle time after a document's first diagnostics (`service.warmUp`, where the checkout has it).
 *
 *   node --import tsx bench/firstKeyBench.ts [--sizes=1000,10000] [--runs=5] [--keys=9] [--compare=/work/main] [--warm-up]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type Registry } from '../server/src/service';
import { editOffsets, generate } from './gen';

const arg = (name: string, def: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;

/** One run in this process: the open, then `keys` keystrokes; prints [open, [parse, checks] per keystroke] in ms of CPU. */
function child(root: string, n: number, keys: number, warmUp: boolean): void {
  const read = (p: string): unknown => JSON.parse(readFileSync(join(root, p), 'utf8'));
  const service = createAdapterService({
    registry: read('schemas/error-registry.json') as Registry,
    schema: read('schemas/adapter.schema.json') as object,
  });
  const cpu = (f: () => void) => {
    const c = process.cpuUsage();
    f();
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1000;
  };
  const uri = 'file:///bench/first-key.adapter.yaml';
  let text = generate(n);
  let version = 1;
  const doc = TextDocument.create(uri, 'yaml', version, text);
  const open = cpu(() => service.validate(doc));
  if (warmUp) (service as { warmUp?: (uri: string) => boolean }).warmUp?.(uri);
  const sites = editOffsets(text, n);
  const out: [number, number][] = [];
  for (let k = 0; k < keys; k++) {
    const s = k % sites.length;
    const at = sites[s]! + Math.floor(k / sites.length);
    text = text.slice(0, at) + 'x' + text.slice(at);
    for (let j = s + 1; j < sites.length; j++) sites[j]!++;
    service.edited(uri, version, version + 1, [{ start: at, end: at, text: 'x' }]);
    TextDocument.update(doc, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: 'x' }], ++version);
    out.push([cpu(() => service.prepareRename(doc, { line: 0, character: 0 })), cpu(() => service.validate(doc))]);
  }
  process.stdout.write(JSON.stringify([open, out]));
}

/** A bundle of this file whose imports resolve in `root` (another checkout: through a directory of links under /tmp). */
function bundle(root: string, name: string): string {
  const work = join(__dirname, 'work', 'first-key');
  mkdirSync(work, { recursive: true });
  let entry = __filename;
  if (root !== join(__dirname, '..')) {
    const tree = join(work, `${name}-tree`);
    rmSync(tree, { recursive: true, force: true });
    mkdirSync(join(tree, 'bench'), { recursive: true });
    for (const p of ['server', 'schemas', 'node_modules']) symlinkSync(join(root, p), join(tree, p));
    symlinkSync(join(root, 'bench', 'gen.ts'), join(tree, 'bench', 'gen.ts'));
    entry = join(tree, 'bench', 'firstKeyBench.ts');
    writeFileSync(entry, readFileSync(__filename));
  }
  const out = join(work, `${name}.js`);
  const esbuild = join(__dirname, '..', 'node_modules', '.bin', 'esbuild');
  execFileSync(esbuild, [entry, '--bundle', '--platform=node', `--outfile=${out}`, '--log-level=warning']);
  // The tree of links would be type-checked with the project's own files.
  rmSync(join(work, `${name}-tree`), { recursive: true, force: true });
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};

function main(): void {
  const sizes = arg('sizes', '1000,10000').split(',').map(Number);
  const runs = Number(arg('runs', '5'));
  const keys = Number(arg('keys', '9'));
  const compare = arg('compare', '');
  const warmUp = process.argv.includes('--warm-up');
  const builds = [{ name: 'this checkout', root: join(__dirname, '..') }, ...(compare ? [{ name: compare, root: compare }] : [])].map(
    (b, i) => ({ ...b, js: bundle(b.root, `build${i}`) }),
  );
  for (const n of sizes) {
    const acc = builds.map(() => ({ open: [] as number[], keys: [] as [number, number][][] }));
    const load = loadavg()[0]!.toFixed(1);
    for (let r = 0; r < runs; r++)
      builds.forEach((b, i) => {
        const res = execFileSync(
          process.execPath,
          ['--max-semi-space-size=4', b.js, '--child', b.root, String(n), String(keys), ...(warmUp ? ['--warm-up'] : [])],
          {
            encoding: 'utf8',
            maxBuffer: 1 << 24,
          },
        );
        const [open, ks] = JSON.parse(res) as [number, [number, number][]];
        acc[i]!.open.push(open);
        acc[i]!.keys.push(ks);
      });
    builds.forEach((b, i) => {
      const a = acc[i]!;
      const per = Array.from({ length: keys }, (_, k) => {
        const p = median(a.keys.map(ks => ks[k]![0])),
          c = median(a.keys.map(ks => ks[k]![1]));
        return `${(p + c).toFixed(1)} (${p.toFixed(1)}+${c.toFixed(1)})`;
      });
      console.log(
        `N=${n} ${b.name}: open ${median(a.open).toFixed(0)} ms CPU; keystrokes 1..${keys}, median CPU ms (parse+checks): ${per.join('  ')}; ${runs} runs, load ${load}-${loadavg()[0]!.toFixed(1)}`,
      );
    });
  }
}

if (process.argv.includes('--child')) {
  const i = process.argv.indexOf('--child');
  child(process.argv[i + 1]!, Number(process.argv[i + 2]), Number(process.argv[i + 3]), process.argv.includes('--warm-up'));
} else main();
