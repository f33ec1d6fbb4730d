/** What the language status item and Validate Workspace say, in words ("1 problem", "2 problems"). Pure: unit-tested. */
export interface Counts {
  readonly errors: number;
  readonly warnings: number;
  readonly other: number;
}

const n = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;

export function statusText(c: Counts): { text: string; detail: string; severity: 'information' | 'warning' | 'error' } {
  if (c.errors + c.warnings + c.other === 0)
    return { text: '$(check) MCP-AQL: no problems', detail: 'error contract checked', severity: 'information' };
  const parts = [
    c.errors ? n(c.errors, 'error') : '',
    c.warnings ? n(c.warnings, 'warning') : '',
    c.other ? `${c.other} info/hint` : '',
  ].filter(Boolean);
  return {
    text: `${c.errors ? '$(error)' : c.warnings ? '$(warning)' : '$(info)'} MCP-AQL: ${parts.join(', ')}`,
    detail: 'in this adapter file',
    severity: c.errors ? 'error' : c.warnings ? 'warning' : 'information',
  };
}

/** Validate Workspace's message: `MCP-AQL: 2 problems in 1 of 3 adapter files.` */
export function workspaceSummary(r: {
  readonly files: number;
  readonly problems: readonly { readonly diagnostics: readonly unknown[] }[];
  readonly cancelled?: boolean;
}): string {
  const total = r.problems.reduce((k, p) => k + p.diagnostics.length, 0);
  const cancelled = r.cancelled ? ' Cancelled: not every file was checked.' : '';
  if (!total) return `MCP-AQL: no problems in ${n(r.files, 'adapter file')}.${cancelled}`;
  return `MCP-AQL: ${n(total, 'problem')} in ${r.problems.length} of ${n(r.files, 'adapter file')}.${cancelled}`;
}
