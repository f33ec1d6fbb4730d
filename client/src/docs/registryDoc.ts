/** A registry code as a read-only Markdown document (Show Error Registry). Pure: no vscode. */
import type { RegistryCode } from '../../../server/src/protocol';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function registryMarkdown(c: RegistryCode): string {
  const lines = [
    `# ${c.code}`,
    '',
    c.description,
    '',
    `- category: ${c.category}`,
    `- kind: ${c.kind} (${c.phase})`,
    `- HTTP: ${c.http_status.join(', ') || '—'}`,
    `- template: ${c.message_template ? '`' + c.message_template.replace(/`/g, "'") + '`' : '—'}`,
    '',
  ];
  const details = Object.entries(c.details ?? {});
  if (details.length)
    lines.push(
      '| details key | type | required |',
      '|---|---|---|',
      ...details.map(([k, d]) => `| ${cell(k)} | ${cell(String(d.type))} | ${d.required ? 'yes' : 'no'} |`),
      '',
    );
  else lines.push('No details.', '');
  if (c.recovery) lines.push(`**Client recovery:** ${c.recovery.text} (${c.recovery.source})`, '');
  return lines.join('\n');
}
