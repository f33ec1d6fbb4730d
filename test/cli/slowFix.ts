/**
 * `check --fix` in a child process whose disk is slow where it matters (test/cli/fixSignals.test.ts):
 * once a temporary file holds the fixed text, the child prints `temp <path>` and sleeps 1.5 s before
 * going on, so the test can send a signal while the file exists. Usage: node --import tsx slowFix.ts DIR
 */
import * as fs from 'node:fs';
import { main } from '../../server/src/cli/main';

const dir = process.argv[2]!;
const temps = new Map<number, string>();
const sleep = new Int32Array(new SharedArrayBuffer(4));

void main(['check', '--fix', '--jobs', '1', '.'], {
  cwd: dir,
  color: false,
  stdout: s => process.stdout.write(s),
  stderr: s => process.stderr.write(s),
  writeFs: {
    openSync: ((p: fs.PathLike, flags: number, mode?: number) => {
      const fd = fs.openSync(p, flags, mode);
      if (String(p).endsWith('.mcp-aql-tmp')) temps.set(fd, String(p));
      return fd;
    }) as typeof fs.openSync,
    writeSync: ((fd: number, ...rest: unknown[]) => {
      const n = (fs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
      const tmp = temps.get(fd);
      if (tmp !== undefined) {
        fs.writeSync(1, `temp ${tmp}\n`);
        Atomics.wait(sleep, 0, 0, 1500);
      }
      return n;
    }) as typeof fs.writeSync,
  },
}).then(code => process.exit(code));
