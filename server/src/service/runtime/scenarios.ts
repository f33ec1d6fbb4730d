/**
 * The calls a user writes for `probe --scenarios`: each a tool, its arguments and the outcome expected
 * (a failure or a success; for a failure, optionally its code, category and channel). The file is YAML
 * (JSON is YAML too): a list, or `scenarios:` holding one. Every mistake is reported with its line and
 * column; a file with any is not run.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export type Channel = 'tool-result' | 'json-rpc';

export interface Scenario {
  readonly name: string;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly expect: 'failure' | 'success';
  readonly code?: string;
  readonly category?: string;
  readonly channel?: Channel;
}

export interface ScenarioProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

const KEYS = new Set(['name', 'tool', 'arguments', 'expect', 'code', 'category', 'channel']);
const MAX_SCENARIOS = 1000;

export function parseScenarios(text: string, categories: readonly string[]): { scenarios: Scenario[]; problems: ScenarioProblem[] } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const problems: ScenarioProblem[] = [];
  const at = (offset: number, message: string) => {
    const p = lc.linePos(offset);
    problems.push({ line: p.line, column: p.col, message });
  };
  for (const e of doc.errors) at(e.pos[0], e.message.split('\n')[0]!);
  if (problems.length) return { scenarios: [], problems };
  let list: Node | null | undefined = doc.contents;
  if (isMap(list)) list = list.get('scenarios', true) as Node | undefined;
  if (!isSeq(list)) {
    at(doc.contents?.range?.[0] ?? 0, 'expected a list of scenarios (or `scenarios:` holding one)');
    return { scenarios: [], problems };
  }
  if (list.items.length > MAX_SCENARIOS) at(list.range?.[0] ?? 0, `at most ${MAX_SCENARIOS} scenarios`);
  const scenarios: Scenario[] = [];
  list.items.forEach((item, i) => {
    const start = (item as Node | null)?.range?.[0] ?? list.range?.[0] ?? 0;
    if (!isMap(item)) return at(start, `scenario ${i + 1}: expected a mapping with tool, arguments and expect`);
    const value = (k: string) => item.get(k, true) as Node | undefined;
    const str = (k: string): string | undefined => {
      const n = value(k);
      if (n === undefined) return undefined;
      if (isScalar(n) && typeof n.value === 'string' && n.value.length) return n.value;
      at(n.range?.[0] ?? start, `scenario ${i + 1}: '${k}' must be a non-empty string`);
      return undefined;
    };
    for (const p of item.items) {
      const k = isScalar(p.key) ? String(p.key.value) : '';
      if (!KEYS.has(k)) at((p.key as Node | null)?.range?.[0] ?? start, `scenario ${i + 1}: unknown key '${k}' (${[...KEYS].join(', ')})`);
    }
    const tool = str('tool');
    if (tool === undefined && value('tool') === undefined) at(start, `scenario ${i + 1}: 'tool' is required`);
    const expect = str('expect');
    if (expect === undefined && value('expect') === undefined) at(start, `scenario ${i + 1}: 'expect' is required (failure or success)`);
    else if (expect !== undefined && expect !== 'failure' && expect !== 'success')
      at(value('expect')!.range![0], `scenario ${i + 1}: 'expect' is failure or success, not '${expect}'`);
    const args = value('arguments');
    let argsValue: Record<string, unknown> = {};
    if (args !== undefined) {
      if (!isMap(args)) at(args.range?.[0] ?? start, `scenario ${i + 1}: 'arguments' must be a mapping`);
      else
        argsValue = Object.assign(Object.create(null) as object, args.toJS(doc, { maxAliasCount: 100 }) as object) as Record<
          string,
          unknown
        >;
    }
    const code = str('code');
    const category = str('category');
    if (category !== undefined && !categories.includes(category))
      at(value('category')!.range![0], `scenario ${i + 1}: unknown category '${category}' (${categories.join(', ')})`);
    const channel = str('channel');
    if (channel !== undefined && channel !== 'tool-result' && channel !== 'json-rpc')
      at(value('channel')!.range![0], `scenario ${i + 1}: 'channel' is tool-result or json-rpc, not '${channel}'`);
    if (expect === 'success' && (code || category || channel))
      at(start, `scenario ${i + 1}: code, category and channel describe a failure; this one expects a success`);
    if (tool && (expect === 'failure' || expect === 'success'))
      scenarios.push({
        name: str('name') ?? `${tool} #${i + 1}`,
        tool,
        arguments: argsValue,
        expect,
        ...(code ? { code } : {}),
        ...(category ? { category } : {}),
        ...(channel === 'tool-result' || channel === 'json-rpc' ? { channel } : {}),
      });
  });
  return { scenarios: problems.length ? [] : scenarios, problems };
}
