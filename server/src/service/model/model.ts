/**
 * The adapter model: what parse.ts extracts from a file, with exact document offsets
 * (UTF-16 code units, as TextDocument.positionAt expects) for every node a feature points at.
 * Every feature (checks, fixes, completion, hover, envelopes) reads this; none re-parses (a big document's entry
 * mappings read their items again from their text when asked: parse/hollow.ts, unseen by their readers).
 */
import type { Document, Node, YAMLMap } from 'yaml';
import type { TextSource } from './textSource';

export interface Span {
  readonly start: number;
  readonly end: number;
}

export type FileKind = 'markdown' | 'yaml' | 'json';

/** One YAML document of the file: its parsed tree and where its text starts in the file. */
export interface Section {
  readonly index: number;
  /** Offset of the section's first character in the file. Node ranges are relative to the section. */
  readonly base: number;
  /** The section's text (the whole of it made on first read when `source` is in pieces). */
  readonly text: string;
  /** The same text as read on the keystroke path (in pieces when the document is): read this where `text` need not be made. */
  readonly source?: TextSource;
  readonly doc: Document.Parsed;
}

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded';

export interface StringValue {
  readonly value: string;
  /** The scalar's source, quotes included (value range, trailing comments excluded). */
  readonly span: Span;
  readonly raw: string;
  readonly style: ScalarStyle;
  /**
   * Reached through an alias (`*ref`): the span is the anchored source, which other users of the
   * anchor share, so a fix must not change its meaning there.
   */
  readonly shared?: true;
}

export interface Placeholder {
  readonly name: string;
  /** covers the braces */ readonly span: Span;
}

export interface MalformedPlaceholder {
  readonly span: Span;
  readonly reason: string;
  /** The name meant, when clear (`{ x }`). */ readonly name?: string;
}

export interface Template extends StringValue {
  readonly placeholders: readonly Placeholder[];
  readonly malformed: readonly MalformedPlaceholder[];
}

/** A declared details key (ours): `key: type` or `key: {type, required, description, example, enum}`, or a bare list item `- key`. */
export interface DetailDecl {
  readonly name: string;
  readonly keySpan: Span;
  /** From the key's start to the end of its value: what "remove key" deletes. */
  readonly pairSpan: Span;
  readonly type?: string;
  readonly required?: boolean;
  readonly description?: string;
  readonly example?: unknown;
  readonly enum?: readonly unknown[];
  /** Reached through an alias: the key sits in the anchored source (see StringValue.shared). */
  readonly shared?: true;
}

export interface StatusRef {
  /** The key or item as written (`404`, `"404"`, `4XX`). */
  readonly raw: string;
  /** Integer status, or `4XX`/`5XX` for ranges, or the string as written when it is neither. */
  readonly value: number | string;
  readonly span: Span;
  readonly valid: boolean;
}

/** Something of the wrong shape where a value was expected (a map where a string belongs, ...). */
export interface ValueRef {
  readonly value: unknown;
  readonly span: Span;
}

export interface CodeDef {
  readonly name: string;
  readonly keySpan: Span;
  /** From the code's key to the end of its value. */
  readonly entrySpan: Span;
  readonly section: number;
  /** The entry's mapping node (undefined when the value is not a mapping). */
  readonly node?: YAMLMap;
  readonly category?: ValueRef;
  readonly template?: Template;
  /** The template's value node when it is not a string (a flow mapping, a number, ...). */
  readonly templateNode?: ValueRef & { readonly node: Node };
  readonly mapsFromHttp: readonly StatusRef[];
  readonly condition?: StringValue;
  readonly details: readonly DetailDecl[];
  readonly detailsNode?: Node;
  readonly description?: string;
  /** `retry:` as written (a string; the schema check judges the value). */
  readonly retry?: string;
  /** The entry's mapping is an alias's anchored node (`FOO: *base`): editing it edits every user. */
  readonly shared?: true;
  /** The details mapping is reached through an alias (`details: *ref`): declaring a key there is not local. */
  readonly detailsShared?: true;
}

export interface MappingEntry {
  readonly status: StatusRef;
  /** Position in a list value (ours), or null for a single mapping value. */
  readonly index: number | null;
  readonly entrySpan: Span;
  readonly section: number;
  readonly node?: YAMLMap;
  readonly code?: StringValue;
  readonly template?: Template;
  readonly templateNode?: ValueRef & { readonly node: Node };
  readonly condition?: StringValue;
  readonly details: readonly DetailDecl[];
  readonly detailsNode?: Node;
  readonly shared?: true;
  readonly detailsShared?: true;
}

export interface ParseProblem {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  /** The yaml package's error code (BAD_INDENT, ...), or our own for front matter. */
  readonly yamlCode: string;
  /**
   * A fatal JSON mistake (the JSON read ends there): from this offset to the end of the file, what the
   * YAML parse made of the text is not what a JSON loader reads, so only the syntax error speaks for it
   * (parse/jsonSyntax.ts; absent when nothing says where that starts).
   */
  readonly rejectsFrom?: number;
}

export interface OperationParam {
  readonly name: string;
  readonly span: Span;
  readonly operation: string;
  readonly type?: string;
}

export interface AdapterModel {
  readonly uri: string;
  /** The file's text (the whole of it made on first read when `source` is in pieces). */
  readonly text: string;
  /** The same text as read on the keystroke path (in pieces when the document is): read this where `text` need not be made. */
  readonly source?: TextSource;
  readonly kind: FileKind;
  readonly sections: readonly Section[];
  readonly codes: readonly CodeDef[];
  readonly mappings: readonly MappingEntry[];
  /** Operation parameters (params keys and `{x}` of `METHOD /path/{x}` maps_to), for placeholder fixes. */
  readonly params: readonly OperationParam[];
  readonly syntaxErrors: readonly ParseProblem[];
  /** Line number → suppressed codes ('*' = all) from `# mcp-aql-disable-next-line`. */
  readonly suppressions: ReadonlyMap<number, ReadonlySet<string>>;
  /** Internal: the parser's reusable state (chunk cache) for the next version of this document. */
  readonly parseState?: unknown;
}
