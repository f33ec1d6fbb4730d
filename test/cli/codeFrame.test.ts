/**
 * Code frames cost their window, not their line's length. The frames equal those of
 * the former per-problem implementation (kept below as the reference), fuzzed; a 4 MB line of control
 * characters with a hundred problems is printed by the built CLI in a child process well within 30 s.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { codeFrame, createFramer } from '../../server/src/cli/format/text';
import { escapeControls } from '../../server/src/cli/format/escape';
import { tempTree } from './helpers';
import { cliBundle } from './bundle';

/** The former codeFrame: split, escape and measure the whole text and lines for every problem. */
function reference(text: string, line: number, startCol: number, endLine: number, endCol: number): string {
  const display = (s: string) => escapeControls(s.replace(/\t/g, '  '));
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const first = Math.max(0, line - 2),
    last = Math.min(lines.length - 1, line + 1);
  const width = String(last + 1).length;
  const out: string[] = [];
  const target = lines[line] ?? '';
  const expand = (col: number) => display(target.slice(0, col)).length;
  const off = expand(startCol) > 140 ? expand(startCol) - 60 : 0;
  const lead = off ? '…' : '';
  for (let i = first; i <= Math.min(last, lines.length - 1); i++) {
    const shown = lead + display(lines[i] ?? '').slice(off);
    const clipped = shown.length > 160 ? shown.slice(0, 157) + '…' : shown;
    out.push(`${i === line ? '>' : ' '} ${String(i + 1).padStart(width)} | ${clipped}`);
    if (i === line) {
      const s = Math.min(expand(startCol) - off + lead.length, 160);
      const e = endLine === line ? Math.min(Math.max(expand(endCol) - off + lead.length, s + 1), 160) : Math.max(clipped.length, s + 1);
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(s)}${'^'.repeat(Math.max(1, e - s))}`);
    }
  }
  return out.join('\n');
}

test('frames equal the former implementation (fuzzed: tabs, controls, bidi, long lines, CR / LF / CRLF)', () => {
  const piece = fc.constantFrom(
    'a',
    'key: value ',
    '\t',
    '\x1b',
    '\x01',
    '\u202e',
    '\u2028',
    '\x85',
    '\r',
    '\n',
    '\r\n',
    'é',
    '😀',
    'x'.repeat(90),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(8), fc.nat(400), fc.nat(3), fc.nat(400), (ps, line, sc, dl, ec) => {
      const text = ps.join('');
      const framer = createFramer(text);
      assert.equal(framer(line, sc, line + (dl === 3 ? 1 : 0), ec), reference(text, line, sc, line + (dl === 3 ? 1 : 0), ec));
      assert.equal(codeFrame(text, line, sc, line, ec), reference(text, line, sc, line, ec));
    }),
    { numRuns: 2000 },
  );
});

test('a 4 MB line of control characters with 100 problems: the text report finishes with every frame', async t => {
  const line = '    description: "' + '\x01\x02a'.repeat(1_400_000) + '"';
  const dir = tempTree({
    'ctl.adapter.yaml': `error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "x"\n${line}\n`,
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = cliBundle(['check', 'ctl.adapter.yaml'], dir, 30_000);
  assert.equal(r.timedOut, false, 'the text report took over 30 s');
  assert.equal(r.code, 1, r.err);
  const out = r.out.split('\n');
  assert.equal(out.at(-2), '100 problems (100 errors, 0 warnings, 0 info, 0 hints) in 1 adapter file.');
  // Each problem: its line, its frame (the same as the former implementation's), a blank line.
  const text = `error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "x"\n${line}\n`;
  assert.equal(
    out[1],
    'ctl.adapter.yaml:5:19  error  Invalid character: control character U+0001: YAML does not allow it.  text.invalid-character',
  );
  assert.deepEqual(out.slice(2, 6), reference(text, 4, 18, 4, 19).split('\n'));
  const lastAt = out.length - 8;
  assert.match(out[lastAt]!, /^ctl\.adapter\.yaml:5:(\d+)  error/);
  const col = Number(/:5:(\d+)/.exec(out[lastAt]!)![1]) - 1;
  assert.ok(col > 140);
  assert.deepEqual(out.slice(lastAt + 1, lastAt + 5), reference(text, 4, col, 4, col + 1).split('\n'));
  assert.equal(out.filter(l => l.startsWith('> 5 | ')).length, 100);
});
