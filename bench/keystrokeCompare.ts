/**
 * The keystroke and peak memory of one or two server builds, interleaved (one fresh process per run, the
 * realistic client of lspBench.ts): the first keystroke after open, the cold ones (--rounds over the three
 * edit sites), then --warmup unmeasured and --warm measured keystrokes; medians of wall time and of the
 * server's CPU per keystroke (all its threads, from /proc: robust under load), the warm p90, and VmHWM.
 * `node --import tsx bench/keystrokeCompare.ts [--sizes=1000,10000] [--runs=3] [--rounds=1] [--warmup=20] [--warm=40]
 * [--compare=<other dist/server.js>] [--node-args=a,b] [--compare-node-args=a,b] [--pause=ms]
 * [--server-prefix=chrt,-r,1]`; prints, writes nothing.
 * `--pause`: the client waits that long after the open before typing (default 0: at once). The
 * server's flags default to those the editor's client starts it with (SERVER_EXEC_ARGV).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generate } from './gen';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../server/src/protocol';
import { REALISTIC, runOnce, type ServerSpec } from './lspBench';

const ROOT = join(__dirname, '..');
const arg = (name: string, def: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const sizes = arg('sizes', '1000,10000').split(',').map(Number);
const runs = Number(arg('runs', '3'));
const rounds = Number(arg('rounds', '1'));
const warmup = Number(arg('warmup', '20'));
const warm = Number(arg('warm', '40'));
const compare = arg('compare', '');
const pauseMs = Number(arg('pause', '0'));
/** `--node-args=--cpu-prof,--cpu-prof-dir=/tmp/p`: flags for every server process (a profile, a heap flag). */
const nodeArgs = arg('node-args', SERVER_EXEC_ARGV.join(',')).split(',').filter(Boolean);
/** `--compare-node-args=`: the other build's flags (default: the same as this build's). */
const otherArgs = arg('compare-node-args', nodeArgs.join(',')).split(',').filter(Boolean);
/**
 * `--server-prefix=chrt,-r,1`: a command the server runs under, one that execs it (the pid stays the server's: its CPU
 * and VmHWM are read from /proc). With the bench itself under `chrt -r 2` the client then wakes ahead of the server's
 * compiler threads, as a client under the usual scheduler does (bench/NOTES.md, "ninth sitting").
 */
const prefix = arg('server-prefix', '').split(',').filter(Boolean);
const spec = (name: string, server: string, flags: string[]): ServerSpec => ({
  name,
  command: [...prefix, process.execPath, ...flags, server, '--stdio'],
  settings: () => ({}),
  env: SERVER_ENV,
});
const builds = [
  spec('this build', join(ROOT, 'dist', 'server.js'), nodeArgs),
  ...(compare ? [spec('the other build', compare, otherArgs)] : []),
];
const median = (xs: number[]) => {
  const s = xs.filter(x => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};
const p90 = (xs: number[]) => {
  const s = xs.filter(x => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.ceil(s.length * 0.9) - 1]! : NaN;
};
const ms = (x: number) => x.toFixed(1);

async function main() {
  for (const n of sizes) {
    const dir = join(ROOT, 'bench', 'work', `ks-${n}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `bench-${n}.adapter.yaml`);
    const text = generate(n);
    writeFileSync(file, text);
    const acc = builds.map(() => ({
      first: [] as number[],
      firstCpu: [] as number[],
      wall: [] as number[],
      cpu: [] as number[],
      warm: [] as number[],
      warmCpu: [] as number[],
      hwm: [] as number[],
      openCpu: [] as number[],
      wrong: 0,
    }));
    const loads: number[] = [];
    for (let i = 0; i < runs; i++)
      for (const [b, s] of builds.entries()) {
        loads.push(loadavg()[0]!);
        const r = await runOnce(s, file, text, n, { ...REALISTIC, rounds, warmup, warm, pauseMs });
        acc[b]!.first.push(r.change[0] ?? NaN);
        acc[b]!.firstCpu.push(r.changeCpu[0] ?? NaN);
        acc[b]!.warm.push(...r.warm);
        acc[b]!.warmCpu.push(...r.warmCpu);
        acc[b]!.wall.push(...r.change);
        acc[b]!.cpu.push(...r.changeCpu);
        acc[b]!.hwm.push(r.vmHwmMb);
        acc[b]!.openCpu.push(r.openCpu);
        acc[b]!.wrong += r.wrong.length + r.timeouts.length;
        if (process.env.KS_VERBOSE)
          process.stdout.write(`${s.name}: cold CPU ${r.changeCpu.map(ms).join(' ')} | warm CPU ${r.warmCpu.map(ms).join(' ')}\n`);
      }
    for (const [b, s] of builds.entries()) {
      const a = acc[b]!;
      process.stdout.write(
        `N=${n} ${s.name}: first keystroke wall ${ms(median(a.first))} ms, CPU ${ms(median(a.firstCpu))} ms; ` +
          `cold keystrokes wall ${ms(median(a.wall))} ms, CPU ${ms(median(a.cpu))} ms (${a.cpu.length}); ` +
          `warm wall ${ms(median(a.warm))} / p90 ${ms(p90(a.warm))} ms, CPU ${ms(median(a.warmCpu))} / p90 ${ms(p90(a.warmCpu))} ms (${a.warmCpu.length}); ` +
          `open CPU ${median(a.openCpu).toFixed(0)} ms, VmHWM ${median(a.hwm).toFixed(0)} MB [${a.hwm.map(h => h.toFixed(0)).join(' ')}], ` +
          `wrong or late ${a.wrong}, load ${median(loads).toFixed(1)}\n`,
      );
    }
  }
}
void main();
