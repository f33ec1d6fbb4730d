/**
 * Random small edits of a YAML text for property tests that compare two parse paths on broken input: each edit
 * deletes up to 30 characters at a position and inserts a fragment chosen to break YAML in the usual ways
 * (indentation, flow collections, quotes, anchors and aliases, merge keys, tabs, comments, document markers).
 */
import fc from 'fast-check';

export interface YamlEdit {
  readonly at: number;
  readonly del: number;
  readonly ins: string;
}

/** One to three edits. */
export const yamlEdits = (): fc.Arbitrary<YamlEdit[]> =>
  fc.array(
    fc.record({
      at: fc.nat(),
      del: fc.nat({ max: 30 }),
      ins: fc.constantFrom('', '\n', '  ', ': ', '- ', '{', '"', '&a ', '*a', '<<: *a\n', '\t', '#', 'x', '{y}', '---\n'),
    }),
    { minLength: 1, maxLength: 3 },
  );

/** `text` with the edits applied in turn (each position taken modulo the text's length at that point). */
export function mutated(text: string, edits: readonly YamlEdit[]): string {
  for (const e of edits) {
    const at = e.at % (text.length + 1);
    text = text.slice(0, at) + e.ins + text.slice(at + e.del);
  }
  return text;
}
