/**
 * yaml.syntax: what the parser rejects, at the parser's position; json.syntax: what a JSON loader would
 * reject in a JSON adapter. One mistake, one diagnostic: an unquoted template starting with `{` is
 * reported once, as template.flow-mapping (with its "Quote the template" fix), not also as the parser
 * errors inside that template.
 */
import { isMap } from 'yaml';
import { Code } from '../codes';
import type { AdapterModel } from '../model/model';
import { flowTemplateEnd } from '../parse/placeholders';
import type { Check } from './types';

export const yamlSyntax: Check = {
  name: 'yamlSyntax',
  run({ model }, emit) {
    // Only YAML's own errors inside such a template (a JSON adapter's template object is another mistake).
    const covered = model.syntaxErrors.length && model.kind !== 'json' ? flowTemplates(model) : [];
    for (const e of model.syntaxErrors) {
      if (e.yamlCode !== 'JSON_SYNTAX' && covered.some(([s, t]) => e.start >= s && e.start <= t)) continue;
      const end = e.end > e.start ? e.end : Math.min(e.start + 1, model.text.length);
      const fields = { message: e.message, start: e.start, end, data: { yamlCode: e.yamlCode } };
      emit(e.yamlCode === 'JSON_SYNTAX' ? { code: Code.JsonSyntax, ...fields } : { code: Code.YamlSyntax, ...fields });
    }
  },
};

/** Where templates read as flow mappings lie (what template.flow-mapping reports, and the node's extent). */
function flowTemplates(model: AdapterModel): [number, number][] {
  const out: [number, number][] = [];
  for (const e of [...model.codes, ...model.mappings]) {
    const n = e.templateNode;
    if (n && isMap(n.node) && n.node.flow)
      out.push([n.span.start, Math.max(n.span.end, flowTemplateEnd(model.text, n.span.start, n.span.end))]);
  }
  return out;
}
