/** `watch` run as the host runs it (dist/cli.js as a child process), for the watch tests. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers';

export const CLI = join(ROOT, 'dist/cli.js');
export const FAKE = join(ROOT, 'test/fixtures/runtime/fakeServer.js');

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** watch as a child; each chunk written on its own turn; a hang is bounded by a kill after 30 s. */
export function watch(
  args: string[],
  chunks: Buffer[],
  o: { env?: NodeJS.ProcessEnv; cwd?: string; signalWhenStarted?: NodeJS.Signals; keepStdinOpen?: boolean } = {},
): Promise<Ended> {
  return new Promise(done => {
    const p = spawn(process.execPath, [CLI, 'watch', ...args], { cwd: o.cwd ?? ROOT, env: { ...process.env, ...o.env } });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (c: Buffer) => out.push(c));
    let signalled = false;
    p.stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      // The server is up (its first stderr line): now the signal has someone to reach.
      if (o.signalWhenStarted && !signalled && err.includes('fake server: started\n')) {
        signalled = true;
        p.kill(o.signalWhenStarted);
      }
    });
    const bound = setTimeout(() => p.kill('SIGKILL'), 30_000);
    p.on('close', (code, signal) => {
      clearTimeout(bound);
      done({ code, signal, stdout: Buffer.concat(out), stderr: err });
    });
    let i = 0;
    const next = () => {
      if (i < chunks.length) {
        p.stdin.write(chunks[i++]!, () => setTimeout(next, 2));
        return;
      }
      if (!o.signalWhenStarted && !o.keepStdinOpen) p.stdin.end();
    };
    next();
  });
}

export const msg = (o: object) => JSON.stringify(o) + '\n';
