/** The in-process floor of the `yaml` package on the same texts: lexer, CST parser, compose. */
import { Composer, Lexer, Parser } from 'yaml';

export interface FloorResult {
  lexer: number;
  cst: number;
  composeNoUnique: number;
  composeDefault: number | null;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median ms of `runs` calls of `f`, after one warm-up call. */
export function time(f: () => void, runs: number): number {
  f(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

export function floor(text: string, n: number, runs: number): FloorResult {
  const compose = (uniqueKeys: boolean) => () => {
    for (const _ of new Composer({ uniqueKeys }).compose(new Parser().parse(text))) {
      /* drain */
    }
  };
  return {
    lexer: time(() => {
      for (const _ of new Lexer().lex(text)) {
        /* drain */
      }
    }, runs),
    cst: time(() => {
      for (const _ of new Parser().parse(text)) {
        /* drain */
      }
    }, runs),
    composeNoUnique: time(compose(false), runs),
    // The default (quadratic) unique-key check: skipped at 20,000 codes, where it takes ~12 s a run.
    composeDefault: n <= 10_000 ? time(compose(true), Math.min(runs, 3)) : null,
  };
}
