/** Generated hostile adapter texts, shared by the service, CLI and LSP tests. */
import { yamlDoc } from './helpers';

/** `error_codes` with n anchors, each merging the (up to) three before it and adding its own description. */
export function fanOut(n: number): string {
  const lines = ['error_codes:', '  NOT_FOUND_A0: &a0 {category: NOT_FOUND, message_template: "x", details: {k: string}}'];
  for (let i = 1; i < n; i++) {
    const from = Array.from({ length: Math.min(3, i) }, (_, j) => `*a${i - Math.min(3, i) + j}`).join(', ');
    lines.push(`  NOT_FOUND_A${i}: &a${i}`, `    <<: [${from}]`, `    description: d${i}`);
  }
  return yamlDoc(...lines);
}

export const DEEP_SHAPES = [
  'json-array',
  'json-object',
  'yaml-flow',
  'yaml-block-map',
  'yaml-block-seq',
  'yaml-compact-seq',
  'yaml-map-seq',
] as const;
export type DeepShape = (typeof DEEP_SHAPES)[number];

/**
 * A valid adapter whose `x-deep` value nests so that the deepest collection is `depth` levels down
 * (the root mapping is level 1), and the offset of its first collection at level `depth` (the one a
 * limit of `depth - 1` refuses).
 */
export function deepAdapter(shape: DeepShape, depth: number): { text: string; firstPast: number; ext: 'json' | 'yaml' } {
  const n = depth - 3; // root, error_codes, the code
  if (shape === 'json-array' || shape === 'json-object') {
    const head = '{"error_codes": {"NOT_FOUND_X": {"category": "NOT_FOUND", "message_template": "x", "x-deep": ';
    const open = shape === 'json-array' ? '[' : '{"a": ';
    const text = head + open.repeat(n) + (shape === 'json-array' ? ']'.repeat(n) : '1' + '}'.repeat(n)) + '}}}\n';
    return { text, firstPast: head.length + open.length * (n - 1), ext: 'json' };
  }
  const head = yamlDoc('error_codes:', '  NOT_FOUND_X:', '    category: NOT_FOUND', '    message_template: x');
  if (shape === 'yaml-flow') {
    const line = '    x-deep: ';
    return { text: head + line + '['.repeat(n) + ']'.repeat(n) + '\n', firstPast: head.length + line.length + n - 1, ext: 'yaml' };
  }
  if (shape === 'yaml-compact-seq') {
    const line = '    x-deep:\n      ';
    return { text: head + line + '- '.repeat(n) + 'x\n', firstPast: head.length + line.length + 2 * (n - 1), ext: 'yaml' };
  }
  // One line per level; the line of level `depth` starts the collection past a limit of depth - 1.
  let text = head + '    x-deep:\n';
  let firstPast = -1;
  let indent = 0;
  for (let level = 1; level <= n; level++) {
    // yaml-map-seq: a mapping, then a sequence at its key's indentation, then a mapping inside the item, …
    indent = shape === 'yaml-map-seq' ? 6 + 2 * Math.floor((level - 1) / 2) : 4 + 2 * level;
    const item = shape === 'yaml-block-map' ? 'k:' : shape === 'yaml-block-seq' ? '-' : level % 2 ? 'k:' : '-';
    if (level === n) firstPast = text.length + indent;
    text += ' '.repeat(indent) + item + '\n';
  }
  return { text: text + ' '.repeat(indent + 2) + 'x\n', firstPast, ext: 'yaml' };
}
