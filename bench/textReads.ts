/**
 * Where the service reads the document's text while it validates a keystroke (bench/NOTES.md, "the text of every
 * keystroke, read where"): the service in-process, a document whose `getText()` answers a proxy of the text that
 * records every read (method, range, caller), the keystrokes of typingMemory.ts through `service.edited` and
 * `validate`, as the language server makes them. A slice of half the text or more answers another such proxy (the
 * region's text, which the parse reads), so reads of it are recorded too. Per keystroke it prints each reader (the first
 * service frames of the stack) with how many reads, and which of them read the whole text (a scan, a comparison, a
 * coercion or a slice of 64 KiB or more): the reads a text kept in pieces would have to serve. Investigation only
 * (typeof of the proxy is 'object'; every path the service took here is listed, not every path it has). The document
 * is a plain one (its text a string, as the CLI's): reads that fall back to the whole string for a plain text show as
 * coerced; that a document in pieces makes no whole text on a keystroke is tested (test/lsp/pieceDocument.test.ts).
 * `node --import tsx bench/textReads.ts [--codes=10000] [--keys=6]`
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService } from '../server/src/service';
import { deps } from '../test/lsp/harness';
import { editOffsets, generate } from './gen';

const arg = (name: string, def: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const n = Number(arg('codes', '10000'));
const keys = Number(arg('keys', '6'));
const BIG = 64 * 1024;

type Read = { reader: string; what: string; whole: boolean };
let reads: Read[] = [];

/** The first frames of the stack inside the service, the proxy's own left out. */
function reader(): string {
  const lines = (new Error().stack ?? '').split('\n').slice(3);
  const frames = lines
    .map(l => /at (?:[\w.<>]+ )?\(?.*?server\/src\/(.*?):(\d+):\d+\)?$/.exec(l) ?? /at ([\w.<>]+) \(.*?server\/src\/(.*?):(\d+)/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map(m => {
      const fn = /at ([\w.<>$]+) \(/.exec(m.input)?.[1] ?? '?';
      return `${fn} (${m[1]}:${m[2]})`;
    });
  return frames.slice(0, 3).join(' < ') || lines[0]!.trim();
}

/** A proxy of `s` that records each read; `label` names it (the file's text, or a slice of it). */
function watched(s: string, label: string): string {
  const box = new String(s);
  const note = (what: string, whole: boolean) => reads.push({ reader: reader(), what: `${label}.${what}`, whole });
  return new Proxy(box, {
    get(_, prop) {
      if (prop === Symbol.toPrimitive || prop === 'toString' || prop === 'valueOf')
        return () => {
          note('coerced', true);
          return s;
        };
      if (prop === 'length') return s.length;
      if (typeof prop === 'string' && /^\d+$/.test(prop)) {
        note('[i]', false);
        return s[Number(prop)];
      }
      const f = (String.prototype as unknown as Record<PropertyKey, unknown>)[prop];
      if (typeof f !== 'function') return (box as unknown as Record<PropertyKey, unknown>)[prop];
      return (...args: unknown[]) => {
        const a = args.map(x => (typeof x === 'object' && x !== null ? x.valueOf() : x));
        if (prop === 'slice' || prop === 'substring') {
          const len = s.length;
          const from = Number(a[0] ?? 0),
            to = a[1] === undefined ? len : Number(a[1]);
          const f0 = from < 0 ? Math.max(0, len + from) : Math.min(from, len);
          const t0 = to < 0 ? Math.max(0, len + to) : Math.min(to, len);
          note(`${String(prop)}(${t0 - f0 >= BIG ? `${t0 - f0} chars` : 'small'})`, t0 - f0 >= BIG);
          const out = (f as (...x: unknown[]) => string).apply(s, a);
          // The region's text (buildModel's slice of the file) is watched too; other slices are compared, so plain.
          return label === 'text' && out.length >= len / 2 ? watched(out, `${label}[${f0}..]`) : out;
        }
        const local = prop === 'charCodeAt' || prop === 'charAt' || prop === 'codePointAt' || prop === 'at' || prop === 'startsWith';
        note(String(prop), !local);
        return (f as (...x: unknown[]) => unknown).apply(s, a);
      };
    },
  }) as unknown as string;
}

/** A TextDocument whose whole text is a watched proxy; everything else is the library's. */
function docOf(d: TextDocument): TextDocument {
  const text = watched(d.getText(), 'text');
  return new Proxy(d, {
    get(t, prop) {
      if (prop === 'getText') return (range?: Parameters<TextDocument['getText']>[0]) => (range ? t.getText(range) : text);
      const v = (t as unknown as Record<PropertyKey, unknown>)[prop];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

function report(title: string): void {
  const by = new Map<string, { n: number; whole: number; what: Set<string> }>();
  for (const r of reads) {
    const e = by.get(r.reader) ?? { n: 0, whole: 0, what: new Set<string>() };
    e.n++;
    if (r.whole) e.whole++;
    e.what.add(r.what.replace(/\[\d+\.\.\]/, '[region]'));
    by.set(r.reader, e);
  }
  const whole = reads.filter(r => r.whole).length;
  process.stdout.write(`\n${title}: ${reads.length} reads, ${whole} of the whole text\n`);
  for (const [k, e] of [...by].sort((a, b) => b[1].whole - a[1].whole || b[1].n - a[1].n))
    process.stdout.write(`  ${e.whole ? 'WHOLE' : '     '} ${String(e.n).padStart(6)}  ${k}  [${[...e.what].slice(0, 4).join(', ')}]\n`);
  reads = [];
}

const service = createAdapterService(deps());
const uri = 'file:///bench/typing.adapter.yaml';
let text = generate(n);
let doc = TextDocument.create(uri, 'yaml', 1, text);
service.validate(docOf(doc), {});
report('open');
const sites = editOffsets(text, n);
for (let i = 0; i < keys; i++) {
  const off = sites[i % sites.length]! + Math.floor(i / sites.length);
  const version = doc.version + 1;
  service.edited(uri, doc.version, version, [{ start: off, end: off, text: 'x' }]);
  text = text.slice(0, off) + 'x' + text.slice(off);
  doc = TextDocument.create(uri, 'yaml', version, text);
  service.validate(docOf(doc), {});
  report(`keystroke ${i + 1} (offset ${off})`);
}
