/**
 * The one way adapter YAML is parsed: the parser's syntax tree (built without recursion), checked for
 * depth, then composed (the composer recurses once per level). A tree deeper than MAX_NESTING is not
 * composed: the text gets no documents and the offset of its first collection past the limit.
 */
import { Composer, Parser, type Document } from 'yaml';
import { cstOverflow, MAX_NESTING } from '../util/nesting';

/** The `yamlCode` of the parse problem a refused text gets (the service reports it as `file.too-deep`). */
export const TOO_DEEP = 'TOO_DEEP';

export interface Composed {
  readonly docs: Document.Parsed[];
  /** Set when the text nests past MAX_NESTING: where (nothing was composed). */
  readonly tooDeepAt?: number;
}

/** `limit`: the levels the text may nest (less than MAX_NESTING for text that sits inside a collection). */
export function composeYaml(text: string, options: object, limit = MAX_NESTING): Composed {
  const tokens = [...new Parser().parse(text)];
  const tooDeepAt = cstOverflow(tokens, limit);
  if (tooDeepAt !== undefined) return { docs: [], tooDeepAt };
  return { docs: [...new Composer(options).compose(tokens, true, text.length)] as Document.Parsed[] };
}
