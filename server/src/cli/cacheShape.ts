/**
 * The shape of a `check --cache` entry, checked on load (issue 20): a cache is signed, but it may come
 * from another build or be damaged; an entry of the wrong shape is a miss, never a crash.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { CodeDeclaration } from '../service';

export interface Entry {
  /** sha1 of the content and the file's options. */
  readonly hash: string;
  /** sha1 of the file's options alone, to trust `stat` without reading. */
  readonly opts: string;
  /** size, mtime, ctime, inode when the file was read; null when it was modified too close to that (racy: hash next time). */
  readonly stat: readonly [number, number, number, number] | null;
  readonly adapter: boolean;
  readonly decls: readonly CodeDeclaration[];
  readonly refs: string[];
  readonly deps?: string;
  readonly diagnostics?: Diagnostic[];
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const optStr = (x: unknown) => x === undefined || isStr(x);
const isPos = (x: unknown) =>
  isObj(x) && Number.isInteger(x.line) && Number.isInteger(x.character) && (x.line as number) >= 0 && (x.character as number) >= 0;
const isRange = (x: unknown) => isObj(x) && isPos(x.start) && isPos(x.end);

function isDecl(x: unknown): x is CodeDeclaration {
  return (
    isObj(x) &&
    isStr(x.uri) &&
    isStr(x.code) &&
    isRange(x.range) &&
    optStr(x.category) &&
    optStr(x.template) &&
    optStr(x.description) &&
    Array.isArray(x.details) &&
    x.details.every(d => isObj(d) && isStr(d.name) && optStr(d.type) && (d.required === undefined || typeof d.required === 'boolean')) &&
    Array.isArray(x.mapsFromHttp) &&
    x.mapsFromHttp.every(s => isStr(s) || isNum(s))
  );
}

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

/** The entry, if it has the shape this build writes. */
export function asEntry(x: unknown): Entry | undefined {
  if (!isObj(x) || !isStr(x.hash) || !isStr(x.opts) || typeof x.adapter !== 'boolean') return undefined;
  if (!(x.stat === null || (Array.isArray(x.stat) && x.stat.length === 4 && x.stat.every(isNum)))) return undefined;
  if (!Array.isArray(x.refs) || !x.refs.every(isStr) || !Array.isArray(x.decls) || !x.decls.every(isDecl)) return undefined;
  if ((x.deps === undefined) !== (x.diagnostics === undefined)) return undefined;
  if (x.deps !== undefined && (!isStr(x.deps) || !Array.isArray(x.diagnostics) || !x.diagnostics.every(isDiagnostic))) return undefined;
  return x as unknown as Entry;
}

/** The entries of a cache body by URI (a Map: a key such as `__proto__` is just a key). */
export function parseEntries(body: string, tool: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return out;
  }
  if (!isObj(data) || data.version !== 2 || data.tool !== tool || !isObj(data.files)) return out;
  for (const [uri, raw] of Object.entries(data.files)) {
    const e = uri.startsWith('file:') ? asEntry(raw) : undefined;
    if (e) out.set(uri, e);
  }
  return out;
}
