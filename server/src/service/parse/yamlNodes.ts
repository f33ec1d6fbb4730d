/**
 * `yaml`'s node tests, read once. The bundles reach a CommonJS package's exports through a getter on
 * every access (esbuild's interop), so `isScalar(n)` imported from `yaml` costs a getter call before the
 * test itself: 60 ms of a 2,000-file check's validation (bench/NOTES.md, "Workspace"). The hot paths
 * (extraction, the checks' walks, the JSON reader's nodes) import them from here; types still come from `yaml`.
 */
import * as yaml from 'yaml';

export const { isAlias, isCollection, isMap, isPair, isScalar, isSeq } = yaml;
/** The node classes, for code that builds nodes (parse/jsonDocument.ts). */
export const { Pair: PairNode, Scalar: ScalarNode, YAMLMap: MapNode, YAMLSeq: SeqNode } = yaml;
