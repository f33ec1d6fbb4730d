/**
 * The `check --cache` file's entries: one array per file, its declarations and references kept as JSON
 * text that a run decodes only when it needs them (nothing changed: never), each distinct details list
 * once in a table. Checked on load and on
 * decoding (docs/robustness.md): a cache is signed, but it may come from another build or be damaged; an entry of
 * the wrong shape is a miss, never a crash. Declarations are kept as the CLI's passes carry them
 * (parallel.ts `slim`: code, category, details).
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { CodeDeclaration } from '../../service';

export interface Entry {
  /** SHA-256 of the content and the file's options. */
  readonly hash: string;
  /** SHA-256 of the file's options alone, to trust `stat` without reading. */
  readonly opts: string;
  /** size, mtime, ctime, inode when the file was read; null when it was modified too close to that (racy: hash next time). */
  readonly stat: readonly [number, number, number, number] | null;
  readonly adapter: boolean;
  /** The declarations and references as JSON text (`encodeDecls`, `encodeRefs`), decoded (and checked) only when a run needs them. */
  readonly decls: string;
  readonly refs: string;
  /** SHA-256 of the declarations, for the workspace's fingerprint. */
  readonly declFp: string;
  readonly deps?: string;
  readonly diagnostics?: Diagnostic[];
  /** The workspace fingerprint under which `deps` were last found current (then they need no recomputing). */
  readonly wsfp?: string;
}

type Details = CodeDeclaration['details'];
type Obj = Record<string, unknown>;
const NO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const optStr = (x: unknown) => x === undefined || isStr(x);
const isPos = (x: unknown) =>
  isObj(x) && Number.isInteger(x.line) && Number.isInteger(x.character) && (x.line as number) >= 0 && (x.character as number) >= 0;
const isRange = (x: unknown) => isObj(x) && isPos(x.start) && isPos(x.end);

function isDiagnostic(x: unknown): x is Diagnostic {
  return (
    isObj(x) &&
    isRange(x.range) &&
    isStr(x.message) &&
    (x.severity === undefined || x.severity === 1 || x.severity === 2 || x.severity === 3 || x.severity === 4) &&
    (x.code === undefined || isStr(x.code) || isNum(x.code)) &&
    optStr(x.source) &&
    (x.tags === undefined || (Array.isArray(x.tags) && x.tags.every(isNum))) &&
    (x.relatedInformation === undefined ||
      (Array.isArray(x.relatedInformation) &&
        x.relatedInformation.every(
          r => isObj(r) && isStr(r.message) && isObj(r.location) && isStr(r.location.uri) && isRange(r.location.range),
        )))
  );
}

function asDetails(x: unknown): Details | undefined {
  if (!Array.isArray(x)) return undefined;
  const out: { name: string; type?: string; required?: boolean }[] = [];
  for (const d of x) {
    if (
      !Array.isArray(d) ||
      d.length !== 3 ||
      !isStr(d[0]) ||
      !(d[1] === null || isStr(d[1])) ||
      !(d[2] === null || typeof d[2] === 'boolean')
    )
      return undefined;
    out.push({ name: d[0], type: d[1] ?? undefined, required: d[2] ?? undefined });
  }
  return out;
}

/** The distinct details lists of a cache, each once (entries name them by index); checked when first used, append-only. */
export class DetailsTable {
  private readonly decoded = new Map<number, Details | undefined>();
  private readonly index = new Map<string, number>();
  constructor(private readonly rows: unknown[] = []) {
    rows.forEach((r, i) => this.index.set(JSON.stringify(r), i));
  }
  get(i: unknown): Details | undefined {
    if (!Number.isInteger(i) || (i as number) < 0 || (i as number) >= this.rows.length) return undefined;
    if (!this.decoded.has(i as number)) this.decoded.set(i as number, asDetails(this.rows[i as number]));
    return this.decoded.get(i as number);
  }
  add(details: Details): number {
    const row = details.map(x => [x.name, x.type ?? null, x.required ?? null]);
    const key = JSON.stringify(row);
    let i = this.index.get(key);
    if (i === undefined) {
      this.index.set(key, (i = this.rows.length));
      this.rows.push(row);
    }
    return i;
  }
  toJSON(): unknown[] {
    return this.rows;
  }
}

/** An entry's declarations (as the CLI's passes carry them), or undefined when the text has the wrong shape. */
export function decodeDecls(uri: string, text: string, table: DetailsTable): CodeDeclaration[] | undefined {
  let x: unknown;
  try {
    x = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(x)) return undefined;
  const out: CodeDeclaration[] = [];
  for (const d of x) {
    if (!Array.isArray(d) || d.length !== 3 || !isStr(d[0]) || !(d[1] === null || isStr(d[1]))) return undefined;
    const details = table.get(d[2]);
    if (!details) return undefined;
    out.push({ uri, code: d[0], range: NO_RANGE, category: d[1] ?? undefined, details, mapsFromHttp: [] });
  }
  return out;
}

/** Whether an entry's declarations text declares one of `codes` (or cannot be read: then say so), without decoding it. */
export function declaresOneOf(text: string, codes: ReadonlySet<string>): boolean {
  const first = /\["((?:[^"\\]|\\.)*)",/g; // each declaration is ["CODE", category, details]
  for (let m = first.exec(text); m; m = first.exec(text)) {
    let name: string;
    try {
      name = m[1]!.includes('\\') ? (JSON.parse(`"${m[1]}"`) as string) : m[1]!;
    } catch {
      name = '';
    }
    if (codes.has(name) || name === '') return true;
  }
  return false;
}

/** Declarations as kept in an entry (details by index in the table). */
export const encodeDecls = (decls: readonly CodeDeclaration[], table: DetailsTable): string =>
  JSON.stringify(decls.map(d => [d.code, d.category ?? null, table.add(d.details)]));

/** Declarations as one text, for their fingerprint (independent of any table). */
export const declText = (decls: readonly CodeDeclaration[]): string =>
  JSON.stringify(decls.map(d => [d.code, d.category ?? null, d.details.map(x => [x.name, x.type ?? null, x.required ?? null])]));

/**
 * References as kept in an entry: a name the file declares itself (most of them: a file's own codes are
 * among what its diagnostics read) as its position in the declarations, any other as itself.
 */
export function encodeRefs(refs: readonly string[], decls: readonly CodeDeclaration[]): string {
  const own = new Map<string, number>();
  decls.forEach((d, i) => own.has(d.code) || own.set(d.code, i));
  return JSON.stringify(refs.map(r => own.get(r) ?? r));
}

/** An entry's references (given its decoded declarations), or undefined when the text has the wrong shape. */
export function decodeRefs(text: string, decls: readonly CodeDeclaration[]): string[] | undefined {
  let x: unknown;
  try {
    x = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(x)) return undefined;
  const out: string[] = [];
  for (const r of x) {
    if (isStr(r)) out.push(r);
    else if (Number.isInteger(r) && r >= 0 && r < decls.length) out.push(decls[r as number]!.code);
    else return undefined;
  }
  return out;
}

/** One file's entry from its array (declarations and references still text), or undefined when a part has the wrong shape. */
export function asEntry(x: unknown): Entry | undefined {
  if (!Array.isArray(x) || x.length !== 10) return undefined;
  const [hash, opts, stat, adapter, decls, refs, deps, diagnostics, declFp, wsfp] = x as unknown[];
  if (!isStr(hash) || !isStr(opts) || typeof adapter !== 'boolean' || !isStr(decls) || !isStr(refs) || !isStr(declFp)) return undefined;
  if (!(stat === null || (Array.isArray(stat) && stat.length === 4 && stat.every(isNum)))) return undefined;
  if ((deps === null) !== (diagnostics === null) || !(wsfp === null || isStr(wsfp))) return undefined;
  if (deps !== null && (!isStr(deps) || !Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic))) return undefined;
  // One shape for every entry (no spreads: 10,000 of them on every run).
  return {
    hash,
    opts,
    stat: stat as Entry['stat'],
    adapter,
    decls,
    refs,
    declFp,
    deps: deps === null ? undefined : (deps as string),
    diagnostics: deps === null ? undefined : (diagnostics as Diagnostic[]),
    wsfp: wsfp === null ? undefined : (wsfp as string),
  };
}
