/**
 * An adapter's diagnostics from its model: the checks, kept per document when the model was parsed in
 * chunks (incremental.ts: only the changed entries are checked again), else run afresh.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import type { AdapterValidators } from '../model/schemas';
import { TOO_DEEP } from '../parse/compose';
import { PARSE_OPTIONS } from '../parse/buildModel';
import type { ChunkState } from '../parse/chunkState';
import { hollowEntries } from '../parse/hollow';
import { followValues } from './blockPairs';
import type { Pair } from 'yaml';
import { MAX_NESTING } from '../util/nesting';
import { tooDeep } from './fileLimits';
import { checks } from './index';
import { createCheckState, runChecksCached, type CheckState } from './incremental';
import { runChecks, toDiagnostics, type ValidateOptions } from './runChecks';

export interface Validation {
  /** The diagnostics of the document of `c`. */
  run(c: FeatureContext, opts: ValidateOptions | undefined): Diagnostic[];
  /** Drops what the checks kept of `uri`'s last validation. */
  forget(uri: string): void;
}

/** `validators`: the adapter schema's, compiled on the first validation that needs them. */
export function createValidation(validators: () => AdapterValidators): Validation {
  /** Per uri: what the checks kept of the last validation, so the next one recomputes the changed entries only. */
  const checkStates = new Map<string, CheckState>();
  const checkState = (uri: string): CheckState => {
    let st = checkStates.get(uri);
    if (!st) checkStates.set(uri, (st = createCheckState()));
    return st;
  };
  return {
    run({ doc, model, registry, workspace }, opts) {
      // Deeper than the scan saw (broken text, or a keystroke it skipped): the parse refused, and says only that.
      const refused = model.syntaxErrors.find(e => e.yamlCode === TOO_DEEP);
      if (refused) return tooDeep(doc, { offset: refused.start, limit: MAX_NESTING }, opts);
      const ctx = { model, registry, ...validators(), workspace };
      // A model parsed in chunks keeps its unchanged entries from one version to the next, and the
      // checks keep their results with them; a whole parse (a small file, JSON) makes every entry new.
      if (!model.parseState) checkStates.delete(doc.uri);
      const problems = model.parseState ? runChecksCached(checkState(doc.uri), ctx) : runChecks(checks, ctx);
      // A big document's entries, now checked (their answers kept per entry), keep no nodes (parse/hollow.ts).
      if (model.parseState) {
        const replaced = new Set<Pair>();
        hollowEntries(model.parseState as ChunkState, PARSE_OPTIONS, p => replaced.add(p));
        const st = checkStates.get(doc.uri);
        if (replaced.size && st) for (const b of st.blocks.values()) followValues(b, replaced);
      }
      return toDiagnostics(doc, problems, model.suppressions, opts ?? {});
    },
    forget: uri => checkStates.delete(uri),
  };
}
