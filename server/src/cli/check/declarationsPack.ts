/**
 * Declarations as a check worker gets them (ARCHITECTURE.md, "One workspace path"): `slim` (what validation reads of another file's
 * declaration) and packed as one JSON string (one string to copy per worker, not an object graph to
 * clone).
 */
import type { CodeDeclaration } from '../../service';
import type { IndexedFile } from '../indexedFile';

export const NO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * What validation reads of another file's declaration (the resolver: name, category, details; messages:
 * the file): a CLI run keeps and sends only that, so memory per declaration stays small.
 */
export function slim(d: CodeDeclaration): CodeDeclaration {
  // By push, not `map`: an array `map` makes has another elements kind once the caller is optimised, and `packOne`'s
  // `map` over these details deoptimised on it (`--trace-deopt`: "wrong map", then compiled again).
  const details: CodeDeclaration['details'][number][] = [];
  for (const x of d.details) details.push({ name: x.name, type: x.type, required: x.required });
  return { uri: d.uri, code: d.code, range: NO_RANGE, category: d.category, details, mapsFromHttp: [] };
}

/** A file's slim declarations as JSON: per file its URI once, per declaration code, category and details (what `slim` keeps). */
type PackedDeclaration = [string, string | null, [string, string | null, boolean | null][]];
type Packed = [string, PackedDeclaration[]][];

const packOne = (d: CodeDeclaration): PackedDeclaration => {
  const details: PackedDeclaration[2] = []; // by push, as in `slim`
  for (const x of d.details) details.push([x.name, x.type ?? null, x.required ?? null]);
  return [d.code, d.category ?? null, details];
};

/** A packed declaration of the file `uri`, as a `slim` one. */
const unpackOne = (uri: string, [code, category, packed]: PackedDeclaration): CodeDeclaration => {
  const details: CodeDeclaration['details'][number][] = []; // by push, as in `slim`
  for (const [name, type, required] of packed) details.push({ name, type: type ?? undefined, required: required ?? undefined });
  return { uri, code, range: NO_RANGE, category: category ?? undefined, details, mapsFromHttp: [] };
};

/** A file's packed declarations as `slim` ones, in an array made by push (as in `slim`). */
function unpackAll(uri: string, ds: readonly PackedDeclaration[]): CodeDeclaration[] {
  const out: CodeDeclaration[] = [];
  for (const d of ds) out.push(unpackOne(uri, d));
  return out;
}

export function packDeclarations(declarations: readonly [string, readonly CodeDeclaration[]][]): string {
  const packed: Packed = declarations.map(([uri, ds]) => [uri, ds.map(packOne)]);
  return JSON.stringify(packed);
}

/** What `packDeclarations` packed, as `slim` declarations again. */
export function unpackDeclarations(json: string): [string, CodeDeclaration[]][] {
  const out: [string, CodeDeclaration[]][] = [];
  for (const [uri, ds] of JSON.parse(json) as Packed) out.push([uri, unpackAll(uri, ds)]);
  return out;
}

/**
 * The main thread keeps every file's declarations for the run (each batch is sent those it needs): what
 * a worker sent arrives as copies, each declaration with its own URI, category and details objects.
 * `shared` gives them back sharing what repeats — the file's URI, equal categories, equal details
 * lists — so the run's declarations cost a few objects each, not a few strings and lists each.
 */
export function sharer(): (uri: string, ds: readonly CodeDeclaration[]) => CodeDeclaration[] {
  const strings = new Map<string, string>();
  const lists = new Map<string, CodeDeclaration['details']>();
  const str = (x: string | undefined) => {
    if (x === undefined) return x;
    let v = strings.get(x);
    if (v === undefined) strings.set(x, (v = x));
    return v;
  };
  // Arrays by push, as in `slim`.
  return (uri, ds) => {
    const out: CodeDeclaration[] = [];
    for (const d of ds) {
      const key = JSON.stringify(d.details.map(x => [x.name, x.type, x.required]));
      let details = lists.get(key);
      if (!details) {
        const made: CodeDeclaration['details'][number][] = [];
        for (const x of d.details) made.push({ name: str(x.name)!, type: str(x.type), required: x.required });
        lists.set(key, (details = made));
      }
      out.push({ uri, code: d.code, range: NO_RANGE, category: str(d.category), details, mapsFromHttp: NO_STATUSES });
    }
    return out;
  };
}

const NO_STATUSES: readonly (number | string)[] = [];

/** A batch of the index pass as a worker sends it: per file its URI, whether an adapter, its references and its declarations (as `Packed`). */
type PackedIndexed = [string, 0 | 1, string[], PackedDeclaration[]][];

export function packIndexed(files: readonly IndexedFile[]): string {
  const packed: PackedIndexed = files.map(f => [f.uri, f.adapter ? 1 : 0, f.refs, f.decls.map(packOne)]);
  return JSON.stringify(packed);
}

/**
 * What `packIndexed` packed, with `share`'s sharing (one string, not an object graph, crosses the thread: nothing
 * to clone, little garbage on the main thread) and each reference sharing its file's own code strings. The main
 * thread's own batches take this way too: their strings are slices of the files' texts, which the JSON copy lets go
 * (handed over as they were, peak RSS rose 7–10 MB at 1,000–2,000 files and 40 MB at 10,000; bench/NOTES.md,
 * "the second isolate's warm-up").
 */
export function unpackIndexed(json: string, share: ReturnType<typeof sharer>): IndexedFile[] {
  return (JSON.parse(json) as PackedIndexed).map(([uri, adapter, refs, ds]) => shared(uri, adapter === 1, refs, ds, share));
}

function shared(
  uri: string,
  adapter: boolean,
  refs: readonly string[],
  ds: readonly PackedDeclaration[],
  share: ReturnType<typeof sharer>,
): IndexedFile {
  const decls = share(uri, unpackAll(uri, ds));
  const own = new Map(decls.map(d => [d.code, d.code]));
  return { uri, adapter, decls, refs: refs.map(r => own.get(r) ?? r) };
}
