/**
 * Deterministic generator of a monorepo of N realistic adapter files (md front matter, YAML, JSON;
 * 50–400 lines), in folders of 20: each declares its own codes (with details, templates, statuses,
 * some conditions) and maps statuses to its own codes, to registry codes (every file maps 403 to
 * PERMISSION_DENIED) and to a code declared in another file (with a template using its details). One file in
 * 20 (5 %, `isBroken`) has two deliberate problems (an unknown code, an unknown placeholder), so a check
 * must report exactly those: two per broken file.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CATS = ['NOT_FOUND', 'CONFLICT', 'VALIDATION'] as const;
/** In each category's range, and never claimed by error_mapping: clean files have no note at all. */
const STATUS: Record<string, number> = { NOT_FOUND: 404, CONFLICT: 409, VALIDATION: 422 };

/** A small deterministic PRNG (mulberry32), so every run generates the same files. */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const codeOf = (file: number, j: number) => `${CATS[j % CATS.length]}_SVC${file}_E${j}`;
export const kindOf = (i: number): 'md' | 'yaml' | 'json' => (i % 5 === 4 ? 'json' : i % 5 >= 2 ? 'yaml' : 'md');
export const pathOf = (i: number) =>
  `pkg${String(Math.floor(i / 20)).padStart(4, '0')}/svc${i}${kindOf(i) === 'md' ? '-adapter.md' : kindOf(i) === 'yaml' ? '.adapter.yaml' : '.adapter.json'}`;

interface Adapter {
  name: string;
  codes: Record<string, unknown>;
  mapping: Record<string, unknown>;
  operations: unknown[];
}

export function adapter(i: number, n: number, broken = false): Adapter {
  const r = rng(i + 1);
  const k = 3 + Math.floor(r() * 22);
  const codes: Record<string, unknown> = {};
  for (let j = 0; j < k; j++) {
    const cat = CATS[j % CATS.length]!;
    codes[codeOf(i, j)] = {
      category: cat,
      description: `Generated code ${j} of service ${i}`,
      message_template: `'{resource_id}' failed in '{operation}' (svc ${i}, case ${j})`,
      maps_from_http: [STATUS[cat]],
      ...(j % 4 === 1 ? { condition: `response.body.code == 'c${j}'` } : {}),
      details: { resource_id: 'string', operation: 'string' },
    };
  }
  const other = (i * 7919 + 13) % n;
  const mapping: Record<string, unknown> = {
    400: [
      { condition: "response.body.error == 'missing'", code: 'VALIDATION_MISSING_PARAM', message_template: "Missing '{param_name}'" },
      { condition: "response.body.error == 'own'", code: codeOf(i, 2) },
      {
        condition: "response.body.error == 'shared'",
        code: codeOf(other, 2),
        message_template: "Shared: '{resource_id}' in '{operation}'",
      },
      { code: 'VALIDATION_INVALID_TYPE' },
    ],
    403: { code: 'PERMISSION_DENIED' },
    429: { code: 'RATE_LIMIT_EXCEEDED' },
    '5XX': { code: 'INTERNAL_ERROR' },
  };
  if (broken) {
    mapping[410] = { code: 'NOT_FOUND_NOWHERE' };
    (codes[codeOf(i, 0)] as Record<string, unknown>).message_template = "'{resource_id}' gone in '{operation}' since {missing_key}";
  }
  const operations = Array.from({ length: 2 + Math.floor(r() * 6) }, (_, o) => ({
    name: `op_${o}`,
    maps_to: `GET /svc${i}/items/{id}/${o}`,
    params: { id: { type: 'string', required: true } },
  }));
  return { name: `svc${i}`, codes, mapping, operations };
}

function yamlOf(a: Adapter): string {
  const out = [
    `name: ${a.name}`,
    'type: adapter',
    'version: "1.0.0"',
    `description: "Generated adapter ${a.name}"`,
    'operations:',
    '  read:',
  ];
  for (const o of a.operations as { name: string; maps_to: string }[])
    out.push(`    - name: ${o.name}`, `      maps_to: "${o.maps_to}"`, '      params:', '        id: { type: string, required: true }');
  out.push('error_codes:');
  for (const [c, v] of Object.entries(a.codes) as [string, Record<string, unknown>][]) {
    out.push(
      `  ${c}:`,
      `    category: ${v.category}`,
      `    description: ${v.description}`,
      `    message_template: "${v.message_template}"`,
      `    maps_from_http: [${(v.maps_from_http as number[]).join(', ')}]`,
    );
    if (v.condition) out.push(`    condition: "${v.condition}"`);
    out.push('    details:', '      resource_id: string', '      operation: string');
  }
  out.push('error_mapping:');
  for (const [s, v] of Object.entries(a.mapping)) {
    out.push(`  ${/^\d+$/.test(s) ? s : `"${s}"`}:`);
    const list = Array.isArray(v) ? v : [v];
    if (!Array.isArray(v)) {
      out.push(`    code: ${(v as { code: string }).code}`);
      continue;
    }
    for (const e of list as Record<string, string>[]) {
      const keys = Object.entries(e);
      keys.forEach(([k, x], n) => out.push(`${n === 0 ? '    - ' : '      '}${k}: ${k === 'code' ? x : `"${x}"`}`));
    }
  }
  return out.join('\n') + '\n';
}

export function fileText(i: number, n: number, broken = false): string {
  const a = adapter(i, n, broken);
  const kind = kindOf(i);
  if (kind === 'json')
    return (
      JSON.stringify(
        {
          name: a.name,
          type: 'adapter',
          version: '1.0.0',
          operations: { read: a.operations },
          error_codes: a.codes,
          error_mapping: a.mapping,
        },
        null,
        2,
      ) + '\n'
    );
  const y = yamlOf(a);
  return kind === 'md' ? `---\n${y}---\n\n# ${a.name}\n\nGenerated adapter for the workspace benchmark.\n` : y;
}

/** Write N files under `dir` (emptied first); the broken files (`isBroken`) have the two deliberate problems. */
export function writeWorkspace(dir: string, n: number): { files: number; bytes: number } {
  rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const p = join(dir, pathOf(i));
    mkdirSync(join(p, '..'), { recursive: true });
    const text = fileText(i, n, isBroken(i));
    bytes += text.length;
    writeFileSync(p, text);
  }
  return { files: n, bytes };
}

/** The N files `writeWorkspace` writes, by relative path (for tests that add their own beside them). */
export function workspaceFiles(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[pathOf(i)] = fileText(i, n, isBroken(i));
  return files;
}

/** One file in 20 is broken: an unknown code (`NOT_FOUND_NOWHERE`, with "did you mean") and an unknown placeholder. */
export const isBroken = (i: number) => i % 20 === 10;
/** How many files of N are broken. */
export const brokenCount = (n: number) => Math.floor((n + 9) / 20);
/** A broken file near the middle (the server bench opens and edits it). */
export const brokenAt = (n: number) => Math.min(Math.floor(n / 40) * 20 + 10, n - 1);
