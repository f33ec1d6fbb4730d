/** A unified diff of two texts by lines (`--fix-dry-run`), 3 lines of context, `git apply`-able. */

interface Op {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
}

const splitLines = (s: string): string[] => {
  const lines = s.split(/(?<=\n)/);
  return lines.length && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
};

/** Line edit script: common prefix and suffix, then an LCS table on the middle (a plain replace when that is huge). */
function script(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const am = a.slice(pre, a.length - suf),
    bm = b.slice(pre, b.length - suf);
  const mid: Op[] = [];
  if ((am.length + 1) * (bm.length + 1) > 4_000_000) {
    mid.push(...am.map(text => ({ kind: '-' as const, text })), ...bm.map(text => ({ kind: '+' as const, text })));
  } else {
    const w = bm.length + 1;
    const L = new Uint32Array((am.length + 1) * w);
    for (let i = am.length - 1; i >= 0; i--)
      for (let j = bm.length - 1; j >= 0; j--) {
        L[i * w + j] = am[i] === bm[j] ? L[(i + 1) * w + j + 1]! + 1 : Math.max(L[(i + 1) * w + j]!, L[i * w + j + 1]!);
      }
    let i = 0,
      j = 0;
    while (i < am.length || j < bm.length) {
      if (i < am.length && j < bm.length && am[i] === bm[j]) {
        mid.push({ kind: ' ', text: am[i]! });
        i++;
        j++;
      } else if (i < am.length && (j === bm.length || L[(i + 1) * w + j]! >= L[i * w + j + 1]!)) mid.push({ kind: '-', text: am[i++]! });
      else mid.push({ kind: '+', text: bm[j++]! });
    }
  }
  return [
    ...a.slice(0, pre).map(text => ({ kind: ' ' as const, text })),
    ...mid,
    ...a.slice(a.length - suf).map(text => ({ kind: ' ' as const, text })),
  ];
}

export function unifiedDiff(before: string, after: string, path: string, context = 3): string {
  if (before === after) return '';
  const ops = script(splitLines(before), splitLines(after));
  const out = [`--- a/${path}\n`, `+++ b/${path}\n`];
  let k = 0;
  while (k < ops.length) {
    while (k < ops.length && ops[k]!.kind === ' ') k++;
    if (k >= ops.length) break;
    const start = Math.max(0, k - context);
    let end = k;
    // Extend the hunk while the next change is within 2×context unchanged lines.
    for (let m = k; m < ops.length; m++) {
      if (ops[m]!.kind !== ' ') end = m;
      else if (m - end > 2 * context) break;
    }
    const stop = Math.min(ops.length, end + context + 1);
    let aLine = 1,
      bLine = 1;
    for (let m = 0; m < start; m++) {
      if (ops[m]!.kind !== '+') aLine++;
      if (ops[m]!.kind !== '-') bLine++;
    }
    const hunk = ops.slice(start, stop);
    const aLen = hunk.filter(o => o.kind !== '+').length,
      bLen = hunk.filter(o => o.kind !== '-').length;
    out.push(`@@ -${aLen ? aLine : aLine - 1},${aLen} +${bLen ? bLine : bLine - 1},${bLen} @@\n`);
    for (const o of hunk) out.push(o.kind + o.text + (o.text.endsWith('\n') ? '' : '\n\\ No newline at end of file\n'));
    k = stop;
  }
  return out.join('');
}
