/** A small, linear glob matcher (`**`, `*`, `?`, `{a,b}`, `[...]`) for `mcpAql.files`; no user regex. */

const cache = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  const hit = cache.get(glob);
  if (hit) return hit;
  let re = '';
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') { i++; re += '(?:[^/]*/)*'; } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') { inGroup++; re += '(?:'; }
    else if (c === '}' && inGroup > 0) { inGroup--; re += ')'; }
    else if (c === ',' && inGroup > 0) re += '|';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else { re += '[' + glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']'; i = close; }
    } else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  while (inGroup-- > 0) re += ')';
  // A pattern without a slash matches the base name anywhere, as VS Code's file associations do.
  const rx = new RegExp(glob.includes('/') ? `(?:^|/)${re}$` : `(?:^|/)${re}$`);
  if (cache.size > 256) cache.clear();
  cache.set(glob, rx);
  return rx;
}

export function matchesAny(path: string, globs: readonly string[]): boolean {
  return globs.some(g => globToRegExp(g).test(path));
}
