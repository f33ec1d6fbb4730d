/**
 * `condition.syntax` says what was meant: `=~` and `===` (not "write =="), `&&` / `||`
 * (and / or), `in (…)` ([…]), an unclosed `(` pointed at the `(`. Exact ranges in all three forms.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

const CASES: [string, string, string][] = [
  [
    "response.body.message =~ 'locked'",
    '=~',
    "Condition: write contains, startswith or endswith ('=~' is not an operator: there are no regular expressions).",
  ],
  ['response.status === 423', '===', "Condition: write '==' ('===' is not an operator: values compare without coercion)."],
  ["response.status == 423 && response.body.reason == 'locked'", '&&', "Condition: write 'and' ('&&' is not an operator)."],
  ['response.status == 423 || response.status == 409', '||', "Condition: write 'or' ('||' is not an operator)."],
  ['response.status in (409, 423)', '(409, 423)', 'Condition: write the list in square brackets: in [409, 423].'],
  ["(response.status == 423 and response.body.reason == 'locked'", '(', "Condition: add ')': this '(' is never closed."],
];

const wrapIn = {
  yaml: (c: string) => `error_mapping:\n  423:\n    code: CONFLICT_LOCKED\n    condition: "${c.replace(/"/g, '\\"')}"\n`,
  markdown: (c: string) => `---\nerror_mapping:\n  423:\n    code: CONFLICT_LOCKED\n    condition: "${c}"\n---\n\n# Locks\n`,
  json: (c: string) => `{\n  "error_mapping": {\n    "423": { "code": "CONFLICT_LOCKED", "condition": ${JSON.stringify(c)} }\n  }\n}\n`,
};
const URIS = { yaml: 'file:///w/l.adapter.yaml', markdown: 'file:///w/l-adapter.md', json: 'file:///w/l.adapter.json' };

for (const form of ['yaml', 'markdown', 'json'] as const) {
  test(`${form}: condition.syntax names the operator meant, on the exact characters`, () => {
    for (const [cond, at, message] of CASES) {
      const text = wrapIn[form](cond);
      const doc = docOf(text, URIS[form]);
      const ds = newService()
        .validate(doc)
        .filter(d => d.code === 'condition.syntax');
      const start = text.indexOf(cond) + cond.indexOf(at);
      assert.deepEqual(
        ds.map(d => [doc.offsetAt(d.range.start), doc.offsetAt(d.range.end), d.message]),
        [[start, start + at.length, message]],
        cond,
      );
    }
  });
}
