/**
 * code.declared-elsewhere (test/service/silentSlips.test.ts): a custom code this file declares that another file in its
 * code scope declares too. Which declaration a mapping or `verify` in a third file uses then depends on
 * the files' names (the URI that sorts first wins, workspace/resolve.ts): a silent slip, said once on
 * each declaring file's key. Registry codes are code.redefines-registry's. Reads the workspace index
 * once per custom code, so the kept checks run it afresh on every validation. Only files count: an
 * unsaved document (the walkthrough's example, a scratch buffer) neither gets nor causes this warning.
 */
import { Code } from '../codes';
import type { Check } from './types';

const fileName = (uri: string): string => {
  const last = uri.slice(uri.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

const isFile = (uri: string): boolean => uri.startsWith('file:');

export const crossFile: Check = {
  name: 'crossFile',
  run({ model, registry, workspace }, emit) {
    if (!isFile(model.uri)) return;
    const seen = new Set<string>();
    for (const c of model.codes) {
      if (seen.has(c.name) || registry.byCode.has(c.name)) continue;
      seen.add(c.name);
      const others = workspace.declarations(c.name, model.uri).filter(d => d.uri !== model.uri && isFile(d.uri));
      if (!others.length) continue;
      const first = [model.uri, ...others.map(d => d.uri)].sort()[0]!;
      const names = [...new Set(others.map(d => fileName(d.uri)))];
      const winner = first === model.uri ? 'this file' : fileName(first);
      emit({
        code: Code.CodeDeclaredElsewhere,
        start: c.keySpan.start,
        end: c.keySpan.end,
        message: `Declare ${c.name} in one file only: ${names.join(', ')} declares it too, and a mapping or recorded response in another file uses the declaration of ${winner} (the file name that sorts first).`,
        related: others
          .slice(0, 8)
          .map(d => ({ start: 0, end: 0, uri: d.uri, range: d.range, message: `${c.name} is also declared here` })),
      });
    }
  },
};
