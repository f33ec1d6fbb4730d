/**
 * In-process micro-bench of the parse alone (ARCHITECTURE.md, "The incremental parse"): the one-file adapter
 * of bench/gen.ts at each size, its open (the first buildModel) against the `yaml` compose floor (uniqueKeys:
 * false), then one-character edits at bench/gen.ts's editOffsets, each parsed as the server does (buildModel
 * with the previous model and the edit's range). Times only buildModel; the checks are not run.
 *
 *   node --import tsx bench/parseBench.ts [--sizes=10000,20000] [--rounds=10]
 */
import { Composer, Parser } from 'yaml';
import { buildModel } from '../server/src/service/parse/buildModel';
import { median, time } from './floor';
import { editOffsets, generate } from './gen';

const arg = (name: string, dflt: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const SIZES = arg('sizes', '10000,20000').split(',').map(Number);
const ROUNDS = Number(arg('rounds', '10'));
/** --keys-only: skip the floor and the timed opens (for a CPU profile of keystrokes). */
const KEYS_ONLY = process.argv.includes('--keys-only');
const URI = 'file:///bench/big.adapter.yaml';

const ms = (x: number) => x.toFixed(2).padStart(8);

for (const n of SIZES) {
  const text = generate(n);
  const floor = KEYS_ONLY
    ? NaN
    : time(() => {
        for (const _ of new Composer({ uniqueKeys: false }).compose(new Parser().parse(text))) {
          /* drain */
        }
      }, 5);
  const open = KEYS_ONLY ? NaN : time(() => buildModel(URI, text), 5);
  let model = buildModel(URI, text)!;
  let cur = text;
  const times: number[] = [];
  const flats: number[] = [];
  // As bench/lspBench.ts: the first, middle and last entries; each round one character further into the
  // same word (positions kept current as the text grows).
  const at = editOffsets(text, n);
  const offsets: number[] = [];
  for (let r = 0; r < ROUNDS; r++)
    for (let j = 0; j < at.length; j++) {
      offsets.push(at[j]! + (r % 6));
      for (let k = j + 1; k < at.length; k++) at[k]!++;
      if (r % 6 === 5) at[j]! += 6;
    }
  for (const off of offsets) {
    const next = cur.slice(0, off) + 'x' + cur.slice(off);
    // The editor's text is a concatenation until something reads it: the server flattens it before the
    // parse (comparing it with the cached text), so that copy is timed apart.
    const f = performance.now();
    void next.charCodeAt(off);
    flats.push(performance.now() - f);
    const t = performance.now();
    model = buildModel(URI, next, [], { previous: model, change: { start: off, oldEnd: off, newEnd: off + 1 } })!;
    times.push(performance.now() - t);
    cur = next;
  }
  const heap = process.memoryUsage().heapUsed / 1e6;
  console.log(
    `n=${String(n).padStart(6)} floor ${ms(floor)} ms  open ${ms(open)} ms (${(open / floor).toFixed(2)} x)  ` +
      `keystroke median ${ms(median(times))} ms  first ${ms(times[0]!)} ms  max ${ms(Math.max(...times))} ms  (flatten ${ms(median(flats))} ms)  codes ${model.codes.length}  errors ${model.syntaxErrors.length}  heap ${heap.toFixed(0)} MB`,
  );
}
