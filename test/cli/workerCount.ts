/**
 * A preload for a `check` run that counts the worker threads it starts (each `Worker` construction in the main
 * thread) and prints `WORKERS n` on stderr at exit. Shared by mainThreadPool.test.ts and defaultJobs.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PRELOAD = `
const wt = require('node:worker_threads');
if (wt.isMainThread) {
  let started = 0;
  const Base = wt.Worker;
  wt.Worker = class extends Base { constructor(...a) { super(...a); started++; } };
  process.on('exit', () => process.stderr.write('WORKERS ' + started + '\\n'));
}
`;

/** Writes the preload into `dir`; returns its path (for `node -r`). */
export function workerCounter(dir: string): string {
  const path = join(dir, 'count-workers.cjs');
  writeFileSync(path, PRELOAD);
  return path;
}
