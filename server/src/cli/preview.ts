// `mcp-aql-errors preview` (design s5). TODO(owner: envelopes): implement.
export async function runPreview(_args: readonly string[]): Promise<number> {
  process.stderr.write('preview: not implemented yet\n');
  return 2;
}
