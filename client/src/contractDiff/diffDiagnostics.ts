/**
 * Compare Contract (docs/contract-diff.md), the pure part: which diagnostics the report puts in the editor (each
 * breaking change, on the range in the workspace file that made it), the revision asked for, and the
 * read-only document's address. No `vscode` here, so test/client runs it in plain Node.
 */
import type { CompareContractResult } from '../../../server/src/protocol';

export const DIFF_SCHEME = 'mcp-aql-diff';

export interface DiffDiagnostic {
  readonly range: { start: { line: number; character: number }; end: { line: number; character: number } };
  readonly message: string;
  /** The change's rule id (`code.removed`). */
  readonly code: string;
}

/** Breaking changes with a place, grouped by file (in report order). */
export function breakingByFile(result: CompareContractResult): Map<string, DiffDiagnostic[]> {
  const out = new Map<string, DiffDiagnostic[]>();
  for (const c of result.changes) {
    if (c.severity !== 'breaking' || !c.uri || !c.range) continue;
    let list = out.get(c.uri);
    if (!list) out.set(c.uri, (list = []));
    list.push({ range: c.range, message: `Breaking change since ${result.title.split(' → ')[0]}: ${c.message}`, code: c.rule });
  }
  return out;
}

/** The revision typed in the input box: trimmed; empty means HEAD; one that git could read as an option is refused. */
export function revisionOf(input: string | undefined): { revision: string } | { error: string } | undefined {
  if (input === undefined) return undefined;
  const revision = input.trim() || 'HEAD';
  if (revision.startsWith('-') || /\s/.test(revision)) return { error: `'${revision}' is not a git revision` };
  return { revision };
}

/** The read-only report document for a revision (one per revision; asking again refreshes it). */
export const reportPath = (revision: string): string => `/contract-diff-${encodeURIComponent(revision)}.md`;
