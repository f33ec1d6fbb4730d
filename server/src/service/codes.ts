/**
 * Every diagnostic code, defined once: default severity, the anchor of its row in the
 * diagnostics table of docs/rules.md, and a one-line summary. Messages are for humans; nothing branches on them.
 */

export const Code = {
  YamlSyntax: 'yaml.syntax',
  JsonSyntax: 'json.syntax',
  YamlDuplicateKey: 'yaml.duplicate-key',
  YamlAliasLimit: 'yaml.alias-limit',
  YamlDuplicateAnchor: 'yaml.duplicate-anchor',
  TextInvalidCharacter: 'text.invalid-character',
  FileTooLarge: 'file.too-large',
  FileTooDeep: 'file.too-deep',
  InternalRuleFailure: 'internal.rule-failure',
  SchemaType: 'schema.type',
  SchemaRequired: 'schema.required',
  SchemaUnknownKey: 'schema.unknown-key',
  SchemaEnum: 'schema.enum',
  CodeNameFormat: 'code.name-format',
  CodeUnknownCategory: 'code.unknown-category',
  CodeCategoryPrefix: 'code.category-prefix',
  CodeRedefinesRegistry: 'code.redefines-registry',
  CodeDeclaredElsewhere: 'code.declared-elsewhere',
  TemplateUnknownPlaceholder: 'template.unknown-placeholder',
  TemplateUnusedDetail: 'template.unused-detail',
  TemplateInvalidDetailName: 'template.invalid-detail-name',
  TemplateMalformedPlaceholder: 'template.malformed-placeholder',
  TemplateUnquotedPlaceholder: 'template.unquoted-placeholder',
  TemplateFlowMapping: 'template.flow-mapping',
  TemplateCommentCut: 'template.comment-cut',
  HttpInvalidStatus: 'http.invalid-status',
  HttpCategoryMismatch: 'http.category-mismatch',
  MappingUnknownCode: 'mapping.unknown-code',
  MappingWarningCode: 'mapping.warning-code',
  MappingUnreachableEntry: 'mapping.unreachable-entry',
  MappingPrecedence: 'mapping.precedence',
  MappingShadowedStatus: 'mapping.shadowed-status',
  ConditionSyntax: 'condition.syntax',
  ConditionUnknownRoot: 'condition.unknown-root',
  SuppressionUnused: 'suppression.unused',
  ConfigInvalid: 'config.invalid',
  VerifyJsonSyntax: 'verify.json-syntax',
  VerifyUnknownShape: 'verify.unknown-shape',
  VerifyEnvelopeShape: 'verify.envelope-shape',
  VerifyIsError: 'verify.is-error',
  VerifyJsonRpcCrosswalk: 'verify.json-rpc-crosswalk',
  VerifyUnknownCode: 'verify.unknown-code',
  VerifyWarningAsError: 'verify.warning-as-error',
  VerifyErrorAsWarning: 'verify.error-as-warning',
  VerifyMessageMismatch: 'verify.message-mismatch',
  VerifyMessageLocalized: 'verify.message-localized',
  VerifyMissingDetail: 'verify.missing-detail',
  VerifyDetailType: 'verify.detail-type',
  VerifyUndeclaredDetail: 'verify.undeclared-detail',
  VerifyRetryDelay: 'verify.retry-delay',
  RuntimeUnflaggedFailure: 'runtime.unflagged-failure',
  RuntimeAcceptedCall: 'runtime.accepted-call',
  RuntimeScenarioMismatch: 'runtime.scenario-mismatch',
  RuntimeProtocolError: 'runtime.protocol-error',
  RuntimeTextOnlyError: 'runtime.text-only-error',
  RuntimeWrongCategory: 'runtime.wrong-category',
  RuntimeNoAnswer: 'runtime.no-answer',
  RuntimeServerExited: 'runtime.server-exited',
  RuntimeReservedCode: 'runtime.reserved-code',
  RuntimeLegacyErrorCode: 'runtime.legacy-error-code',
  RuntimeUnknownToolCode: 'runtime.unknown-tool-code',
  RuntimeErrorOutputSchema: 'runtime.error-output-schema',
  RuntimeHttpStatus: 'runtime.http-status',
  RuntimeStreamNoAnswer: 'runtime.stream-no-answer',
  RuntimeMethodHeader: 'runtime.method-header',
  RuntimeSession: 'runtime.session',
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export type RuleLevel = 'off' | 'hint' | 'information' | 'warning' | 'error';

interface CodeInfo {
  readonly level: Exclude<RuleLevel, 'off'>;
  readonly summary: string;
  /** Tagged `Unnecessary` (rendered faded) when reported. */
  readonly unnecessary?: boolean;
}

export const codeInfo: Readonly<Record<Code, CodeInfo>> = {
  'yaml.syntax': { level: 'error', summary: 'YAML the parser rejects' },
  'json.syntax': {
    level: 'error',
    summary: 'a JSON adapter that is not strict JSON (trailing comma, comment, single quotes, unquoted key or value)',
  },
  'yaml.duplicate-key': { level: 'error', summary: 'a key twice in one mapping' },
  'yaml.alias-limit': { level: 'error', summary: 'alias expansion exceeds the budget (a YAML "billion laughs")' },
  'yaml.duplicate-anchor': { level: 'warning', summary: 'an anchor defined twice: the aliases after the second mean the second node' },
  'text.invalid-character': { level: 'error', summary: 'a lone surrogate, U+FFFD replacement character or control character in the text' },
  'file.too-large': { level: 'warning', summary: 'the file is larger than mcpAql.maxFileSize; it is not checked' },
  'file.too-deep': { level: 'error', summary: 'the file nests deeper than 256 levels; it is not parsed or checked' },
  'internal.rule-failure': { level: 'error', summary: 'a rule of ours failed on this file; the other rules still ran' },
  'schema.type': { level: 'error', summary: 'a value of the wrong type' },
  'schema.required': { level: 'error', summary: 'a required key is missing' },
  'schema.unknown-key': { level: 'warning', summary: 'a key our blocks do not define' },
  'schema.enum': { level: 'error', summary: 'a value outside the allowed list' },
  'code.name-format': { level: 'error', summary: 'code is not UPPER_SNAKE_CASE (^[A-Z][A-Z0-9_]*$)' },
  'code.unknown-category': { level: 'error', summary: 'category is not one of the registry categories' },
  'code.category-prefix': { level: 'warning', summary: 'code does not start with <CATEGORY>_' },
  'code.redefines-registry': { level: 'warning', summary: 'custom code reuses a registry code name' },
  'code.declared-elsewhere': {
    level: 'warning',
    summary:
      'a mapping uses a custom code it does not declare and two or more other files declare (which one it gets depends on file names)',
  },
  'template.unknown-placeholder': { level: 'error', summary: '{x} in a template is not a details key' },
  'template.unused-detail': { level: 'hint', summary: 'declared details key never used in the template', unnecessary: true },
  'template.invalid-detail-name': {
    level: 'information',
    summary: 'a details key no placeholder can name (durée_minutes, retry-after), unused in the template',
  },
  'template.malformed-placeholder': { level: 'error', summary: '{}, { x }, an unclosed { or another malformed placeholder' },
  'template.unquoted-placeholder': { level: 'information', summary: "string value not wrapped in single quotes ('{x}', spec s4.2)" },
  'template.flow-mapping': { level: 'error', summary: 'unquoted template starting with { was parsed as a mapping' },
  'template.comment-cut': {
    level: 'warning',
    summary: "an unquoted template cut at ' #' (`Rule #{n} is …`): YAML reads the rest of the line as a comment",
  },
  'http.invalid-status': { level: 'error', summary: 'HTTP status not in 100–599 nor a 4XX/5XX range' },
  'http.category-mismatch': { level: 'information', summary: "status outside the category's HTTP range (spec s3.2)" },
  'mapping.unknown-code': { level: 'error', summary: 'code neither in the registry nor declared in error_codes' },
  'mapping.warning-code': { level: 'error', summary: 'mapping targets a warning-only code' },
  'mapping.unreachable-entry': { level: 'warning', summary: 'an entry after an unconditional one for the same status' },
  'mapping.precedence': { level: 'information', summary: 'a status claimed by both error_mapping and some maps_from_http' },
  'mapping.shadowed-status': {
    level: 'warning',
    summary: 'a maps_from_http status never reached: an error_mapping entry for its 4XX/5XX range, without a condition, answers it first',
  },
  'condition.syntax': { level: 'error', summary: 'condition the parser cannot read' },
  'condition.unknown-root': { level: 'warning', summary: 'condition path root outside response.status/body/headers and params' },
  'suppression.unused': { level: 'warning', summary: 'a mcp-aql-disable-next-line comment that suppresses nothing', unnecessary: true },
  'config.invalid': { level: 'error', summary: 'a value the config file schema (schemas/config.schema.json) rejects' },
  'verify.json-syntax': { level: 'error', summary: 'a response file (or one JSON Lines record) that is not JSON' },
  'verify.unknown-shape': { level: 'warning', summary: 'a record that is no MCP-AQL envelope, MCP tool result or JSON-RPC response' },
  'verify.envelope-shape': { level: 'error', summary: 'an envelope of the wrong shape for its dialect' },
  'verify.is-error': { level: 'error', summary: 'a tool result whose isError contradicts its envelope (mcp-integration.md s4.1)' },
  'verify.json-rpc-crosswalk': {
    level: 'warning',
    summary: 'JSON-RPC error code, error_category or retry_capable not the crosswalk of the MCP-AQL code',
  },
  'verify.unknown-code': { level: 'error', summary: 'a response code neither declared by the adapters nor in the registry' },
  'verify.warning-as-error': { level: 'error', summary: 'a warning-only code sent as an error' },
  'verify.error-as-warning': { level: 'error', summary: 'an error code sent in warnings' },
  'verify.message-mismatch': { level: 'warning', summary: "a message that is not the code's template with the details substituted" },
  'verify.message-localized': {
    level: 'information',
    summary: 'a message that matches no template but keeps the details values (a translation?)',
  },
  'verify.missing-detail': { level: 'error', summary: 'a required details key is missing from a response' },
  'verify.detail-type': { level: 'error', summary: 'a details value of the wrong type, or outside its enum' },
  'verify.undeclared-detail': { level: 'warning', summary: 'a details key the code does not declare' },
  'verify.retry-delay': {
    level: 'warning',
    summary: 'a code declared retry-after-delay answered without its delay, or another retry answered with one',
  },
  'runtime.unflagged-failure': {
    level: 'error',
    summary: "a failed tools/call answered as a success: isError false with error text, or a probe's bad call accepted",
  },
  'runtime.accepted-call': {
    level: 'warning',
    summary:
      "a probe's call built to fail answered with a real success: a lenient server (a coerced value, a default), or input the tool should refuse",
  },
  'runtime.scenario-mismatch': {
    level: 'error',
    summary: 'a scenario of probe --scenarios answered otherwise than it expects: a success for a failure or back, another code or channel',
  },
  'runtime.protocol-error': {
    level: 'warning',
    summary: 'a listed tool answered a call with a JSON-RPC error instead of a tool error (isError true)',
  },
  'runtime.text-only-error': {
    level: 'information',
    summary: 'a tool error that is text only: no MCP-AQL envelope, no code a client can read',
  },
  'runtime.wrong-category': {
    level: 'error',
    summary: "a probe's bad call answered with a code of the wrong category (a missing parameter is VALIDATION)",
  },
  'runtime.no-answer': { level: 'error', summary: 'a probe call not answered within --timeout' },
  'runtime.server-exited': { level: 'error', summary: 'the server exited during a probe (a bad call crashed it)' },
  'runtime.reserved-code': {
    level: 'warning',
    summary: 'a JSON-RPC error code in the reserved range (-32768..-32000) that neither JSON-RPC nor the MCP revision defines',
  },
  'runtime.legacy-error-code': {
    level: 'warning',
    summary: 'a missing resource answered with -32002 by a 2026-07-28 server (SEP-2164: -32602 with data.uri)',
  },
  'runtime.unknown-tool-code': {
    level: 'warning',
    summary: 'an unknown tool answered with a JSON-RPC code other than -32602 (Invalid params); information unless -32603',
  },
  'runtime.error-output-schema': {
    level: 'warning',
    summary: "an isError result whose structuredContent fails the tool's outputSchema: a 1.x SDK client rejects it",
  },
  'runtime.http-status': {
    level: 'warning',
    summary: 'Streamable HTTP: an error status without a JSON-RPC error body, or a 2xx carrying an error 2026-07-28 sends with 400',
  },
  'runtime.stream-no-answer': {
    level: 'error',
    summary: 'Streamable HTTP: an SSE stream that ended without the answer to its request (an error not sent in-band)',
  },
  'runtime.method-header': {
    level: 'warning',
    summary: 'Streamable HTTP, 2026-07-28: a request with a missing or mismatched Mcp-Method header accepted',
  },
  'runtime.session': { level: 'hint', summary: "the protocol revision and era a probe's session negotiated (not a problem)" },
};

/* ---- Payloads: what each code carries in Diagnostic.data (conventions C6), declared once. ---- */

/** Where a template's entry is, to find it again: the entry's key (error_codes) or status key (error_mapping) offset. */
export interface EntryRef {
  readonly entryAt: number;
  readonly entryKind: 'code' | 'mapping';
  readonly index: number | null;
}
export interface UnknownPlaceholderData extends EntryRef {
  readonly key: string;
  readonly visible: readonly string[];
  readonly suggestions: readonly string[];
  /** The key is a parameter of some operation: declaring it is the likely fix. */
  readonly param?: { readonly operation: string; readonly type?: string };
  /** The one suggestion is the entry's one unused details key that the name is part of (`{ticket}`, `ticket_id`): the likely fix. */
  readonly unusedKey?: true;
}
export interface UnusedDetailData extends EntryRef {
  readonly key: string;
}
export interface InvalidDetailNameData extends EntryRef {
  readonly key: string;
  /** The nearest name a placeholder can take (`duree_minutes`, `retry_after`). */
  readonly suggestion: string;
}
export interface UnquotedData {
  readonly key: string;
}
export interface UnknownCodeData {
  readonly code: string;
  readonly suggestions: readonly string[];
  /** Status key offset and list index of the entry, to find it again. */
  readonly entryAt: number;
  readonly index: number | null;
}
export interface UnknownKeyData {
  readonly key: string;
  readonly allowed: readonly string[];
  readonly suggestions: readonly string[];
}
export interface EnumData {
  readonly value: unknown;
  readonly allowed: readonly unknown[];
  readonly suggestions: readonly string[];
}
export interface NameFormatData {
  readonly name: string;
  readonly suggestion: string;
}
export interface UnknownCategoryData {
  readonly value: string;
  readonly suggestions: readonly string[];
}
export interface CategoryPrefixData {
  readonly name: string;
  readonly category: string;
  readonly renameTo: string;
  readonly prefixCategory?: string;
}
/** A details key of a recorded response and the code it belongs to. */
interface VerifyDetailData {
  readonly code: string;
  readonly key: string;
}
export interface UnknownRootData {
  readonly root: string;
  readonly suggestions: readonly string[];
}

/** The payload of every code that carries one; a code missing here carries none. */
export interface Payloads {
  'yaml.syntax': { readonly yamlCode: string };
  'json.syntax': { readonly yamlCode: string };
  'yaml.duplicate-key': { readonly key: string; readonly firstAt: number };
  'yaml.alias-limit': { readonly alias: string; readonly expanded: number; readonly total: number; readonly budget: number };
  'text.invalid-character': { readonly codePoint: number };
  'file.too-large': { readonly size: number; readonly max: number };
  'file.too-deep': { readonly limit: number };
  'internal.rule-failure': { readonly rule: string };
  'schema.required': { readonly missing: string };
  /** A value written as a boolean YAML 1.2 reads as a string (`rewrite`: 'true' / 'false'), or a mapping's bare code ('code'). */
  'schema.type': { readonly rewrite: 'true' | 'false' | 'code' };
  'schema.unknown-key': UnknownKeyData;
  'schema.enum': EnumData;
  'code.name-format': NameFormatData;
  'code.unknown-category': UnknownCategoryData;
  'code.category-prefix': CategoryPrefixData;
  'template.unknown-placeholder': UnknownPlaceholderData;
  'template.unused-detail': UnusedDetailData;
  'template.invalid-detail-name': InvalidDetailNameData;
  'template.unquoted-placeholder': UnquotedData;
  'template.flow-mapping': EntryRef;
  'template.comment-cut': EntryRef;
  'mapping.unknown-code': UnknownCodeData;
  /** The code whose maps_from_http holds the status, and the status as written. */
  'mapping.shadowed-status': { readonly code: string; readonly status: string };
  'condition.unknown-root': UnknownRootData;
  'verify.unknown-code': { readonly code: string; readonly suggestions: readonly string[] };
  'verify.is-error': { readonly expected: boolean };
  'verify.message-mismatch': { readonly code: string; /** 1-based, in the message */ readonly column: number; readonly template: string };
  'verify.missing-detail': VerifyDetailData;
  'verify.undeclared-detail': VerifyDetailData;
  'verify.detail-type': VerifyDetailData;
}
export type PayloadOf<C extends Code> = C extends keyof Payloads ? Payloads[C] : undefined;

export const allCodes: readonly Code[] = Object.values(Code);
export const SOURCE = 'mcp-aql';
const RULES_URL = 'https://github.com/mcp-aql/mcp-aql-errors/blob/main/docs/rules.md';

/** The anchor (`<a id="yaml-syntax">`) on the code's row of the diagnostics table in docs/rules.md. */
export const docsAnchor = (c: Code): string => c.replace(/[^a-z0-9]+/g, '-');
export const docsHref = (c: Code): string => `${RULES_URL}#${docsAnchor(c)}`;
/** An own key of codeInfo: `constructor`, `toString` or `__proto__` are not codes. */
export const isCode = (s: unknown): s is Code => typeof s === 'string' && Object.hasOwn(codeInfo, s);
