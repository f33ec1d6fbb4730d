// Which documents the client sends to the server (design s1). Pure: unit-tested, shared by both builds.

export const ADAPTER_PATTERNS = ['**/*-adapter.md', '**/*.adapter.{yaml,yml,json}', '**/*-adapter.{yaml,yml}'];
/** Recorded responses checked live against the adapters (verify); `.responses.json` and `.envelope.json` are JSON, covered anyway. */
export const RESPONSE_PATTERNS = ['**/*.responses.jsonl'];

/** Extensions the document selector covers whatever mcpAql.files says: a glob on these needs no restart. */
const COVERED = /\.(?:ya?ml|json|md)$/i;

/** The mcpAql.files patterns the broad selector does not cover (their documents are sent only if listed). */
export const uncoveredPatterns = (extra: readonly string[]): string[] => extra.filter(p => !COVERED.test(p)).sort();

type DocFilter = { scheme: string; language: string } | { scheme: string; pattern: string } | { language: string } | { pattern: string };

/** `schemes` 'any': the web extension, whose documents live in vscode-vfs:, vscode-test-web:, … */
export function documentSelector(extra: readonly string[], schemes: readonly string[] | 'any' = ['file']): DocFilter[] {
  // YAML, JSON and Markdown documents of any name: the server sniffs their content (or matches
  // mcpAql.files) and answers an empty list for files that are not adapters.
  if (schemes === 'any')
    return [...['yaml', 'json', 'markdown'].map(language => ({ language })), ...uncoveredPatterns(extra).map(pattern => ({ pattern }))];
  return [
    ...schemes.flatMap(scheme => ['yaml', 'json', 'markdown'].map(language => ({ scheme, language }))),
    { scheme: 'untitled', language: 'yaml' },
    { scheme: 'untitled', language: 'json' },
    ...schemes.flatMap(scheme => uncoveredPatterns(extra).map(pattern => ({ scheme, pattern }))),
  ];
}
