import { member, parseJson, type JsonNode } from '../verify/json';

type Obj = JsonNode & { kind: 'object' };

/** The MCP-AQL envelope a tool result carries (in a text content or structuredContent), if any. */
export function envelopeOf(result: Obj): Obj | undefined {
  const content = member(result, 'content');
  if (content?.value.kind === 'array')
    for (const item of content.value.items) {
      const text = member(item, 'text');
      if (text?.value.kind !== 'string' || !/^\s*\{/.test(text.value.value)) continue; // only an object can be an envelope
      const s = text.value;
      const inner = parseJson(s.value, i => s.at(i));
      if (inner.ok && inner.node.kind === 'object' && member(inner.node, 'success')) return inner.node;
    }
  const structured = member(result, 'structuredContent');
  if (structured?.value.kind === 'object' && member(structured.value, 'success')) return structured.value;
  return undefined;
}
