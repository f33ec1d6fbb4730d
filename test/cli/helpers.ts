import { join } from 'node:path';
import { main } from '../../server/src/cli/main';

export const ROOT = join(__dirname, '..', '..');

/** The CLI in-process; `stdin` is what standard input holds (for --stdin). */
export async function run(
  argv: string[],
  cwd = ROOT,
  stdin?: string | Buffer,
): Promise<{ code: number; out: string; err: string; outBytes: Buffer }> {
  let out = '',
    err = '';
  const bytes: Buffer[] = [];
  const code = await main(argv, {
    cwd,
    color: false,
    ...(stdin === undefined ? {} : { readStdin: () => Buffer.from(stdin) }),
    stdout: s => {
      out += s;
      bytes.push(Buffer.from(s, 'utf8'));
    },
    stdoutBytes: b => {
      out += Buffer.from(b).toString('utf8');
      bytes.push(Buffer.from(b));
    },
    stderr: s => {
      err += s;
    },
  });
  // outBytes is not enumerable: tests that compare { code, out, err } whole still can.
  return Object.defineProperty({ code, out, err }, 'outBytes', { value: Buffer.concat(bytes), enumerable: false }) as {
    code: number;
    out: string;
    err: string;
    outBytes: Buffer;
  };
}

export { tempDir, tempTree } from '../tempDirs';
