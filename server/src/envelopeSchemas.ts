/** The envelope schemas of the four dialects, inlined into the bundles that import this file. */
import atlasGate from '../../schemas/envelopes/atlas-gate.schema.json';
import jsonRpc from '../../schemas/envelopes/json-rpc.schema.json';
import mcpAql from '../../schemas/envelopes/mcp-aql.schema.json';
import toolResult from '../../schemas/envelopes/mcp-tool-result.schema.json';

export const envelopeSchemas: Readonly<Record<string, object>> = {
  'mcp-aql': mcpAql,
  'mcp-tool-result': toolResult,
  'json-rpc': jsonRpc,
  'atlas-gate': atlasGate,
};
