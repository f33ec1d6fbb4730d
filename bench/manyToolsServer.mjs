// The server of the probe bench (bench/runtimeBench.ts): an MCP server over stdio (@modelcontextprotocol/sdk) with
// N read-only tools (default 100), each answering at once, so the time of a probe beyond the server's own is what the
// probe itself costs. Every tool takes a required string `id`, every third a required `path` too, every fifth an
// optional integer `limit`; a call missing a required parameter or with one of the wrong type gets isError true and a
// plain message, a call with an unknown id a not-found message, a call that passes an answer.
//
//   node bench/manyToolsServer.mjs [tools=100]
//
// With BENCH_SERVER_STATS=<file>, at exit it appends one JSON line: its CPU (ms, user + system) and its life (ms).
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const started = performance.now();
const count = Number(process.argv[2] ?? 100);
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write(`manyToolsServer: '${process.argv[2]}' is not a number of tools\n`);
  process.exit(2);
}
if (process.env.BENCH_SERVER_STATS)
  process.on('exit', () => {
    const u = process.resourceUsage();
    const line = { cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, lifeMs: performance.now() - started, maxRssKb: u.maxRSS };
    appendFileSync(process.env.BENCH_SERVER_STATS, `${JSON.stringify(line)}\n`);
  });

const name = i => `tool_${String(i).padStart(3, '0')}`;
const spec = i => ({
  id: { type: 'string', required: true },
  ...(i % 3 === 0 ? { path: { type: 'string', required: true } } : {}),
  ...(i % 5 === 0 ? { limit: { type: 'integer', required: false } } : {}),
});
const tools = Array.from({ length: count }, (_, i) => {
  const s = spec(i);
  return {
    name: name(i),
    description: `Reads item kind ${i} by id`,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, { type: v.type, description: `the ${k}` }])),
      required: Object.entries(s)
        .filter(([, v]) => v.required)
        .map(([k]) => k),
    },
    annotations: { readOnlyHint: true },
  };
});
const byName = new Map(tools.map((t, i) => [t.name, spec(i)]));
const typeOf = v => (Array.isArray(v) ? 'array' : v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v);
const fail = text => ({ content: [{ type: 'text', text }], isError: true });

const server = new Server({ name: 'bench-many-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, req => {
  const s = byName.get(req.params.name);
  if (!s) throw Object.assign(new Error(`Unknown tool: ${req.params.name}`), { code: -32602 }); // a protocol error (MCP spec)
  const args = req.params.arguments ?? {};
  for (const [k, v] of Object.entries(s)) {
    if (args[k] === undefined) {
      if (v.required) return fail(`Missing required parameter '${k}'`);
      continue;
    }
    if (typeOf(args[k]) !== v.type) return fail(`Parameter '${k}' expected '${v.type}', got '${typeOf(args[k])}'`);
  }
  if (args.id !== 'item-1') return fail(`Item '${args.id}' not found`);
  return { content: [{ type: 'text', text: JSON.stringify({ id: args.id, kind: req.params.name }) }] };
});
await server.connect(new StdioServerTransport());
// Standard input closed or a SIGTERM: exit at once (and through the `exit` handler, so the stats line is written).
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
