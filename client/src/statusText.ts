/** What the language status item says about the active adapter file. Pure: unit-tested. */
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
