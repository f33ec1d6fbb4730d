/**
 * yaml.syntax: what the parser rejects, at the parser's position; json.syntax: what a JSON loader would
 * reject in a JSON adapter. One mistake, one diagnostic: an unquoted template starting with `{` is
 * reported once, as template.flow-mapping (with its "Quote the template" fix), not also as the parser
 * errors inside that template (parse/brokenText.ts); nothing else is reported on a scalar the parser
 * rejected (salvaged.ts).
 */
import { Code } from '../codes';
import { reportedSyntaxErrors } from '../parse/brokenText';
import type { Check } from './types';

export const yamlSyntax: Check = {
  name: 'yamlSyntax',
  run({ model }, emit) {
    for (const e of reportedSyntaxErrors(model)) {
      const end = e.end > e.start ? e.end : Math.min(e.start + 1, model.text.length);
      const fields = { message: e.message, start: e.start, end, data: { yamlCode: e.yamlCode } };
      emit(e.yamlCode === 'JSON_SYNTAX' ? { code: Code.JsonSyntax, ...fields } : { code: Code.YamlSyntax, ...fields });
    }
  },
};
