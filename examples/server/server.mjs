// The example MCP-AQL server (issue 24 item 3): notes in memory behind two CRUDE endpoint tools,
// `mcp_aql_read` (read-only) and `mcp_aql_create`, on @modelcontextprotocol/sdk over stdio. It answers
// every failure by its contract (notes.adapter.yaml and the registry): an MCP-AQL envelope in the text
// content, isError false for the recoverable codes (mcp-integration.md s4.1) and true otherwise.
//
//   node examples/server/server.mjs [--slip NAME]…     (or MCP_AQL_SLIPS=name,name)
//
// Each slip makes it commit one of the common mistakes, for `watch` and `probe` to catch:
//   is-error        failures sent as plain text with isError false
//   undeclared-code codes the contract never declared (NOTE_MISSING, MISSING_PARAMETER, …)
//   drift           messages that drift from their templates
//   missing-detail  the first details key of every failure left out
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const SLIPS = ['is-error', 'undeclared-code', 'drift', 'missing-detail'];
const slips = new Set((process.env.MCP_AQL_SLIPS ?? '').split(',').filter(Boolean));
for (let i = 2; i < process.argv.length; i++) if (process.argv[i] === '--slip') slips.add(process.argv[++i] ?? '');
for (const s of slips)
  if (!SLIPS.includes(s)) {
    process.stderr.write(`example server: unknown slip '${s}' (${SLIPS.join(', ')})\n`);
    process.exit(2);
  }

/** The operations of notes.adapter.yaml, by endpoint. */
const OPERATIONS = {
  read: {
    get_note: { note_id: { type: 'string', required: true }, format: { type: 'string', enum: ['text', 'markdown'] } },
    list_notes: { limit: { type: 'integer' } },
  },
  create: { add_note: { title: { type: 'string', required: true } } },
};
const notes = new Map([['n1', { id: 'n1', title: 'Welcome', body: 'Notes live in memory.' }]]);
const RECOVERABLE = new Set(['NOT_FOUND_OPERATION', 'VALIDATION_MISSING_PARAM', 'VALIDATION_INVALID_TYPE']);

/** A failure as the contract says, or with the slips asked for. */
function failure(code, message, details, slipped) {
  if (slips.has('undeclared-code')) code = slipped.code;
  if (slips.has('drift')) message = slipped.message;
  if (slips.has('missing-detail')) details = Object.fromEntries(Object.entries(details).slice(1));
  if (slips.has('is-error')) return { content: [{ type: 'text', text: `Error: ${message}` }], isError: false };
  const envelope = { success: false, error: { code, message, details } };
  return { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: !RECOVERABLE.has(code) };
}

const success = data => ({ content: [{ type: 'text', text: JSON.stringify({ success: true, data }) }] });
const typeOf = v => (Array.isArray(v) ? 'array' : v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v);

/** The first problem with an operation's params, as a failure; undefined when they are fine. */
function checkParams(operation, spec, params) {
  for (const [name, p] of Object.entries(spec)) {
    const v = params[name];
    if (v === undefined) {
      if (!p.required) continue;
      return failure(
        'VALIDATION_MISSING_PARAM',
        `Missing required parameter '${name}'`,
        { param_name: name, operation },
        { code: 'MISSING_PARAMETER', message: `Parameter ${name} is required` },
      );
    }
    const t = typeOf(v);
    if (!(t === p.type || (p.type === 'number' && t === 'integer')))
      return failure(
        'VALIDATION_INVALID_TYPE',
        `Parameter '${name}' expected '${p.type}', got '${t}'`,
        { param_name: name, expected_type: p.type, actual_type: t },
        { code: 'WRONG_TYPE', message: `${name} must be a ${p.type}` },
      );
    if (p.enum && !p.enum.includes(v))
      return failure(
        'VALIDATION_NOT_ALLOWED',
        `Parameter '${name}' must be one of '${p.enum.join(', ')}', got '${v}'`,
        { param_name: name, allowed: p.enum.join(', '), value: String(v) },
        { code: 'BAD_VALUE', message: `Bad value for ${name}` },
      );
  }
  return undefined;
}

function run(endpoint, operation, params) {
  const ops = OPERATIONS[endpoint];
  const spec = typeof operation === 'string' && Object.hasOwn(ops, operation) ? ops[operation] : undefined;
  if (!spec)
    return failure(
      'NOT_FOUND_OPERATION',
      `Unknown operation: '${String(operation)}'`,
      { operation: String(operation), available: Object.keys(ops) },
      { code: 'UNKNOWN_OPERATION', message: `No operation ${String(operation)} here` },
    );
  if (typeof params !== 'object' || params === null || Array.isArray(params)) params = {};
  const bad = checkParams(operation, spec, params);
  if (bad) return bad;
  if (operation === 'get_note') {
    const note = notes.get(params.note_id);
    if (!note)
      return failure(
        'NOT_FOUND_NOTE',
        `Note '${params.note_id}' not found`,
        { note_id: params.note_id },
        { code: 'NOTE_MISSING', message: `No note ${params.note_id}` },
      );
    return success(note);
  }
  if (operation === 'list_notes') return success([...notes.values()].slice(0, params.limit ?? 100));
  const id = `n${notes.size + 1}`;
  notes.set(id, { id, title: params.title, body: '' });
  return success({ id });
}

const endpointSchema = {
  type: 'object',
  properties: { operation: { type: 'string' }, params: { type: 'object' } },
  required: ['operation'],
};
const server = new Server({ name: 'mcp-aql-example-notes', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: 'mcp_aql_read', description: 'Read operations of the notes adapter', inputSchema: endpointSchema, annotations: { readOnlyHint: true } },
    { name: 'mcp_aql_create', description: 'Create operations of the notes adapter', inputSchema: endpointSchema, annotations: { readOnlyHint: false } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, req => {
  const endpoint = { mcp_aql_read: 'read', mcp_aql_create: 'create' }[req.params.name];
  if (!endpoint) throw Object.assign(new Error(`Unknown tool: ${req.params.name}`), { code: -32602 }); // a protocol error (MCP spec)
  const args = req.params.arguments ?? {};
  return run(endpoint, args.operation, args.params);
});
await server.connect(new StdioServerTransport());
