/**
 * The rule documentation bundled in the .vsix, as Markdown for the editor: a rule's row of the
 * diagnostics table in docs/rules.md, and its in-depth section of docs/diagnostics-*.md when there is one.
 * Pure (strings in, strings out): no vscode, so it is unit-tested and shared by both builds.
 */

export const DOCS_SCHEME = 'mcp-aql-docs';
/**
 * The Markdown files (relative to the extension) that hold the rule documentation: the table first.
 * Files of their own, never the README: vsce stores the README as `readme.md`, so on a case-sensitive
 * file system (Linux, the web build, code-server) `README.md` is not there in an installed copy.
 */
export const RULE_DOC_FILES = ['docs/rules.md', 'docs/diagnostics-templates.md'];

/** A `command:` link that runs mcpAql.explainRule on one code (VS Code opens code links with commands allowed). */
export const explainCommandUri = (code: string): string => `command:mcpAql.explainRule?${encodeURIComponent(JSON.stringify([code]))}`;

interface RuleRow {
  readonly code: string;
  readonly level: string;
  readonly meaning: string;
  readonly fixes: string;
}

/** Split a Markdown table row on unescaped `|`. */
function cells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '\\' && line[i + 1] === '|') {
      cur += '|';
      i++;
      continue;
    }
    if (ch === '|') {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur.trim());
  return out.slice(1, -1);
}

/** Every rule row of the diagnostics table (docs/rules.md) (rows that start with `<a id=…></a>` and a code). */
export function ruleRows(table: string): RuleRow[] {
  const rows: RuleRow[] = [];
  for (const line of table.split(/\r?\n/)) {
    const m = /^\|\s*<a id="[^"]*"><\/a>`([a-z]+\.[a-z0-9-]+)`/.exec(line);
    if (!m) continue;
    const c = cells(line);
    rows.push({ code: m[1]!, level: c[1] ?? '', meaning: c[2] ?? '', fixes: c[3] ?? '' });
  }
  return rows;
}

/** The `### \`code\`` section of a doc (up to the next heading of level 1–3), headings shifted one level down. */
export function ruleSection(doc: string, code: string): string | undefined {
  const lines = doc.split(/\r?\n/);
  const start = lines.findIndex(l => new RegExp(`^#{2,4}\\s+\`${code.replace(/[.]/g, '\\.')}\``).test(l));
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && !/^#{1,3}\s/.test(lines[end]!)) end++;
  return lines
    .slice(start + 1, end)
    .join('\n')
    .trim();
}

/** The document shown by "Explain rule": title, default level, meaning, fixes, the in-depth section. */
export function ruleMarkdown(code: string, table: string, deepDocs: readonly string[] = []): string {
  const row = ruleRows(table).find(r => r.code === code);
  if (!row)
    return `# \`${code}\`\n\nNo documentation is bundled for this code. It is not one of the codes this version of MCP-AQL Error Contracts reports.\n`;
  const out = [
    `# \`${code}\``,
    '',
    `Default level: **${row.level}** (change it per code with the setting \`mcpAql.rules\`).`,
    '',
    row.meaning,
    '',
  ];
  out.push(
    row.fixes && row.fixes !== '–' && row.fixes !== '-'
      ? `**Quick fixes:** ${row.fixes}`
      : '**Quick fixes:** none — the fix needs a decision only the author can make.',
    '',
  );
  for (const d of deepDocs) {
    const s = ruleSection(d, code);
    if (s) {
      out.push('## In depth', '', s, '');
      break;
    }
  }
  out.push('---', '', `In YAML, silence it on one line with a comment \`# mcp-aql-disable-next-line ${code}\` on the line before.`, '');
  return out.join('\n');
}

/** `mcp-aql-docs:/rules/<code>.md` ↔ code. */
export const ruleDocPath = (code: string): string => `/rules/${code}.md`;
export const registryDocPath = (code: string): string => `/registry/${code}.md`;
export function parseDocPath(path: string): { kind: 'rule' | 'registry'; name: string } | undefined {
  const m = /^\/(rules|registry)\/([A-Za-z0-9_.-]+)\.md$/.exec(path);
  return m ? { kind: m[1] === 'rules' ? 'rule' : 'registry', name: m[2]! } : undefined;
}
