/** What a mapping key that is not a usable name is, in words: the one wording of schema checks and the config file. */
import { isMap, isScalar, isSeq } from 'yaml';

export function keyKind(k: unknown): string {
  return isMap(k) ? 'a mapping' : isSeq(k) ? 'a list' : isScalar(k) && k.value === null ? 'null' : 'empty';
}
