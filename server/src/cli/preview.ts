/** `mcp-aql-errors preview` (design s5): envelopes for a code of a file. Filled in with the preview work. */
import { UsageError } from './files';
import type { Io } from './io';

export async function runPreview(_args: readonly string[], _io: Io): Promise<number> {
  throw new UsageError('preview: not available in this build yet');
}
