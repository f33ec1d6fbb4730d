/**
 * The fast index extraction: a file's declared codes and code occurrences (what the workspace index
 * keeps) read from a light tree (parse/scanYaml.ts, parse/scanJson.ts) instead of the full model.
 * Returns exactly what features/symbols.ts `declaredCodes` and features/navigation.ts
 * `codeOccurrences` return on the model, or undefined for anything the scanners do not read (the
 * caller then builds the model): equality is tested on every fixture and fuzzed.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range } from 'vscode-languageserver-types';
import { positionsIn } from '../util/ranges';
import type { CodeDeclaration, CodeOccurrence } from '../model/workspace';
import { OTHER, UNSUPPORTED_CHARS, bail, type LightMap, type LightNode, type LightScalar } from './lightTree';
import { scanJson } from './scanJson';
import { scanYaml } from './scanYaml';
import type { Classified } from './sourceFile';

export interface IndexEntries {
  readonly declarations: CodeDeclaration[];
  readonly occurrences: CodeOccurrence[];
}

/** The index entries of a classified adapter document, or undefined when only the full model can tell. */
export function scanIndexEntries(doc: TextDocument, cls: Classified): IndexEntries | undefined {
  if (cls.unclosed) return undefined;
  const text = doc.getText();
  const { start, end } = cls.region;
  if (UNSUPPORTED_CHARS.test(start === 0 && end === text.length ? text : text.slice(start, end))) return undefined;
  try {
    const root = cls.kind === 'json' ? scanJson(text, start, end) : scanYaml(text, start, end);
    return entries(doc, root);
  } catch {
    // UNSUPPORTED, or anything unforeseen (a stack overflow): the model decides, as if the scan did not exist.
    return undefined;
  }
}

const keyString = (k: LightScalar): string | undefined => {
  const v = k.value;
  if (v === OTHER) bail();
  return v === null ? undefined : String(v);
};
/** A scalar's string value (OTHER is always a number). */
const str = (n: LightNode): string | undefined => (n.k === 'scalar' && typeof n.value === 'string' ? n.value : undefined);

interface Decl {
  key: LightScalar;
  name: string;
  fields: Fields;
}
interface Fields {
  code?: LightScalar;
  category?: string;
  template?: string;
  description?: string;
  details: { name: string; type?: string; required?: boolean; description?: string }[];
  mapsFromHttp: (number | string)[];
}

function entries(doc: TextDocument, root: LightNode | null): IndexEntries {
  const decls: Decl[] = [],
    refs: LightScalar[] = [];
  const top = root === null ? [] : root.k === 'map' ? root.pairs : bail();
  for (const p of top) {
    const key = keyString(p.key);
    const v = p.value;
    if (key === 'error_codes' && v.k === 'map') {
      for (const c of v.pairs) {
        const name = keyString(c.key);
        if (name !== undefined) decls.push({ key: c.key, name, fields: fields(c.value.k === 'map' ? c.value : undefined) });
      }
    } else if (key === 'error_mapping' && v.k === 'map') {
      for (const m of v.pairs) {
        const items = m.value.k === 'seq' ? m.value.items : [m.value];
        for (const it of items) {
          const code = it.k === 'map' ? fields(it).code : undefined;
          if (code) refs.push(code);
        }
      }
    }
  }
  const uri = doc.uri;
  const at = positionsIn(doc.getText());
  const range = (s: number, e: number): Range => ({ start: at(s), end: at(e) });
  // A quoted key or code is named without its quotes (util/quotes.ts unquotedSpan, features/cursor.ts nameSpan).
  const keyRange = (k: LightScalar) => (k.style !== 'plain' ? range(k.start + 1, k.end - 1) : range(k.start, k.end));
  // Built by push from empty literals, not by `map`: an array `map` makes has another elements kind once this
  // function is optimised (its `map` inlined) than before, and the `map` and `push` that read it deoptimised the
  // function twice per thread (`--trace-deopt`: "wrong map"), each time compiled again (bench/NOTES.md, "the
  // second isolate's warm-up").
  const declarations: CodeDeclaration[] = [];
  for (const d of decls)
    declarations.push({
      uri,
      code: d.name,
      range: keyRange(d.key),
      category: d.fields.category,
      template: d.fields.template,
      description: d.fields.description,
      details: d.fields.details,
      mapsFromHttp: d.fields.mapsFromHttp,
    });
  const occurrences: CodeOccurrence[] = [];
  for (const d of declarations) occurrences.push({ uri, code: d.code, range: d.range, kind: 'declaration' });
  for (const r of refs) occurrences.push({ uri, code: r.value as string, range: keyRange(r), kind: 'reference' });
  return { declarations, occurrences };
}

/** An entry's fields as extract.ts `entryFields` reads them (the last of a repeated key wins). */
function fields(map: LightMap | undefined): Fields {
  const f: Fields = { details: [], mapsFromHttp: [] };
  for (const p of map?.pairs ?? []) {
    const v = p.value;
    switch (keyString(p.key)) {
      case 'code':
        f.code = v.k === 'scalar' && typeof v.value === 'string' ? v : undefined;
        break;
      case 'category': {
        const c = str(v);
        f.category = c === undefined ? undefined : c.replace(/_$/, '');
        break;
      }
      case 'message_template':
        f.template = str(v);
        break;
      case 'maps_from_http':
        if (v.k === 'seq')
          for (const it of v.items) {
            if (it.k !== 'scalar') continue;
            const x = it.value;
            if (x === OTHER) bail();
            let value: number | string = typeof x === 'number' ? x : String(x);
            if (typeof x === 'string' && /^\d{3}$/.test(x)) value = Number(x);
            if (typeof x === 'string' && /^[1-5]xx$/i.test(x)) value = x.toUpperCase();
            f.mapsFromHttp.push(value);
          }
        break;
      case 'details':
        f.details = details(v);
        break;
      case 'description':
        f.description = str(v);
        break;
    }
  }
  return f;
}

function details(n: LightNode): Fields['details'] {
  const out: Fields['details'] = [];
  if (n.k === 'map') {
    for (const p of n.pairs) {
      const name = keyString(p.key);
      if (name === undefined) continue;
      const v = p.value;
      let type: string | undefined, required: boolean | undefined, description: string | undefined;
      if (v.k === 'scalar') type = typeof v.value === 'string' ? v.value : undefined;
      else if (v.k === 'map') {
        // toJSON: the last of a repeated key wins.
        for (const q of v.pairs) {
          const k = keyString(q.key),
            x = q.value;
          const s = x.k === 'scalar' ? x.value : undefined;
          if (k === 'type') type = typeof s === 'string' ? s : undefined;
          else if (k === 'required') required = typeof s === 'boolean' ? s : undefined;
          else if (k === 'description') description = typeof s === 'string' ? s : undefined;
        }
      }
      out.push({ name, type, required, description });
    }
  } else if (n.k === 'seq') {
    for (const it of n.items)
      if (it.k === 'scalar' && typeof it.value === 'string')
        out.push({ name: it.value, type: undefined, required: undefined, description: undefined });
  }
  return out;
}
