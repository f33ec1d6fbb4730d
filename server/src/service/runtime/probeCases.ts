/**
 * The probe's plan (docs/cli.md, "probe"): from a server's `tools/list` answer (and the operations an
 * adapter declares), the calls that must fail by construction — a missing required parameter, a
 * wrong type, a value outside an enum, an unknown tool, an unknown operation, which the schema check
 * in front of a tool answers — and calls that pass the schema and name what cannot exist
 * (missingTarget.ts), which the tool's own code answers. Calls go only to tools that cannot write (MCP
 * `readOnlyHint`, or an adapter's read operation; never guessed from a name), unless the server runs in
 * the sandbox (every tool) or writes are allowed: then a tool that may write gets only calls whose
 * other parameters are left out, so none can take effect.
 */
import { missingValue, type TargetKind } from './missingTarget';

export type ProbeKind = 'missing-required' | 'wrong-type' | 'bad-enum' | 'unknown-tool' | 'unknown-operation' | 'not-found' | 'scenario';

export interface ProbeCase {
  readonly kind: ProbeKind;
  /** "a missing required parameter 'path'": how the call was built, for messages. */
  readonly label: string;
  readonly param?: string;
  /** For `not-found`: what the parameter names (a path, a folder, a URI, a URL, an id). */
  readonly target?: TargetKind;
  /** For `scenario`: what the user expects of the failure (scenarios.ts). */
  readonly expected?: { readonly code?: string; readonly category?: string; readonly channel?: 'tool-result' | 'json-rpc' };
}

/** The categories a failure of each kind may carry (docs/spec-decisions.md, "Run time"). */
export const EXPECTED_CATEGORIES: Readonly<Record<ProbeKind, readonly string[]>> = {
  'missing-required': ['VALIDATION'],
  'wrong-type': ['VALIDATION'],
  'bad-enum': ['VALIDATION'],
  'unknown-tool': ['VALIDATION', 'NOT_FOUND'],
  'unknown-operation': ['VALIDATION', 'NOT_FOUND'],
  // A made-up path may also be refused as outside what the server allows.
  'not-found': ['NOT_FOUND', 'VALIDATION', 'PERMISSION'],
  // A user's scenario names its own category, if any (ProbeCase.expected).
  scenario: [],
};

/** How the server is run and what it was given. */
export interface ProbeOptions {
  /** The folders the server was given (its arguments that are folders, or --root): missing paths are made inside the first. */
  readonly roots?: readonly string[];
  /** The server runs with no network, a throwaway home and its paths read-only: every tool is called. */
  readonly sandbox?: boolean;
}

export interface ToolInfo {
  readonly name: string;
  readonly inputSchema?: unknown;
  readonly annotations?: { readonly readOnlyHint?: unknown; readonly openWorldHint?: unknown };
  /** The JSON Schema of its structuredContent, when it declares one. */
  readonly outputSchema?: unknown;
}

export interface AdapterParam {
  readonly name: string;
  readonly type?: string;
  readonly required: boolean;
  readonly enum?: readonly unknown[];
}

export interface AdapterOperation {
  readonly name: string;
  /** create, read, update, delete or execute. */
  readonly group: string;
  readonly params: readonly AdapterParam[];
}

export interface PlannedCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly case: ProbeCase;
  /** The MCP-AQL operation the call names, for an endpoint tool. */
  readonly operation?: string;
}

export interface ProbePlan {
  readonly calls: readonly PlannedCall[];
  /** Tools (or operations) not called, and why; with `kind`, only that kind of call was left out. */
  readonly skipped: readonly ProbeSkip[];
}

export interface ProbeSkip {
  readonly tool: string;
  readonly operation?: string;
  readonly kind?: ProbeKind;
  readonly reason: string;
}

export const UNKNOWN_TOOL = 'mcp_aql_probe_no_such_tool';
export const UNKNOWN_OPERATION = 'mcp_aql_probe_no_such_operation';
const NOT_IN_ENUM = 'mcp-aql-probe-not-in-enum';

interface Prop {
  readonly name: string;
  readonly type?: string;
  /** A union of types (`"type": ["boolean", "string"]`): the first one not null gives the valid value. */
  readonly union?: string;
  readonly required: boolean;
  /** It declares a `default`: the tool reads it on every call. */
  readonly defaulted?: boolean;
  readonly enum?: readonly unknown[];
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The top-level properties of a JSON Schema object (a non-object schema has none). */
export function schemaProps(schema: unknown): Prop[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const required = Array.isArray(schema.required) ? schema.required.filter((x): x is string => typeof x === 'string') : [];
  return Object.entries(schema.properties).map(([name, s]) => {
    const t = isObj(s) && typeof s.type === 'string' ? s.type : undefined;
    const union = isObj(s) && Array.isArray(s.type) ? s.type.find((x): x is string => typeof x === 'string' && x !== 'null') : undefined;
    const en = isObj(s) && Array.isArray(s.enum) ? s.enum : undefined;
    return { name, type: t, union, required: required.includes(name), enum: en, defaulted: isObj(s) && 'default' in s };
  });
}

/** A value a parameter accepts (its first enum value, else a harmless value of its type). */
function validValue(p: Prop): unknown {
  if (p.enum?.length) return p.enum[0];
  // A union's first type: a string where a server also takes "true"/"false" for a boolean is no harmless value.
  switch (p.type ?? p.union) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'null':
      return null;
    default:
      return 'mcp-aql-probe';
  }
}

/** A value of the wrong type for a declared type; undefined when every type is accepted. */
function wrongValue(type: string | undefined): unknown {
  switch (type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'not-a-boolean';
    case 'array':
      return 'not-a-list';
    case 'object':
      return 'not-an-object';
    default:
      return undefined;
  }
}

const quoteName = (s: string) => `'${s}'`;

/**
 * The failing arguments for one parameter list: at most one case of each kind. `fill`: the other
 * required parameters get valid values (a tool that cannot write, or the sandbox); otherwise they are
 * left out, so a call that the server does not refuse still cannot take effect.
 */
function casesFor(props: readonly Prop[], fill: boolean): { args: Record<string, unknown>; c: ProbeCase }[] {
  const base = Object.create(null) as Record<string, unknown>; // a parameter may be called __proto__
  if (fill) for (const p of props) if (p.required) base[p.name] = validValue(p);
  const out: { args: Record<string, unknown>; c: ProbeCase }[] = [];
  const req = props.find(p => p.required);
  if (req) {
    const args = { ...base };
    delete args[req.name];
    out.push({ args, c: { kind: 'missing-required', param: req.name, label: `a missing required parameter ${quoteName(req.name)}` } });
  }
  const typed = props.find(p => wrongValue(p.type) !== undefined && !p.enum);
  if (typed)
    out.push({
      args: { ...base, [typed.name]: wrongValue(typed.type) },
      c: { kind: 'wrong-type', param: typed.name, label: `parameter ${quoteName(typed.name)} of the wrong type (not ${typed.type})` },
    });
  const en = props.find(p => p.enum?.length && !p.enum.includes(NOT_IN_ENUM));
  if (en)
    out.push({
      args: { ...base, [en.name]: NOT_IN_ENUM },
      c: { kind: 'bad-enum', param: en.name, label: `parameter ${quoteName(en.name)} outside its enum` },
    });
  return out;
}

/**
 * The call that passes the schema and names a missing thing: every required parameter valid, the first
 * parameter that names something made up: a required one, else an optional one with a `default` (the
 * tool reads it on every call: everything's `resourceId`, default 1). Undefined when none names anything.
 * An optional one without a default is never made up: it may as well name a new thing
 * (sequential-thinking's `branchId` starts a branch).
 */
function missingCase(props: readonly Prop[], roots: readonly string[]): { args: Record<string, unknown>; c: ProbeCase } | undefined {
  const ordered = [...props.filter(p => p.required), ...props.filter(p => !p.required && p.defaulted)];
  for (const p of ordered) {
    if (p.enum) continue;
    const m = missingValue(p.name, p.type, roots);
    if (!m) continue;
    const args = Object.create(null) as Record<string, unknown>;
    for (const q of props) if (q.required) args[q.name] = validValue(q);
    args[p.name] = m.value;
    return {
      args,
      c: {
        kind: 'not-found',
        param: p.name,
        target: m.kind,
        label: `${/^[aeiou]/.test(m.kind) ? 'an' : 'a'} ${m.kind} that does not exist in ${quoteName(p.name)}`,
      },
    };
  }
  return undefined;
}

const NOTHING_MISSING = 'no parameter names a path, URI, URL or id the probe can make up';
const MAY_WRITE_MISSING = 'may write (a missing path could be created): --sandbox calls it';
const OPEN_WORLD_MISSING =
  'open world (annotations.openWorldHint): a call that passes the schema reaches the service behind it; --sandbox calls it';

/** An MCP-AQL endpoint tool: it takes the operation's name and its params. */
const isEndpoint = (t: ToolInfo) => schemaProps(t.inputSchema).some(p => p.name === 'operation');

export function planProbe(
  tools: readonly ToolInfo[],
  operations: readonly AdapterOperation[],
  allowWrites: boolean,
  options: ProbeOptions = {},
): ProbePlan {
  const calls: PlannedCall[] = [];
  const skipped: ProbeSkip[] = [];
  const roots = options.roots ?? [];
  const readOps = new Set(operations.filter(o => o.group === 'read').map(o => o.name));
  const readOnly = (t: ToolInfo) => t.annotations?.readOnlyHint === true || readOps.has(t.name);
  const safe = (t: ToolInfo) => options.sandbox === true || readOnly(t);
  const endpoints = tools.filter(isEndpoint);
  for (const t of tools) {
    if (endpoints.includes(t)) continue;
    if (!allowWrites && !safe(t)) {
      skipped.push({
        tool: t.name,
        reason: 'not marked read-only (annotations.readOnlyHint), not a read operation; --sandbox or --allow-writes calls it',
      });
      continue;
    }
    const props = schemaProps(t.inputSchema);
    // A read-only tool that says it reaches out (context7's, toward context7.com) gets, where there is
    // a network, neither the call that passes the schema nor filled-in other parameters.
    const openWorld = t.annotations?.openWorldHint === true && options.sandbox !== true;
    const cases = casesFor(props, safe(t) && !openWorld);
    const missing = missingCase(props, roots);
    if (missing && safe(t) && !openWorld) cases.push(missing);
    else
      skipped.push({
        tool: t.name,
        kind: 'not-found',
        reason: !missing ? NOTHING_MISSING : openWorld && safe(t) ? OPEN_WORLD_MISSING : MAY_WRITE_MISSING,
      });
    if (!cases.length) skipped.push({ tool: t.name, reason: 'no parameter to get wrong' });
    for (const { args, c } of cases) calls.push({ tool: t.name, arguments: args, case: c });
  }
  // An MCP-AQL endpoint by the adapter's operations: the one named for the group (mcp_aql_read), or the only one.
  const endpointOf = (op: AdapterOperation) =>
    endpoints.find(t => t.name.toLowerCase().endsWith(op.group)) ?? (endpoints.length === 1 ? endpoints[0] : undefined);
  for (const t of endpoints) {
    // An unknown operation runs nothing, but an endpoint is only called when it is marked read-only (or
    // runs in the sandbox): its name ("…_read") says nothing about what it does.
    if (allowWrites || safe(t))
      calls.push({
        tool: t.name,
        arguments: { operation: UNKNOWN_OPERATION, params: {} },
        operation: UNKNOWN_OPERATION,
        case: { kind: 'unknown-operation', label: `an unknown operation ${quoteName(UNKNOWN_OPERATION)}` },
      });
    else skipped.push({ tool: t.name, reason: 'an endpoint tool not marked read-only; --sandbox or --allow-writes calls it' });
  }
  for (const op of operations) {
    const tool = endpointOf(op);
    if (!tool) continue; // a tool per operation: the tool's own schema was probed above
    const opSafe = options.sandbox === true || op.group === 'read';
    if (!allowWrites && !opSafe) {
      skipped.push({ tool: tool.name, operation: op.name, reason: `a ${op.group} operation; --sandbox or --allow-writes calls it` });
      continue;
    }
    const cases = casesFor(op.params, opSafe);
    const missing = missingCase(op.params, roots);
    if (missing && opSafe) cases.push(missing);
    else skipped.push({ tool: tool.name, operation: op.name, kind: 'not-found', reason: missing ? MAY_WRITE_MISSING : NOTHING_MISSING });
    for (const { args, c } of cases)
      calls.push({ tool: tool.name, arguments: { operation: op.name, params: args }, operation: op.name, case: c });
  }
  const taken = new Set(tools.map(t => t.name));
  let unknown = UNKNOWN_TOOL;
  while (taken.has(unknown)) unknown += '_';
  calls.push({ tool: unknown, arguments: {}, case: { kind: 'unknown-tool', label: `an unknown tool ${quoteName(unknown)}` } });
  return { calls, skipped };
}
