/** Code-name helpers shared by checks and fixes. */

export const CODE_NAME = /^[A-Z][A-Z0-9_]*$/;

/** `abuseDetected`, `abuse-detected`, `Abuse Detected` → `ABUSE_DETECTED`. */
export function toUpperSnake(name: string): string {
  const s = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z]/.test(s) ? s : `E_${s}`;
}

/** The category a code's prefix names (longest match), e.g. NOT_FOUND for NOT_FOUND_USER. */
export function prefixCategory(name: string, categories: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const c of categories) if (name.startsWith(c + '_') && (!best || c.length > best.length)) best = c;
  return best;
}
