/**
 * node --import tsx bench/sameOutput.ts --compare=<another build's dist/cli.js> [--sizes=1000,2000,4000] [dir…]: does this
 * build's `check` answer exactly as the other's? For each folder (examples/, test/fixtures, the generated workspaces of
 * bench/genWorkspace.ts at each size, and any named), each format (json, text) and each thread count (default, --jobs 1,
 * --jobs 2), both builds run `check <dir>` in the folder's parent; exit status, standard output and standard error must
 * be the same bytes. Prints one line per case and exits 1 on the first difference (which it shows), 0 when all agree.
 * What a change of the pool's threads (cli/check/pool.ts) must keep: bench/NOTES.md, "eighth sitting".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathOf, writeWorkspace } from './genWorkspace';
import { runUnless, usageOf, type UsageProblem } from './usage';

const ROOT = join(__dirname, '..');
const OURS = join(ROOT, 'dist', 'cli.js');
const positive = (s: string) => /^[1-9]\d*$/.test(s);

export const usageProblem = (argv: readonly string[]): UsageProblem | undefined =>
  (!argv.some(a => a.startsWith('--compare=')) && !argv.includes('--help')
    ? { text: 'bench/sameOutput.ts: --compare=<another dist/cli.js> is needed (--help)\n', code: 2 }
    : undefined) ??
  usageOf(
    __filename,
    argv,
    a =>
      (a.startsWith('--compare=') && existsSync(a.slice(10))) ||
      (a.startsWith('--sizes=') && a.slice(8).split(',').every(positive)) ||
      (!a.startsWith('--') && existsSync(a)),
  );

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

function check(cli: string, dir: string, extra: readonly string[]): Run {
  const r = spawnSync(process.execPath, [cli, 'check', basename(dir), ...extra], {
    cwd: dirname(dir),
    maxBuffer: 1 << 30,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The first line where two outputs part, shown with its neighbours. */
function firstDifference(a: Buffer, b: Buffer): string {
  const x = a.toString('utf8').split('\n'),
    y = b.toString('utf8').split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return `line ${i + 1}:\n  ours:  ${JSON.stringify(x[i])}\n  other: ${JSON.stringify(y[i])}`;
}

export function main(compare: string, dirs: readonly string[]): number {
  let cases = 0;
  for (const dir of dirs)
    for (const format of ['json', 'text'])
      for (const jobs of [[], ['--jobs', '1'], ['--jobs', '2']]) {
        const extra = ['--format', format, ...jobs];
        const ours = check(OURS, dir, extra),
          other = check(compare, dir, extra);
        const what = `${dir} ${extra.join(' ')}`;
        for (const [name, same, detail] of [
          ['exit status', ours.status === other.status, () => `${ours.status} against ${other.status}`],
          ['stdout', ours.stdout.equals(other.stdout), () => firstDifference(ours.stdout, other.stdout)],
          ['stderr', ours.stderr.equals(other.stderr), () => firstDifference(ours.stderr, other.stderr)],
        ] as const)
          if (!same) {
            process.stdout.write(`DIFFERENT ${name}: ${what}\n${detail()}\n`);
            return 1;
          }
        cases++;
        process.stdout.write(`same: ${what} (exit ${ours.status}, ${ours.stdout.length} + ${ours.stderr.length} bytes)\n`);
      }
  process.stdout.write(`${cases} cases, every one the same bytes\n`);
  return 0;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  runUnless(usageProblem(argv), async () => {
    const compare = resolve(argv.find(a => a.startsWith('--compare='))!.slice(10));
    const sizes = (argv.find(a => a.startsWith('--sizes='))?.slice(8) ?? '1000,2000,4000').split(',').map(Number);
    mkdirSync(join(ROOT, 'bench', 'work'), { recursive: true });
    const generated = sizes.map(n => {
      const dir = join(ROOT, 'bench', 'work', `ws-${n}`);
      // Written once (the same files every time): a bench running beside this one may be reading them.
      if (!existsSync(join(dir, pathOf(n - 1)))) writeWorkspace(dir, n);
      return dir;
    });
    const named = argv.filter(a => !a.startsWith('--')).map(a => resolve(a));
    process.exitCode = main(compare, [join(ROOT, 'examples'), join(ROOT, 'test', 'fixtures'), ...generated, ...named]);
  });
}
