/**
 * The glob matcher: the usual semantics, invalid patterns as clear errors
 * (never a throw out of matchesAny), and linear work on adversarial patterns, shown by the step count
 * the automaton reports (not by wall time).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { compileGlob, globError, GlobSyntaxError } from '../../server/src/service';
import { matchesAny } from '../../server/src/service/util/glob';
import { newService } from './helpers';
import { TextDocument } from 'vscode-languageserver-textdocument';

const m = (glob: string, path: string) => compileGlob(glob).test(path);

test('globs: *, **, ?, braces, classes, and a match anchored at a segment start', () => {
  assert.ok(m('*.yaml', 'a.yaml'));
  assert.ok(m('*.yaml', '/ws/deep/a.yaml'), 'a pattern without a slash matches the base name anywhere');
  assert.ok(!m('*.yaml', 'a.yml'));
  assert.ok(!m('*.yaml', 'a.yaml.bak'));
  assert.ok(!m('a*.yaml', 'xa.yaml'), 'a match starts at a segment start');
  assert.ok(m('src/*.yaml', '/ws/src/a.yaml'));
  assert.ok(!m('src/*.yaml', '/ws/src/x/a.yaml'), '* does not cross /');
  assert.ok(m('src/**/*.yaml', '/ws/src/a.yaml'), '**/ matches zero segments');
  assert.ok(m('src/**/*.yaml', '/ws/src/x/y/a.yaml'));
  assert.ok(m('**/*.yaml', 'a.yaml'));
  assert.ok(m('src/**', '/ws/src/x/y'));
  assert.ok(m('a?c', 'abc'));
  assert.ok(!m('a?c', 'a/c'), '? does not match /');
  assert.ok(m('*.{yaml,yml}', 'x.yml'));
  assert.ok(m('{a,b{c,d}}.md', 'bd.md'));
  assert.ok(!m('{a,b{c,d}}.md', 'b.md'));
  assert.ok(m('{,x}y', 'y'), 'an empty alternative');
  assert.ok(m('[a-c]x', 'bx'));
  assert.ok(!m('[!a-c]x', 'bx'));
  assert.ok(m('[^a-c]x', 'dx'));
  assert.ok(!m('[!a]x', '/x') && !m('a[!b]c', 'a/c'), 'a negated class does not match /');
  assert.ok(m('[]]', ']'), '] first in a class is a member');
  assert.ok(m('a}b,c', 'a}b,c'), 'a } or , outside braces is literal');
  assert.ok(m('a.b+c(d)|e$^', 'a.b+c(d)|e$^'), 'regex characters are literal');
});

test('invalid globs are clear errors; matchesAny skips them and never throws', () => {
  assert.equal(globError('[z-a]'), "range 'z-a' at column 2 is out of order");
  assert.equal(globError('src/[abc'), "'[' at column 5 is never closed");
  assert.equal(globError('{a,{b,c}'), "'{' at column 1 is never closed");
  assert.equal(globError('x'.repeat(2000)), 'pattern longer than 1024 characters');
  assert.equal(globError('{'.repeat(65) + '}'.repeat(65)), 'braces nested deeper than 64');
  assert.equal(globError('**/*.{yaml,yml}'), undefined);
  assert.throws(() => compileGlob('[z-a]'), GlobSyntaxError);
  assert.equal(matchesAny('/ws/a.yaml', ['[z-a]', '{', '*.yaml']), true);
  assert.equal(matchesAny('/ws/a.yaml', ['[z-a]']), false);
});

test('the service classifies with an invalid glob in mcpAql.files without throwing', () => {
  const s = newService();
  const doc = TextDocument.create('file:///ws/errors.yaml', 'yaml', 1, 'error_codes:\n  bad: {}\n');
  assert.equal(s.isAdapter(doc, { files: ['[z-a]', '{'] }), true, 'sniffed by content, the bad globs ignored');
  const plain = TextDocument.create('file:///ws/notes.yaml', 'yaml', 1, 'a: 1\n');
  assert.equal(s.isAdapter(plain, { files: ['[z-a]'] }), false);
  assert.equal(s.isAdapter(plain, { files: ['[z-a]', 'notes.*'] }), true);
});

/** Steps grow with path length × pattern size, never exponentially: a backtracking matcher takes 10^9+ here. */
test('adversarial patterns take a linear number of steps and give the right answer', () => {
  const cases: [string, string, boolean][] = [
    ['*a*a*a*a*a*a*a*a*c', 'a'.repeat(40), false],
    ['*a*a*a*a*a*a*a*a*c', 'a'.repeat(40) + 'c', true],
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c', 'a'.repeat(4000), false],
    ['**/'.repeat(30) + 'x', 'a/'.repeat(200) + 'y', false],
    ['**/'.repeat(30) + 'x', 'a/'.repeat(200) + 'x', true],
    ['**a**a**a**a**a**a**a**a**c', 'a/'.repeat(500), false],
    ['{a,a,a,a}{a,a,a,a}{a,a,a,a}{a,a,a,a}{a,a,a,a}{a,a,a,a}{a,a,a,a}c', 'a'.repeat(60), false],
    ['{' + Array(30).fill('{a,{a,aa}}').join('') + '}c', 'a'.repeat(100), false],
    ['[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*!', 'abcdefghij'.repeat(50), false],
  ];
  for (const [glob, path, expected] of cases) {
    const g = compileGlob(glob);
    const { matched, steps } = g.run(path);
    assert.equal(matched, expected, `${glob.slice(0, 40)} on ${path.length} chars`);
    // Each character visits each state and edge at most a bounded number of times.
    const bound = (path.length + 1) * (glob.length + 2) * 8;
    assert.ok(steps <= bound, `${glob.slice(0, 40)}: ${steps} steps > ${bound}`);
  }
  // Doubling the path doubles the work (linear), it does not square or explode.
  const g = compileGlob('*a*a*a*a*a*a*a*a*c');
  const s1 = g.run('a'.repeat(1000)).steps,
    s2 = g.run('a'.repeat(2000)).steps;
  assert.ok(s2 <= 2.1 * s1, `${s1} → ${s2}`);
});
