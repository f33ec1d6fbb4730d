/** Random text insertions for the incremental-parse and kept-checks fuzzes: YAML's structural pieces. */
import fc from 'fast-check';

/** Characters and lines that change YAML structure: indentation, keys, flow braces, quotes, anchors, tabs. */
const PIECES = [' ', '\n', ':', '  ', 'A', '_', '{', '}', "'", '"', '#', '-', '4', 'x: 1\n', '  B:\n', '    code: X\n', '&a ', '*a', '\t'];

/** Up to `maxLength` pieces (PIECES, then `extra`) joined into one inserted text. */
export const insertions = (extra: readonly string[], maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...PIECES, ...extra), { maxLength }).map(a => a.join(''));
