/**
 * The extension's settings, defined once. package.json `contributes.configuration.properties` must
 * equal SETTINGS (test/cli/settings.test.ts); the README table is generated from package.json
 * (scripts/docs-tables.mjs); the language server normalizes with `normalizeSettings`; the client
 * reads keys through `SETTING`. Pure data: imported by the client, the server and the tests.
 */

export const RULE_LEVELS = ['off', 'hint', 'information', 'warning', 'error'] as const;
type SettingRuleLevel = (typeof RULE_LEVELS)[number];

/** Default of `mcpAql.maxFileSize`: 4.5 MiB. */
export const DEFAULT_MAX_FILE_SIZE = 4718592;
/** The most `mcpAql.maxFileSize` can be (16 MiB): a checkout's settings cannot lift it without bound. */
export const MAX_FILE_SIZE_CEILING = 16777216;

export const SETTINGS = {
  'mcpAql.files': {
    type: 'array',
    items: { type: 'string' },
    default: [] as string[],
    scope: 'resource',
    markdownDescription:
      'Extra glob patterns of adapter files, added to `*-adapter.md`, `*.adapter.{yaml,yml,json}`, `*-adapter.{yaml,yml}` and YAML files whose top level has `error_codes`, `error_mapping` or `type: adapter`. Takes effect at once (no restart).',
  },
  'mcpAql.responseFiles': {
    type: 'array',
    items: { type: 'string' },
    default: [] as string[],
    scope: 'resource',
    markdownDescription:
      "Extra glob patterns of recorded-response files, added to `*.responses.jsonl`, `*.responses.json` and `*.envelope.json`: they are checked live against the workspace's adapters (`verify`).",
  },
  'mcpAql.rules': {
    type: 'object',
    default: {} as Record<string, SettingRuleLevel>,
    scope: 'resource',
    markdownDescription:
      'Severity per diagnostic code, like ESLint rule levels: `{ "template.unquoted-placeholder": "off", "http.category-mismatch": "hint" }`. Levels: `off`, `hint`, `information`, `warning`, `error`.',
    additionalProperties: { type: 'string', enum: [...RULE_LEVELS] },
  },
  'mcpAql.codeScope': {
    type: 'string',
    enum: ['workspace', 'folder', 'file'],
    enumDescriptions: [
      'A code declared in any adapter file of the workspace is known in every other one (default).',
      'Only codes declared in files of the same directory are known.',
      "Only the file's own codes (and the registry's) are known.",
    ],
    default: 'workspace',
    scope: 'resource',
    markdownDescription:
      "Which other files' `error_codes` satisfy a `code:` of `error_mapping`. Registry codes are always known; a redefinition of a registry code never leaks into other files. Hover and completion say which file a code from another file comes from.",
  },
  'mcpAql.maxFileSize': {
    type: 'number',
    default: DEFAULT_MAX_FILE_SIZE,
    minimum: 1024,
    maximum: MAX_FILE_SIZE_CEILING,
    scope: 'resource',
    markdownDescription:
      'Files longer than this many characters (default 4.5 MiB, about 22,000 custom codes; at most 16 MiB) get one `file.too-large` diagnostic and are not checked, so a huge file never stalls the editor.',
  },
  'mcpAql.codeLens.enabled': {
    type: 'boolean',
    default: true,
    scope: 'resource',
    markdownDescription:
      'Show the CodeLens above each error code (preview, references). Turn it off to keep the editor quiet; the preview stays one command away.',
  },
  'mcpAql.trace.server': {
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    scope: 'window',
    markdownDescription: 'Traces the communication between VS Code and the MCP-AQL language server to the output channel.',
  },
} as const;

export type SettingKey = keyof typeof SETTINGS;
type SettingCodeScope = (typeof SETTINGS)['mcpAql.codeScope']['enum'][number];

/** The `mcpAql` section as the server uses it (what `workspace/configuration` returns, normalized). */
export interface Settings {
  readonly files: string[];
  readonly responseFiles: string[];
  readonly rules: Record<string, SettingRuleLevel>;
  readonly codeScope: SettingCodeScope;
  readonly maxFileSize: number;
  readonly codeLens: { readonly enabled: boolean };
}

export const DEFAULT_SETTINGS: Settings = {
  files: SETTINGS['mcpAql.files'].default,
  responseFiles: SETTINGS['mcpAql.responseFiles'].default,
  rules: SETTINGS['mcpAql.rules'].default,
  codeScope: SETTINGS['mcpAql.codeScope'].default,
  maxFileSize: SETTINGS['mcpAql.maxFileSize'].default,
  codeLens: { enabled: SETTINGS['mcpAql.codeLens.enabled'].default },
};

const LEVELS: ReadonlySet<string> = new Set(RULE_LEVELS);
const SCOPES: ReadonlySet<string> = new Set(SETTINGS['mcpAql.codeScope'].enum);

interface NormalizeOptions {
  /** Why a glob is invalid, or undefined when it is fine (the service's globError). */
  readonly globError?: (glob: string) => string | undefined;
  /** Told about each invalid glob in `files` or `responseFiles`, which is left out. */
  readonly onBadGlob?: (glob: string, why: string) => void;
}

/** Any value (a client's answer, pushed settings) → Settings; what is missing or malformed takes its default. */
export function normalizeSettings(raw: unknown, o: NormalizeOptions = {}): Settings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const globs = (v: unknown) =>
    Array.isArray(v)
      ? v.filter((x): x is string => {
          if (typeof x !== 'string') return false;
          const why = o.globError?.(x);
          if (why) o.onBadGlob?.(x, why);
          return !why;
        })
      : [];
  const rules: Record<string, SettingRuleLevel> = {};
  if (r.rules && typeof r.rules === 'object') {
    for (const [k, v] of Object.entries(r.rules as Record<string, unknown>))
      if (typeof v === 'string' && LEVELS.has(v)) rules[k] = v as SettingRuleLevel;
  }
  // Above the ceiling (workspace settings come with the checkout): the ceiling.
  const maxFileSize =
    typeof r.maxFileSize === 'number' && r.maxFileSize > 0 ? Math.min(r.maxFileSize, MAX_FILE_SIZE_CEILING) : DEFAULT_SETTINGS.maxFileSize;
  const codeScope =
    typeof r.codeScope === 'string' && SCOPES.has(r.codeScope) ? (r.codeScope as SettingCodeScope) : DEFAULT_SETTINGS.codeScope;
  const lens = r.codeLens && typeof r.codeLens === 'object' ? (r.codeLens as Record<string, unknown>).enabled : undefined;
  return {
    files: globs(r.files),
    responseFiles: globs(r.responseFiles),
    rules,
    codeScope,
    maxFileSize,
    codeLens: { enabled: typeof lens === 'boolean' ? lens : DEFAULT_SETTINGS.codeLens.enabled },
  };
}
