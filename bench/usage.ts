/**
 * A bench's command line, read before any work: `--help` prints the script's header comment, an option the
 * script does not take stops it with exit 2 (a typo must not start a run that rewrites the results).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface UsageProblem {
  readonly text: string;
  readonly code: number;
}

/** Undefined when every argument is one `ok` takes; else what to print and the exit code (0 for --help). */
export function usageOf(file: string, argv: readonly string[], ok: (arg: string) => boolean): UsageProblem | undefined {
  if (argv.includes('--help') || argv.includes('-h')) {
    const header = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(file, 'utf8'))?.[1]?.replace(/^ \* ?/gm, '') ?? '';
    return { text: `${header.trim()}\n`, code: 0 };
  }
  const bad = argv.filter(a => !ok(a));
  return bad.length ? { text: `bench/${basename(file)}: unknown option ${bad.join(' ')} (--help lists them)\n`, code: 2 } : undefined;
}

/** Print the problem and exit with its code, or run `main` (an error exits 1). */
export function runUnless(problem: UsageProblem | undefined, main: () => Promise<unknown>): void {
  if (problem) {
    (problem.code ? process.stderr : process.stdout).write(problem.text);
    process.exit(problem.code);
  }
  main().catch(e => {
    console.error(e);
    process.exit(1);
  });
}
