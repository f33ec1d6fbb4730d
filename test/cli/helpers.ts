import { join } from 'node:path';
import { main } from '../../server/src/cli/main';

export const ROOT = join(__dirname, '..', '..');

/** The CLI in-process; `stdin` is what standard input holds (for --stdin). */
export async function run(argv: string[], cwd = ROOT, stdin?: string | Buffer): Promise<{ code: number; out: string; err: string }> {
  let out = '',
    err = '';
  const code = await main(argv, {
    cwd,
    color: false,
    ...(stdin === undefined ? {} : { readStdin: () => Buffer.from(stdin) }),
    stdout: s => {
      out += s;
    },
    stderr: s => {
      err += s;
    },
  });
  return { code, out, err };
}

export { tempDir, tempTree } from '../tempDirs';
