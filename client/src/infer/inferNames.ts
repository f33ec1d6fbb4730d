/** Where Infer Contract from Transcript… puts its adapter, and the name it gives it (pure: tested without VS Code). */

/** `probe.responses.jsonl` → `probe.responses.adapter.yaml`, beside it. */
export function adapterPathFor(transcript: string): string {
  return transcript.replace(/\.(?:jsonl|ndjson)$/i, '') + '.adapter.yaml';
}

/** `notes.a.jsonl` → `notes-a`: an adapter name (^[a-z][a-z0-9-]*$), or undefined. */
export function adapterNameFor(transcript: string): string | undefined {
  const base = transcript
    .replace(/^.*\//, '')
    .replace(/\.(?:jsonl|ndjson)$/i, '')
    .replace(/\.responses$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return /^[a-z][a-z0-9-]*$/.test(base) ? base : undefined;
}
