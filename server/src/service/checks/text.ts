/**
 * text.invalid-character: characters YAML forbids (c-printable excludes C0 controls but tab/LF/CR,
 * DEL and lone surrogates) and U+FFFD, which stands for bytes that were not UTF-8 when the file was
 * read. Invisible in the editor and broken in every envelope, so each is reported where it is.
 */
import { Code } from '../codes';
import type { Check, Problem } from './types';

/** One invalid character (each match is one UTF-16 unit: a control, U+FFFD or a lone surrogate). */
export const BAD = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFD]|\p{Cs}/gu;
export const MAX_REPORTS = 100;

export const text: Check = {
  name: 'text',
  run({ model }, emit) {
    let n = 0;
    BAD.lastIndex = 0;
    for (const m of model.text.matchAll(BAD)) {
      emit(invalidCharacter(m[0].charCodeAt(0), m.index, m[0].length));
      if (++n >= MAX_REPORTS) break;
    }
  },
};

/** The problem of the invalid character `ch` at `at`. */
export function invalidCharacter(ch: number, at: number, length = 1): Problem {
  const hex = ch.toString(16).toUpperCase().padStart(4, '0');
  const what =
    ch === 0xfffd
      ? 'U+FFFD replacement character: the file probably holds bytes that are not valid UTF-8 here'
      : ch >= 0xd800 && ch <= 0xdfff
        ? `lone surrogate U+${hex}: not a Unicode character; YAML does not allow it`
        : `control character U+${hex}: YAML does not allow it`;
  return {
    code: Code.TextInvalidCharacter,
    message: `Invalid character: ${what}.`,
    start: at,
    end: at + length,
    data: { codePoint: ch },
  };
}
