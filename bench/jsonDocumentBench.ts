/**
 * The JSON adapters of the generated workspace (docs/performance.md): buildModel over each of them, the path before
 * parse/jsonDocument.ts existed (the `yaml` composer, then the JSON reader for `json.syntax`; `jsonDocumentTesting.viaYaml`)
 * against the JSON reader's one pass (parse/jsonDocument.ts), interleaved rounds, medians. Also the
 * Document alone: jsonDocument against composeYaml + jsonSyntaxErrors. In process, no I/O: the files are
 * generated as bench/genWorkspace.ts writes them (the same texts as bench/work/ws-N).
 *
 *   node --import tsx bench/jsonDocumentBench.ts [--files=2000] [--rounds=9]
 */
import { fileText, isBroken, kindOf, pathOf } from './genWorkspace';
import { median } from './floor';
import { buildModel, PARSE_OPTIONS } from '../server/src/service/parse/buildModel';
import { composeYaml } from '../server/src/service/parse/compose';
import { jsonDocument, jsonDocumentTesting } from '../server/src/service/parse/jsonDocument';
import { jsonSyntaxErrors } from '../server/src/service/parse/jsonSyntax';

const arg = (name: string, d: number) => Number(process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d);
const N = arg('files', 2000);
const ROUNDS = arg('rounds', 9);

const files: [string, string][] = [];
for (let i = 0; i < N; i++) if (kindOf(i) === 'json') files.push([`file:///ws/${pathOf(i)}`, fileText(i, N, isBroken(i))]);
const bytes = files.reduce((n, [, t]) => n + t.length, 0);

/** ms for one pass of `f` over every file. */
function pass(f: (uri: string, text: string) => unknown): number {
  const t = performance.now();
  for (const [uri, text] of files) f(uri, text);
  return performance.now() - t;
}
const model = (viaYaml: boolean) => (uri: string, text: string) => {
  jsonDocumentTesting.viaYaml = viaYaml;
  try {
    return buildModel(uri, text);
  } finally {
    jsonDocumentTesting.viaYaml = false;
  }
};
const runs: Record<'modelOld' | 'modelNew' | 'docOld' | 'docNew', number[]> = { modelOld: [], modelNew: [], docOld: [], docNew: [] };
for (let r = 0; r <= ROUNDS; r++) {
  const t = {
    modelOld: pass(model(true)),
    modelNew: pass(model(false)),
    docOld: pass((_, text) => [composeYaml(text, PARSE_OPTIONS), jsonSyntaxErrors(text)]),
    docNew: pass((_, text) => jsonDocument(text, PARSE_OPTIONS)),
  };
  // Round 0 warms up.
  if (r) for (const k of Object.keys(t) as (keyof typeof t)[]) runs[k].push(t[k]);
}
const m = Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, Math.round(median(xs) * 10) / 10]));
console.log(
  JSON.stringify({
    files: files.length,
    bytes,
    rounds: ROUNDS,
    ...m,
    modelRatio: +(m.modelOld! / m.modelNew!).toFixed(2),
    docRatio: +(m.docOld! / m.docNew!).toFixed(2),
  }),
);
