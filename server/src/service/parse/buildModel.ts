/**
 * text → AdapterModel. The only place that calls the YAML parser (conventions C2). Keys are compared
 * as strings; duplicate keys are left to the O(n) check (the parser's own check is quadratic).
 */
import type { Node } from 'yaml';
import type { AdapterModel, FileKind, ParseProblem, Section } from '../model/model';
import { parseChunked } from './chunkedParse';
import { collectRanges } from './shiftModel';
import type { ChunkState } from './chunkState';
import type { Change } from './reuseLayout';
import { badMerges } from './aliases';
import { composeYaml, TOO_DEEP } from './compose';
import { MAX_NESTING } from '../util/nesting';
import { extract, type Extracted } from './extract';
import { jsonDocument } from './jsonDocument';
import { jsonSyntaxErrors } from './jsonSyntax';
import { crLineEndsProblem, firstLoneCr, lfLineEnds } from './lineEnds';
import { classify, type Classified } from './sourceFile';
import { remapRanges, repairTabs, TAB_INDENT } from './tabs';
import type { TextSource } from '../model/textSource';
import { sourceText, withText } from '../util/pieceText';

export const PARSE_OPTIONS = {
  uniqueKeys: false,
  prettyErrors: false,
  keepSourceTokens: false,
  strict: true,
  stringKeys: false,
  // YAML 1.1 merge keys (`<<: *base`), as most loaders apply them (docs/spec-decisions.md).
  merge: true,
  // The service writes nowhere: `yaml` would otherwise print warnings (a collection as a key) with process.emitWarning.
  logLevel: 'error',
} as const;

/**
 * YAML regions at least this long are parsed in chunks, reusing the previous version's chunks.
 * 0: every YAML region is chunked, so results never depend on the file's size. On error-free text a
 * chunked parse equals a whole parse; a syntax error inside one error_codes / error_mapping entry is
 * reported inside that entry instead of cascading over the rest of the file (bench/NOTES.md, "How the keystroke stays cheap").
 */
const CHUNK_THRESHOLD = 0;

/**
 * Read once (`once`), a YAML region shorter than this is parsed whole (one `yaml` parse); a longer one in
 * chunks, so that the syntax tree of the whole region is never held at once with its Document (a 14 MiB
 * region: 1.2 GB against 0.7), and most of its entries are read by parse/fastChunk.ts (a 1 MiB region:
 * 160 ms against 500 whole; bench/NOTES.md, "Big files").
 */
export const ONCE_WHOLE_MAX = 64 * 1024;

/**
 * Whether a text may hold a merge key, so its values are worth checking (`badMerges`): written `<<`, or any
 * scalar tagged `tag:yaml.org,2002:merge` (`!!merge q`, a verbatim tag, a %TAG handle), which needs a `!`.
 */
const mayMerge = (s: TextSource): boolean => s.includes('<<') || s.includes('!');

interface BuildOptions {
  readonly extraGlobs?: readonly string[];
  /** The model of the previous version of the same document (its chunks are reused). */
  readonly previous?: AdapterModel;
  /**
   * What changed since `previous` (file offsets), when the caller knows it (LSP incremental sync):
   * spares the comparison of the two texts. Without it the change is found by comparing them.
   */
  readonly change?: Change;
  /** Override CHUNK_THRESHOLD (tests compare chunked and whole parses with 0 and Infinity). */
  readonly chunkThreshold?: number;
  /**
   * No later version of this document will be parsed (the CLI reads each file once): the region is
   * parsed whole, which costs less and keeps no chunk state, and in chunks only when that parse finds
   * an error, so that a broken entry is still reported inside that entry. On error-free text the two
   * parses give the same model (test/service/chunkedParse*.test.ts, test/service/parseOnce.test.ts).
   */
  readonly once?: boolean;
}

/**
 * `text` may be a string or a text in pieces (util/pieceText.ts: an open document in the language server): on the
 * keystroke path the latter is read near the edit only, and the model's `text` is made whole when first read.
 */
export function buildModel(
  uri: string,
  text: TextSource,
  extraGlobs: readonly string[] = [],
  opts: BuildOptions = {},
): AdapterModel | undefined {
  const lf = lfLineEnds(text);
  const cls = classify(uri, lf.text, extraGlobs);
  const model = cls && buildClassified(uri, lf.text, cls, opts);
  // A CR-only .adapter.json is valid JSON (CR is whitespace there); a lone CR after the front matter is Markdown's.
  const at = model && lf.firstCr >= 0 && cls.kind !== 'json' ? firstLoneCr(text, cls.region.start, cls.region.end) : -1;
  return model && at >= 0
    ? withText({ ...model, syntaxErrors: [crLineEndsProblem(at, !text.includes('\n')), ...model.syntaxErrors] }, sourceText(model))
    : model;
}

function buildClassified(uri: string, text: TextSource, cls: Classified, opts: BuildOptions = {}): AdapterModel {
  const { start, end } = cls.region;
  const syntaxErrors: ParseProblem[] = [];
  if (cls.unclosed) {
    syntaxErrors.push({
      start: 0,
      end: 3,
      message: "Front matter opened with '---' is never closed by a line that is only '---'.",
      yamlCode: 'FRONT_MATTER_UNCLOSED',
    });
  }
  // The region: the whole text of a YAML or JSON adapter (kept as it is, in pieces or not), a Markdown one's front matter.
  const yamlText: TextSource = start === 0 && end === text.length ? text : text.slice(start, end);
  let sections: Section[] | undefined;
  let parseState: ChunkState | undefined;
  let ex: Extracted | undefined;
  let kept: AdapterModel['suppressions'] | undefined;
  if (opts.once && cls.kind !== 'json' && opts.chunkThreshold === undefined && yamlText.length < ONCE_WHOLE_MAX) {
    const errors: ParseProblem[] = [];
    const whole = parseSections(yamlText.toString(), start, cls.kind, errors);
    if (!errors.length) sections = whole;
  }
  if (!sections && cls.kind !== 'json' && yamlText.length >= (opts.chunkThreshold ?? CHUNK_THRESHOLD)) {
    const ps = opts.previous?.parseState as ChunkState | undefined;
    const prev = Array.isArray(ps?.pieces) ? ps : undefined;
    const c = opts.change;
    const prevLength = opts.previous ? sourceText(opts.previous).length : 0;
    const change =
      c && opts.previous && c.start >= start && c.oldEnd <= prevLength && text.length - prevLength === c.newEnd - c.oldEnd
        ? { start: c.start - start, oldEnd: c.oldEnd - start, newEnd: c.newEnd - start }
        : undefined;
    // A large region read once keeps no chunk state (below): parsed without one (chunkedParse.ts, readOnce).
    const readOnce = !!opts.once && yamlText.length >= ONCE_WHOLE_MAX;
    const chunked = parseChunked(yamlText, start, PARSE_OPTIONS, prev, change, readOnce);
    if (chunked) {
      sections = [chunked.section];
      ex = chunked.extracted;
      for (const e of chunked.errors)
        syntaxErrors.push({ start: start + e.start, end: start + e.end, message: e.message, yamlCode: e.code });
      // A large region read once: nothing will reuse its chunks, and the checks keep no state for a model without them.
      parseState = readOnce ? undefined : chunked.state;
      // Kept for the next edit, which moves every chunk after it: their node ranges are collected now, with the
      // spans (chunkedParse.ts), not on the first keystroke after the open (fastChunk leaves them to the first move).
      if (parseState && chunked.path !== 'entry')
        for (const p of parseState.pieces)
          for (const q of [p, p.header, ...(p.sub ?? [])]) if (q?.chunk) q.chunk.ranges ??= collectRanges(q.chunk.pairs);
      // On the keystroke path the text may hold a merge key only if the previous one did or the edit made one.
      const ch = chunked.path === 'entry' ? chunked.change : undefined;
      if (parseState)
        parseState.merges =
          ch && prev?.merges === false
            ? mayMerge(text.slice(Math.max(start, start + ch.start - 1), start + ch.newEnd + 1))
            : mayMerge(yamlText);
      if (ch && cls.kind === 'yaml') kept = keptSuppressions(opts.previous!, text, ch);
    }
  }
  // A JSON adapter that is strict JSON gets its Document from one read by the JSON reader (parse/jsonDocument.ts).
  // Any other JSON text (a syntax error, a root that is not an object, nesting past MAX_NESTING) takes the YAML parse,
  // whose model and errors are today's contract for broken JSON: checked as JSON, and where the JSON check finds errors,
  // the YAML parser's own errors are dropped (one mistake, one report).
  const json = cls.kind === 'json' ? jsonDocument(yamlText.toString(), PARSE_OPTIONS) : undefined;
  sections ??= json
    ? [{ index: 0, base: start, text: yamlText.toString(), doc: json }]
    : parseSections(yamlText.toString(), start, cls.kind, syntaxErrors);
  if (cls.kind === 'json' && !json) {
    const errors = jsonSyntaxErrors(text.toString(), start, end);
    if (errors.length) syntaxErrors.splice(0, syntaxErrors.length, ...errors);
  }
  ex ??= extract(sections);
  if (parseState?.merges ?? mayMerge(yamlText)) {
    for (const s of sections)
      for (const n of badMerges(s.doc)) {
        syntaxErrors.push({
          start: s.base + n.range![0],
          end: s.base + n.range![1],
          message:
            "A merge key '<<' takes a mapping, an alias of a mapping, or a list of them; this value is none of these and is ignored.",
          yamlCode: 'BAD_MERGE',
        });
      }
  }
  // `text` made whole only when read (util/pieceText.ts, withText): the keystroke path reads `source`.
  return withText(
    {
      uri,
      kind: cls.kind,
      sections,
      codes: ex.codes,
      mappings: ex.mappings,
      params: ex.params,
      syntaxErrors,
      suppressions: kept ?? suppressions(text.toString(), start, end),
      parseState,
    },
    text,
  );
}

function parseSections(yamlText: string, base: number, kind: FileKind, errors: ParseProblem[]): Section[] {
  let deepAt: number | undefined;
  const compose = (x: string) => {
    const c = composeYaml(x, PARSE_OPTIONS);
    deepAt ??= c.tooDeepAt;
    return c.docs;
  };
  let docs = compose(yamlText);
  let f = (x: number) => x;
  if (docs.some(d => d.errors.length) && TAB_INDENT.test(yamlText)) {
    // Tabs in indentation: one error on each tab, the rest read as if indented with spaces (parse/tabs.ts).
    const r = repairTabs(yamlText)!;
    docs = compose(r.text);
    f = r.toOriginal;
    for (const d of docs) {
      remapRanges([d.contents as Node | null], f);
      const dr = d.range as [number, number, number];
      dr[0] = f(dr[0]);
      dr[1] = f(dr[1]);
      dr[2] = f(dr[2]);
    }
    for (const e of r.errors) errors.push({ start: base + e.start, end: base + e.end, message: e.message, yamlCode: e.code });
  }
  if (deepAt !== undefined) {
    // Only where the nesting scan (util/nesting.ts) undercounts broken text: the parser's tree is too deep to compose.
    const at = base + f(deepAt);
    errors.push({ start: at, end: at + 1, message: `Nested deeper than ${MAX_NESTING} levels; not parsed.`, yamlCode: TOO_DEEP });
  }
  const sections: Section[] = [];
  docs.forEach((doc, index) => {
    for (const e of doc.errors) {
      const s = f(e.pos[0]),
        t = f(e.pos[1]);
      errors.push({ start: base + s, end: base + Math.max(t, s), message: e.message, yamlCode: e.code });
    }
    // A Markdown adapter has one front matter document; a second one would be body text.
    if (kind !== 'markdown' || index === 0) sections.push({ index, base, text: yamlText, doc });
  });
  return sections;
}

const DIRECTIVE = 'mcp-aql-disable-next-line';

/**
 * The previous model's suppressions, when they still hold: the edit adds or removes no line, and the
 * line it touches held no directive before and holds none now (spares a scan of the whole text).
 */
function keptSuppressions(prev: AdapterModel, text: TextSource, c: Change): AdapterModel['suppressions'] | undefined {
  const old = sourceText(prev);
  const lineOf = (t: TextSource, from: number, to: number) =>
    t.slice(t.lastIndexOf('\n', from - 1) + 1, Math.max(to, t.indexOf('\n', to) < 0 ? t.length : t.indexOf('\n', to)));
  if (old.slice(c.start, c.oldEnd).includes('\n') || text.slice(c.start, c.newEnd).includes('\n')) return undefined;
  if (lineOf(old, c.start, c.oldEnd).includes(DIRECTIVE) || lineOf(text, c.start, c.newEnd).includes(DIRECTIVE)) return undefined;
  return prev.suppressions;
}

const DISABLE = /#[ \t]*mcp-aql-disable-next-line\b([^\r\n]*)/g;
/** `-- why` after the codes is a reason for humans, not a code. */
export const REASON = /(?:^|\s)--(?:\s.*)?$/;

/** `# mcp-aql-disable-next-line [code ...]` → the next line's suppressed codes (0-based line numbers). */
export function suppressions(text: string, start: number, end: number): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const region = text.slice(start, end);
  if (!region.includes(DIRECTIVE)) return out;
  let line = 0;
  for (let i = 0; i < start; i++) if (text.charCodeAt(i) === 10) line++;
  let last = 0;
  for (const m of region.matchAll(DISABLE)) {
    for (let i = last; i < m.index; i++) if (region.charCodeAt(i) === 10) line++;
    last = m.index;
    const codes = m[1]!
      .replace(REASON, '')
      .split(/[\s,]+/)
      .filter(Boolean);
    out.set(line + 1, new Set(codes.length ? codes : ['*']));
  }
  return out;
}
