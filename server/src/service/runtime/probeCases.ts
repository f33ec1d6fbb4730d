/**
 * The probe's plan (docs/cli.md, "Watching and probing a running server"): from a server's `tools/list`
 * answer (and the operations an adapter declares), the calls that must fail by construction — a missing
 * required parameter, a wrong type, a value outside an enum, an unknown tool, an unknown operation — and only
 * to tools that cannot write (MCP `readOnlyHint`, or an adapter's read operation) unless writes are allowed.
 */

export type ProbeKind = 'missing-required' | 'wrong-type' | 'bad-enum' | 'unknown-tool' | 'unknown-operation';

export interface ProbeCase {
  readonly kind: ProbeKind;
  /** "a missing required parameter 'path'": how the call was built, for messages. */
  readonly label: string;
  readonly param?: string;
}

/** The categories a failure of each kind may carry (docs/spec-decisions.md, "Run time"). */
export const EXPECTED_CATEGORIES: Readonly<Record<ProbeKind, readonly string[]>> = {
  'missing-required': ['VALIDATION'],
  'wrong-type': ['VALIDATION'],
  'bad-enum': ['VALIDATION'],
  'unknown-tool': ['VALIDATION', 'NOT_FOUND'],
  'unknown-operation': ['VALIDATION', 'NOT_FOUND'],
};

export interface ToolInfo {
  readonly name: string;
  readonly inputSchema?: unknown;
  readonly annotations?: { readonly readOnlyHint?: unknown };
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
  /** Tools (or operations) not called, and why. */
  readonly skipped: readonly { readonly tool: string; readonly operation?: string; readonly reason: string }[];
}

export const UNKNOWN_TOOL = 'mcp_aql_probe_no_such_tool';
export const UNKNOWN_OPERATION = 'mcp_aql_probe_no_such_operation';
const NOT_IN_ENUM = 'mcp-aql-probe-not-in-enum';

interface Prop {
  readonly name: string;
  readonly type?: string;
  readonly required: boolean;
  readonly enum?: readonly unknown[];
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The top-level properties of a JSON Schema object (a non-object schema has none). */
export function schemaProps(schema: unknown): Prop[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const required = Array.isArray(schema.required) ? schema.required.filter((x): x is string => typeof x === 'string') : [];
  return Object.entries(schema.properties).map(([name, s]) => {
    const t = isObj(s) && typeof s.type === 'string' ? s.type : undefined;
    const en = isObj(s) && Array.isArray(s.enum) ? s.enum : undefined;
    return { name, type: t, required: required.includes(name), enum: en };
  });
}

/** A value a parameter accepts (its first enum value, else a harmless value of its type). */
function validValue(p: Prop): unknown {
  if (p.enum?.length) return p.enum[0];
  switch (p.type) {
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

/** The failing arguments for one parameter list: at most one case of each kind. */
function casesFor(props: readonly Prop[]): { args: Record<string, unknown>; c: ProbeCase }[] {
  const base = Object.create(null) as Record<string, unknown>; // a parameter may be called __proto__
  for (const p of props) if (p.required) base[p.name] = validValue(p);
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

/** An MCP-AQL endpoint tool: it takes the operation's name and its params. */
const isEndpoint = (t: ToolInfo) => schemaProps(t.inputSchema).some(p => p.name === 'operation');

export function planProbe(tools: readonly ToolInfo[], operations: readonly AdapterOperation[], allowWrites: boolean): ProbePlan {
  const calls: PlannedCall[] = [];
  const skipped: { tool: string; operation?: string; reason: string }[] = [];
  const readOps = new Set(operations.filter(o => o.group === 'read').map(o => o.name));
  const readOnly = (t: ToolInfo) => t.annotations?.readOnlyHint === true || readOps.has(t.name);
  const endpoints = tools.filter(isEndpoint);
  for (const t of tools) {
    if (endpoints.includes(t)) continue;
    if (!allowWrites && !readOnly(t)) {
      skipped.push({
        tool: t.name,
        reason: 'not marked read-only (annotations.readOnlyHint), not a read operation; --allow-writes calls it',
      });
      continue;
    }
    const cases = casesFor(schemaProps(t.inputSchema));
    if (!cases.length) skipped.push({ tool: t.name, reason: 'no parameter to get wrong' });
    for (const { args, c } of cases) calls.push({ tool: t.name, arguments: args, case: c });
  }
  for (const t of endpoints) {
    // An unknown operation runs nothing, but a stranger's endpoint is only called when it reads.
    if (allowWrites || readOnly(t) || /read$/i.test(t.name))
      calls.push({
        tool: t.name,
        arguments: { operation: UNKNOWN_OPERATION, params: {} },
        operation: UNKNOWN_OPERATION,
        case: { kind: 'unknown-operation', label: `an unknown operation ${quoteName(UNKNOWN_OPERATION)}` },
      });
    else skipped.push({ tool: t.name, reason: 'an endpoint tool not marked read-only; --allow-writes calls it' });
  }
  for (const op of operations) {
    const tool = endpoints.find(t => t.name.toLowerCase().endsWith(op.group)) ?? (endpoints.length === 1 ? endpoints[0] : undefined);
    if (!tool) continue; // a tool per operation: the tool's own schema was probed above
    if (!allowWrites && op.group !== 'read') {
      skipped.push({ tool: tool.name, operation: op.name, reason: `a ${op.group} operation; --allow-writes calls it` });
      continue;
    }
    for (const { args, c } of casesFor(op.params))
      calls.push({ tool: tool.name, arguments: { operation: op.name, params: args }, operation: op.name, case: c });
  }
  const taken = new Set(tools.map(t => t.name));
  let unknown = UNKNOWN_TOOL;
  while (taken.has(unknown)) unknown += '_';
  calls.push({ tool: unknown, arguments: {}, case: { kind: 'unknown-tool', label: `an unknown tool ${quoteName(unknown)}` } });
  return { calls, skipped };
}
