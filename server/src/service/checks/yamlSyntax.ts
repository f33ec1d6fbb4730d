/** yaml.syntax: what the parser rejects, at the parser's position; json.syntax: what a JSON loader would reject in a JSON adapter. */
import { Code } from '../codes';
import type { Check } from './types';

export const yamlSyntax: Check = {
  name: 'yamlSyntax',
  run({ model }, emit) {
    for (const e of model.syntaxErrors) {
      const end = e.end > e.start ? e.end : Math.min(e.start + 1, model.text.length);
      const fields = { message: e.message, start: e.start, end, data: { yamlCode: e.yamlCode } };
      emit(e.yamlCode === 'JSON_SYNTAX' ? { code: Code.JsonSyntax, ...fields } : { code: Code.YamlSyntax, ...fields });
    }
  },
};
