/**
 * The project config file (`.mcp-aql.yaml`, `.mcp-aql.yml`, `.mcp-aql.json`), shared by the CLI and
 * the language server: parsed and checked here (pure), found on disk by each adapter. Every problem
 * is a positioned `config.invalid` diagnostic; the valid parts still apply. The JSON Schema for
 * editors is schemas/config.schema.json (a test keeps the two in step).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, Parser, type Node, type Pair } from 'yaml';
import { cstOverflow, MAX_NESTING, nestingOverflow } from '../util/nesting';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { allCodes, Code, docsHref, isCode, SOURCE, type RuleLevel } from '../codes';
import { CODE_SCOPES, type CodeScope } from '../model/workspace';
import { closest } from '../util/closest';
import { keyKind } from '../util/keyKind';

/** In the order they are looked for in each folder; the first found is the config of that folder. */
export const CONFIG_FILE_NAMES = ['.mcp-aql.yaml', '.mcp-aql.yml', '.mcp-aql.json'] as const;
/**
 * Rule levels as the config file, `--rule` and the Action's `rules` write them: the five names, ESLint's
 * and Spectral's spellings `warn` and `info`, and ESLint's numbers 0 off, 1 warning, 2 error (a number
 * in the config file, or its digit as a string).
 */
const LEVEL_ALIASES: Readonly<Record<string, RuleLevel>> = {
  off: 'off',
  hint: 'hint',
  information: 'information',
  info: 'information',
  warning: 'warning',
  warn: 'warning',
  error: 'error',
  '0': 'off',
  '1': 'warning',
  '2': 'error',
};
/** The spellings of a rule level, as listed in messages and in schemas/config.schema.json. */
export const RULE_LEVEL_SPELLINGS = 'off, hint, information (info), warning (warn), error, or 0, 1, 2';

/** A rule level from any of its spellings (LEVEL_ALIASES); undefined for anything else. */
export function ruleLevelOf(value: unknown): RuleLevel | undefined {
  const key = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  return typeof key === 'string' && Object.hasOwn(LEVEL_ALIASES, key) ? LEVEL_ALIASES[key] : undefined;
}
const MIN_FILE_SIZE = 1024;
/** The same ceiling as `mcpAql.maxFileSize`'s (service/index.ts MAX_FILE_SIZE_CEILING). */
const MAX_FILE_SIZE_CEILING = 16 * 1024 * 1024;

export interface ProjectConfig {
  readonly rules?: Readonly<Record<string, RuleLevel>>;
  /** Extra adapter globs, as `mcpAql.files`. */
  readonly files?: readonly string[];
  /** Globs, relative to the config file's folder, of files that are never checked. */
  readonly ignore?: readonly string[];
  readonly codeScope?: CodeScope;
  readonly maxFileSize?: number;
}

export interface ParsedConfig {
  readonly config: ProjectConfig;
  /** `config.invalid` diagnostics, ranges in the config file. */
  readonly problems: Diagnostic[];
}

export const isConfigFileName = (path: string): boolean =>
  (CONFIG_FILE_NAMES as readonly string[]).includes(path.replace(/[?#].*$/, '').replace(/^.*[\\/]/, ''));

export function parseProjectConfig(text: string): ParsedConfig {
  const lc = new LineCounter();
  const problems: Diagnostic[] = [];
  const pos = (offset: number) => {
    const p = lc.linePos(Math.min(offset, text.length));
    return { line: p.line - 1, character: p.col - 1 };
  };
  const report = (start: number, end: number, message: string) =>
    problems.push({
      range: { start: pos(start), end: pos(Math.max(start, end)) },
      severity: DiagnosticSeverity.Error,
      source: SOURCE,
      code: Code.ConfigInvalid,
      message,
      codeDescription: { href: docsHref(Code.ConfigInvalid) },
    });
  const at = (n: Node | null | undefined, message: string) => report(n?.range?.[0] ?? 0, n?.range?.[1] ?? 0, message);

  // A stranger's config nested deeper than the parser's stack allows is not read (util/nesting.ts).
  // The parser's own pass (no recursion) also fills the line counter.
  const tokens = [...new Parser(lc.addNewLine).parse(text)];
  const deepAt = nestingOverflow(text)?.offset ?? cstOverflow(tokens);
  if (deepAt !== undefined) {
    report(deepAt, deepAt + 1, `The config file nests deeper than ${MAX_NESTING} levels; it is not read.`);
    return { config: {}, problems };
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  for (const e of doc.errors) report(e.pos[0], e.pos[1], `Config file: ${e.message.split('\n')[0]}`);
  if (doc.errors.length) return { config: {}, problems };
  const root = doc.contents as Node | null;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return { config: {}, problems };
  if (!isMap(root)) {
    at(root, 'The config file must be a mapping (rules, files, ignore, codeScope, maxFileSize).');
    return { config: {}, problems };
  }

  const config: { -readonly [K in keyof ProjectConfig]: ProjectConfig[K] } = {};
  const globs = (key: string, v: Node | null): string[] | undefined => {
    if (!isSeq(v)) {
      at(v, `'${key}' must be a list of glob patterns.`);
      return undefined;
    }
    const out: string[] = [];
    for (const item of v.items as Node[]) {
      if (isScalar(item) && typeof item.value === 'string' && item.value.trim() !== '') out.push(item.value);
      else at(item, `Each entry of '${key}' must be a non-empty glob pattern (a string).`);
    }
    return out;
  };
  for (const pair of root.items as Pair<Node, Node | null>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const v = pair.value;
    if (key === '$schema') {
      if (!isScalar(v) || typeof v.value !== 'string') at(v ?? pair.key, "'$schema' must be a string.");
    } else if (key === 'rules') {
      if (!isMap(v)) {
        at(v ?? pair.key, `'rules' must map diagnostic codes to levels (${RULE_LEVEL_SPELLINGS}).`);
        continue;
      }
      const rules: Record<string, RuleLevel> = {};
      for (const r of v.items as Pair<Node, Node | null>[]) {
        const code = isScalar(r.key) ? String(r.key.value) : '';
        if (!isScalar(r.key)) {
          at(r.key, `A rule's key is a diagnostic code (such as template.unknown-placeholder); this key is ${keyKind(r.key)}.`);
          continue;
        }
        if (!isCode(code)) {
          const near = closest(code, allCodes, 1)[0] ?? (code.length > 3 ? allCodes.find(c => c.startsWith(code)) : undefined);
          at(r.key, `'${code}' is not an mcp-aql diagnostic code.${near ? ` Did you mean '${near}'?` : ''}`);
          continue;
        }
        const level = ruleLevelOf(isScalar(r.value) ? r.value.value : undefined);
        if (level) rules[code] = level;
        else at(r.value ?? r.key, `The level of '${code}' must be ${RULE_LEVEL_SPELLINGS}.`);
      }
      config.rules = rules;
    } else if (key === 'files' || key === 'ignore') {
      const g = globs(key, v);
      if (g) config[key] = g;
    } else if (key === 'codeScope') {
      const s = isScalar(v) ? v.value : undefined;
      if (typeof s === 'string' && (CODE_SCOPES as readonly string[]).includes(s)) config.codeScope = s as CodeScope;
      else at(v ?? pair.key, `'codeScope' must be one of ${CODE_SCOPES.join(', ')}.`);
    } else if (key === 'maxFileSize') {
      const n = isScalar(v) ? v.value : undefined;
      if (typeof n === 'number' && Number.isInteger(n) && n >= MIN_FILE_SIZE && n <= MAX_FILE_SIZE_CEILING) config.maxFileSize = n;
      else
        at(
          v ?? pair.key,
          `'maxFileSize' must be a whole number of characters, at least ${MIN_FILE_SIZE} and at most ${MAX_FILE_SIZE_CEILING} (16 MiB).`,
        );
    } else if (!isScalar(pair.key)) {
      at(pair.key, `A config key is a word (rules, files, ignore, codeScope, maxFileSize); this key is ${keyKind(pair.key)}.`);
    } else {
      const near = closest(key, ['rules', 'files', 'ignore', 'codeScope', 'maxFileSize'], 1)[0];
      at(
        pair.key,
        `Unknown config key '${key}'.${near ? ` Did you mean '${near}'?` : ''} Keys: rules, files, ignore, codeScope, maxFileSize.`,
      );
    }
  }
  return { config, problems };
}
