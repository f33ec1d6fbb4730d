/**
 * XML attribute/text escaping; characters XML 1.0 cannot carry at all (controls, lone surrogates) become U+FFFD,
 * except a file name's byte that is not UTF-8 (U+DC80–U+DCFF, node/bytePaths.ts), shown as `\xff`.
 */
export function xmlEscape(s: string): string {
  return s
    .replace(/(?<![\ud800-\udbff])[\udc80-\udcff]/g, c => `\\x${(c.charCodeAt(0) - 0xdc00).toString(16)}`)
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
