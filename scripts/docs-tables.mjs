// Regenerates the README's settings table from package.json (contributes.configuration), so it cannot
// drift. `node scripts/docs-tables.mjs` writes README.md; `--check` exits 1 when README.md is stale.
import { readFileSync, writeFileSync } from 'node:fs';

export function settingsTable(pkg) {
  const props = pkg.contributes.configuration.properties;
  const rows = Object.entries(props).map(([name, p]) => {
    const type = p.enum ? p.enum.map(v => `\`${v}\``).join(' \\| ') : p.type === 'array' ? `${p.items?.type ?? 'any'}[]` : p.type;
    return `| \`${name}\` | ${type} | \`${JSON.stringify(p.default)}\` | ${p.scope ?? 'window'} | ${(p.markdownDescription ?? p.description ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`;
  });
  return ['| setting | type | default | scope | description |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function withTable(readme, table) {
  return readme.replace(/<!-- settings:start -->[\s\S]*?<!-- settings:end -->/, `<!-- settings:start -->\n${table}\n<!-- settings:end -->`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const readme = readFileSync('README.md', 'utf8');
  const next = withTable(readme, settingsTable(pkg));
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error('README.md settings table is stale: run node scripts/docs-tables.mjs');
      process.exit(1);
    }
  } else writeFileSync('README.md', next);
}
