/** `mcp-aql-errors registry [--json]`: the registry as a table or as JSON. */
import type { Registry } from '../../service';
import { UsageError } from '../files';
import { jsonText } from '../format';
import { parseOptions } from '../options';
import type { Io } from '../io';

export function runRegistry(argv: readonly string[], io: Io, registry: Registry): number {
  const { options, plain } = parseOptions('registry', argv);
  if (plain.length) throw new UsageError(`registry: unknown argument '${plain[0]}'`);
  const json = options.some(([n]) => n === '--json');
  if (json) {
    io.stdout(jsonText(registry));
    return 0;
  }
  const rows = registry.codes.map(c => [c.code, c.category, c.kind, c.http_status.join(',') || '—', c.message_template ?? '—']);
  const head = ['CODE', 'CATEGORY', 'KIND', 'HTTP', 'TEMPLATE'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map(r => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  io.stdout([line(head), ...rows.map(line)].join('\n') + `\n\n${registry.codes.length} codes (MCP-AQL spec 1.0.0-draft).\n`);
  return 0;
}
