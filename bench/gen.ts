/**
 * Deterministic generator of adapter files with N custom codes (about five lines each, with details,
 * templates, maps_from_http, some conditions) and an error_mapping list of up to 50 entries. The last
 * code is deliberately invalid (unknown category, status 999), so a server's first diagnostics must hold
 * exactly those two problems: proof that validation ran.
 */
export const CATEGORY_LINE = '    category: VALIDATION';

export function codeName(i: number): string {
  return `VALIDATION_E${String(i).padStart(6, '0')}`;
}

export function generate(n: number): string {
  const out: string[] = [
    'name: bench',
    'type: adapter',
    'version: "1.0.0"',
    'description: "Generated adapter for benchmarks"',
    'error_codes:',
  ];
  for (let i = 0; i < n - 1; i++) {
    out.push(
      `  ${codeName(i)}:`,
      CATEGORY_LINE,
      `    message_template: "Request '{resource_id}' failed during '{operation}' (entry ${i})"`,
      i % 10 === 0 ? `    maps_from_http: [422]\n    condition: "response.body.code == 'e${i}'"` : '    maps_from_http: [422]',
      '    details: { resource_id: string, operation: string }',
    );
  }
  out.push(
    `  ${codeName(n - 1)}:`,
    '    category: BOGUS',
    `    message_template: "Broken '{resource_id}'"`,
    '    maps_from_http: [999]',
    '    details: { resource_id: string }',
  );
  out.push('error_mapping:', '  400:');
  const m = Math.min(50, n - 1);
  for (let i = 0; i < m; i++) out.push(`    - condition: "response.body.code == 'm${i}'"`, `      code: ${codeName(i)}`);
  return out.join('\n') + '\n';
}

/** Offsets of the one-character edits: inside the templates of the first, middle and last valid entries. */
export function editOffsets(text: string, n: number): number[] {
  return [0, Math.floor(n / 2), n - 2].map(i => text.indexOf(`(entry ${i})`) + 1);
}

export function positionOf(text: string, offset: number): { line: number; character: number } {
  let line = 0,
    last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, character: offset - last - 1 };
}
