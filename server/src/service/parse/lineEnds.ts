/**
 * Line ends that are CR alone (classic Mac OS). YAML 1.2 reads a lone CR as a line break, the `yaml`
 * parser and most tools do not (the file is one long line to them). We read each lone CR as LF: one
 * character for one, so every offset, and every position the editor computes (it breaks lines at a
 * lone CR too), stays exact; one diagnostic says so.
 */
import type { ParseProblem } from '../model/model';
import type { TextSource } from '../model/textSource';

const LONE_CR = /\r(?!\n)/g;

/**
 * The text with each lone CR read as LF, and where the first one was (-1: none). A text in pieces without a lone
 * CR is answered as it is (searched, not made whole).
 */
export function lfLineEnds<T extends TextSource>(text: T): { text: T | string; firstCr: number } {
  if (!text.includes('\r')) return { text, firstCr: -1 };
  if (typeof text !== 'string' && firstLoneCr(text, 0, text.length) < 0) return { text, firstCr: -1 };
  const s = text.toString();
  LONE_CR.lastIndex = 0;
  const m = LONE_CR.exec(s);
  if (!m) return { text, firstCr: -1 };
  return { text: s.replace(LONE_CR, '\n'), firstCr: m.index };
}

/** The offset of the first lone CR in `[from, to)` of `text`, or -1. */
export function firstLoneCr(text: TextSource, from: number, to: number): number {
  for (let i = text.indexOf('\r', from); i >= 0 && i < to; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) return i;
  return -1;
}

/** The one problem of a YAML text with lone CRs (`allCr`: it has no other line end). */
export function crLineEndsProblem(at: number, allCr: boolean): ParseProblem {
  return {
    start: at,
    end: at + 1,
    message: allCr
      ? 'Line ends are CR only (classic Mac OS): use LF or CRLF, other YAML tools read this file as one line. It is checked as if each CR were a line break.'
      : 'This line ends with CR alone: use LF or CRLF, other YAML tools do not read it as a line break. It is checked as if it were one.',
    yamlCode: 'CR_LINE_ENDS',
  };
}
