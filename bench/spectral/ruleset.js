/**
 * A Spectral ruleset doing the core checks of `mcp-aql-errors check`, for `npm run bench` (docs/performance.md):
 * the same workspace, checked side by side (bench/spectralBench.ts runs @stoplight/spectral-cli, pinned
 * there, installed under bench/work/). Never part of the tests.
 *
 * - mcp-aql-schema: the document against bench/error-blocks.schema.json (the schema yaml-language-server
 *   gets in the one-file bench), with Spectral's own `schema` function.
 * - mcp-aql-unknown-code: an error_mapping code declared neither in this file, nor in the registry, nor in
 *   another file of the workspace; "did you mean" over every known name (edit distance within a third
 *   of the name), as ours says.
 * - mcp-aql-unknown-placeholder: a `{name}` of a message_template that the details it sees do not declare
 *   (its own code's, or for a mapping entry its own `details` plus its code's: this file, the registry,
 *   another file).
 *
 * Other files: on the first document, the workspace (MCP_AQL_WS, else the working directory) is read
 * and every adapter parsed once with `yaml` (what any cross-file rule in Spectral has to do itself);
 * the registry is MCP_AQL_ROOT/schemas/error-registry.json.
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { parse } = require('yaml');
const { schema } = require('@stoplight/spectral-functions');

const ROOT = process.env.MCP_AQL_ROOT || process.cwd();
const registry = JSON.parse(readFileSync(join(ROOT, 'schemas', 'error-registry.json'), 'utf8'));
const blocksSchema = JSON.parse(readFileSync(join(ROOT, 'bench', 'error-blocks.schema.json'), 'utf8'));
const ADAPTER = /(-adapter\.md|\.adapter\.ya?ml|\.adapter\.json)$/;

/** Code name → details keys, for the registry and every adapter of the workspace (read once). */
let known;
function workspace() {
  if (known) return known;
  known = new Map();
  for (const c of registry.codes) if (c.kind !== 'warning') known.set(c.code, Object.keys(c.details || {}));
  for (const [code, aliases] of Object.entries(registry.template_aliases || {}))
    if (known.has(code)) known.set(code, [...known.get(code), ...Object.keys(aliases)]);
  const walk = dir => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (ADAPTER.test(e.name)) {
        let text = readFileSync(p, 'utf8');
        if (p.endsWith('.md')) text = text.slice(4, text.indexOf('\n---', 4) + 1);
        let doc;
        try {
          doc = parse(text);
        } catch {
          continue;
        }
        for (const [code, def] of Object.entries((doc && doc.error_codes) || {}))
          if (!known.has(code)) known.set(code, Object.keys((def && def.details) || {}));
      }
    }
  };
  walk(process.env.MCP_AQL_WS || process.cwd());
  return known;
}

function distance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

function suggest(word, names) {
  const max = Math.max(2, Math.floor(word.length / 3));
  const w = word.toLowerCase();
  return names
    .map(n => [n, distance(w, n.toLowerCase(), max)])
    .filter(([, d]) => d <= max)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([n]) => n);
}

const entriesOf = mapping =>
  Object.entries(mapping || {}).flatMap(([status, v]) =>
    (Array.isArray(v) ? v : [v]).map((e, i) => ({ status, i, e, list: Array.isArray(v) })),
  );
const placeholders = t => [...String(t).matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map(m => m[1]);

function unknownCode(doc) {
  const own = (doc && doc.error_codes) || {};
  const out = [];
  for (const { status, i, e, list } of entriesOf(doc && doc.error_mapping)) {
    const code = e && e.code;
    if (typeof code !== 'string' || Object.prototype.hasOwnProperty.call(own, code) || workspace().has(code)) continue;
    const near = suggest(code, [...new Set([...Object.keys(own), ...workspace().keys()])]);
    out.push({
      message: `'${code}' is neither a registry code nor declared in error_codes${near.length ? `. Did you mean ${near[0]}?` : '.'}`,
      path: ['error_mapping', status, ...(list ? [i] : []), 'code'],
    });
  }
  return out;
}

function unknownPlaceholder(doc) {
  const own = (doc && doc.error_codes) || {};
  const out = [];
  for (const [code, def] of Object.entries(own)) {
    const keys = new Set(Object.keys((def && def.details) || {}));
    for (const p of placeholders((def && def.message_template) || ''))
      if (!keys.has(p)) out.push({ message: `{${p}} is not a details key of ${code}`, path: ['error_codes', code, 'message_template'] });
  }
  for (const { status, i, e, list } of entriesOf(doc && doc.error_mapping)) {
    if (!e || typeof e.message_template !== 'string') continue;
    const code = e.code;
    const seen = Object.prototype.hasOwnProperty.call(own, code)
      ? Object.keys((own[code] && own[code].details) || {})
      : workspace().get(code);
    if (!seen) continue;
    const keys = new Set([...seen, ...Object.keys(e.details || {})]);
    for (const p of placeholders(e.message_template))
      if (!keys.has(p))
        out.push({
          message: `{${p}} is not a details key of ${code}`,
          path: ['error_mapping', status, ...(list ? [i] : []), 'message_template'],
        });
  }
  return out;
}

module.exports = {
  rules: {
    'mcp-aql-schema': { given: '$', severity: 'error', then: { function: schema, functionOptions: { schema: blocksSchema } } },
    'mcp-aql-unknown-code': { given: '$', severity: 'error', then: { function: unknownCode } },
    'mcp-aql-unknown-placeholder': { given: '$', severity: 'error', then: { function: unknownPlaceholder } },
  },
};
