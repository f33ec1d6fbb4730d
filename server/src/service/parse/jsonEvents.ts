/**
 * What a read of parse/jsonReader.ts reports: the values of a strict read (`JsonSink`), the mistakes a
 * lenient read steps over (`JsonProblem`) and what ends a read (`JsonFault`).
 */

/** A mistake read past in lenient mode (`onProblem`); `comma-before-}` and `-]`: a trailing comma. */
export type JsonProblem =
  | 'comment'
  | 'control'
  | 'unicode-escape'
  | 'escape'
  | 'single-quoted'
  | 'number'
  | 'word'
  | 'unquoted-key'
  | 'comma-before-}'
  | 'comma-before-]'
  | 'trailing-text';

/**
 * What ended a read, at `at`: `value`, `key`, `colon`, `comma` (or the innermost container's closing
 * bracket) expected there; `unclosed-string` (to the end of the text or, lenient, to a line break:
 * `end`); `deep` (strict: the bracket past `maxDepth`; lenient: read no further, silently); lenient
 * only: `unclosed-single` (`'…` stopping at `end`); strict only: `control` (a raw control character,
 * line breaks too, in a string), `unicode-escape`, `escape` (`end`: past the escaped character),
 * `trailing-comma` (the ',' before a closing bracket), `trailing-text` (after the value).
 */
export type JsonFaultKind =
  | 'value'
  | 'key'
  | 'colon'
  | 'comma'
  | 'unclosed-string'
  | 'deep'
  | 'unclosed-single'
  | 'control'
  | 'unicode-escape'
  | 'escape'
  | 'trailing-comma'
  | 'trailing-text';

export interface JsonFault {
  readonly kind: JsonFaultKind;
  readonly at: number;
  /** Where the faulty token stops (`at` unless the kind says otherwise). */
  readonly end: number;
  /** The text ends at `at`. */
  readonly eof: boolean;
  /** The innermost open container's bracket, -1 at the top level. */
  readonly open: number;
  /** That container is an array. */
  readonly array: boolean;
}

/** Receives a strict read's values in document order; a sink may throw to abandon the read. */
export interface JsonSink {
  open(array: boolean, start: number): void;
  /** `end`: past the closing bracket. */
  close(end: number): void;
  key(start: number, end: number, value: string): void;
  string(start: number, end: number, value: string): void;
  number(start: number, end: number): void;
  literal(start: number, end: number, value: boolean | null): void;
}

export interface JsonReadOptions {
  readonly lenient?: boolean;
  /** Strict: at most this many containers open. Lenient: no value read more than this many levels deep. */
  readonly maxDepth: number;
  /** Strict only (lenient reads decode nothing). */
  readonly sink?: JsonSink;
  readonly onProblem?: (kind: JsonProblem, start: number, end: number) => void;
}
