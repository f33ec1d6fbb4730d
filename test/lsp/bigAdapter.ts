/**
 * An adapter just over lsp/indexing.ts's INDEX_FROM_MODEL_AT, for the tests of a big opened document's filing:
 * generated NOT_FOUND entries BIG_CODE_0…, each four lines (`numbered`: the template and details also carry `n`).
 */
import { INDEX_FROM_MODEL_AT } from '../../server/src/lsp/indexing';

export function bigAdapter(numbered = false): string {
  const out = ['error_codes:'];
  let size = 0;
  for (let n = 0; size < INDEX_FROM_MODEL_AT + 4096; n++) {
    const entry = [
      `  BIG_CODE_${n}:`,
      '    category: NOT_FOUND',
      numbered ? '    message_template: "No item {id} here ({n})"' : '    message_template: "No item {id} here"',
      numbered ? '    details: { id: string, n: integer }' : '    details: { id: string }',
    ].join('\n');
    out.push(entry);
    size += entry.length + 1;
  }
  return `${out.join('\n')}\n`;
}
