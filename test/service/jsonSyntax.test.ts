/**
 * A JSON adapter is checked as JSON. YAML reads trailing commas, comments, single
 * quotes, unquoted keys and values, which a JSON loader rejects: each is a positioned json.syntax.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { check, fixture, newService } from './helpers';

const JSON_URI = 'file:///w/shop.adapter.json';

function jsonProblems(text: string, uri = JSON_URI) {
  const f = fixture(text, { uri });
  const { ds, all } = check(f, 'json.syntax');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
    `ranges in:\n${f.doc.getText()}\n${ds.map(d => d.message).join('\n')}`,
  );
  return { messages: ds.map(d => String(d.message)), all, severity: ds.map(d => d.severity) };
}

test('trailing commas in objects and arrays, each at its comma; the model is still read', () => {
  const { messages, all, severity } = jsonProblems(
    [
      '{',
      '  "error_codes": {',
      '    "NOT_FOUND_CITY": {',
      '      "category": "NOT_FOUND",',
      '      "maps_from_http": [404[[,]]]',
      '    }[[,]]',
      '  }',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(messages, ["JSON allows no comma before ']': remove it.", "JSON allows no comma before '}': remove it."]);
  assert.deepEqual(severity, [1, 1]);
  assert.deepEqual(
    all.filter(d => d.code !== 'json.syntax').map(d => d.code),
    [],
  );
});

test('single quotes, unquoted keys, comments, YAML words: each reported where it stands', () => {
  const { messages } = jsonProblems(
    [
      '{',
      '  [[// the shop]]',
      '  "name": [[\'shop\']],',
      '  [[type]]: "adapter",',
      '  "error_codes": {',
      '    "VALIDATION_X": { "category": "VALIDATION", "description": [[yes]] } [[/* later */]]',
      '  }',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(messages, [
    'JSON has no comments: remove it (a description key can carry the note).',
    'JSON strings use double quotes: write "…" instead of \'…\'.',
    'JSON property names are double-quoted: write "type".',
    "'yes' is not a JSON value: JSON has true, false and null (lower case), and strings in double quotes.",
    'JSON has no comments: remove it (a description key can carry the note).',
  ]);
});

test('a missing comma ends the scan there, with no yaml.syntax for the same mistake', () => {
  const { messages, all } = jsonProblems('{ "error_codes": {} [["]]error_mapping": {} }\n');
  assert.deepEqual(messages, ["A ',' is missing before this property."]);
  assert.deepEqual(
    all.map(d => d.code),
    ['json.syntax'],
  );
});

test('YAML in a .adapter.json file, a second document, bad numbers and escapes, an unclosed brace', () => {
  assert.deepEqual(jsonProblems('[[error_mapping: {}]]\n').messages, [
    'A JSON adapter is one object: the text must start with {. (Is this YAML? Then name the file .adapter.yaml.)',
  ]);
  assert.deepEqual(jsonProblems('{ "a": 1 }\n[[---]]\n{ "b": 2 }\n').messages, [
    'Only one JSON value is allowed: remove what follows it (YAML documents do not exist in JSON).',
  ]);
  assert.deepEqual(jsonProblems('{ "a": [[01]], "b": [[+5]], "c": "x[[\\q]]" }').messages, [
    "'01' is not a JSON number (no leading zeros, '+', hex, or bare '.').",
    "'+5' is not a JSON number (no leading zeros, '+', hex, or bare '.').",
    "'\\q' is not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX).",
  ]);
  assert.deepEqual(jsonProblems('[[{]] "a": 1 ').messages, ["This '{' is never closed."]);
});

test('JSON files sniffed by "type": "adapter" are checked too; valid JSON and YAML files get no json.syntax', () => {
  assert.deepEqual(jsonProblems('{ "type": "adapter", "error_codes": {}[[,]] }', 'file:///w/shop.json').messages, [
    "JSON allows no comma before '}': remove it.",
  ]);
  const s = newService();
  assert.deepEqual(
    check(
      fixture(
        '{ "type": "adapter", "error_codes": { "VALIDATION_X": { "category": "VALIDATION", "message_template": "x \\u00e9 \\"q\\"" } } }',
        { uri: JSON_URI },
      ),
      'json.syntax',
      s,
    ).all,
    [],
  );
  assert.deepEqual(check(fixture('error_codes: { VALIDATION_X: { category: VALIDATION, }, }\n'), 'json.syntax', s).all, []);
});

test('deep nesting and hostile input never throw', () => {
  const s = newService();
  const deep = '{ "a": ' + '['.repeat(5000) + ']'.repeat(5000) + ' }';
  assert.doesNotThrow(() => s.validate(fixture(deep, { uri: JSON_URI }).doc));
  assert.doesNotThrow(() => s.validate(fixture('{ "a": "\\u12', { uri: JSON_URI }).doc));
});
