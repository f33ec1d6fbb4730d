/**
 * Which files are adapter files (design s1), and where their YAML is. Pure: works on the URI's
 * path and the text only.
 */
import type { FileKind } from '../model/model';
import { matchesAny } from '../util/glob';
import type { TextSource } from '../model/textSource';

interface YamlRegion {
  readonly start: number;
  readonly end: number;
}

export interface Classified {
  readonly kind: FileKind;
  /** The YAML text regions: the whole file, or the front matter of a Markdown adapter. */
  readonly region: YamlRegion;
  /** Front matter opened with `---` but never closed. */
  readonly unclosed?: boolean;
}

const ADAPTER_MD = /(?:^|\/)[^/]*-adapter\.md$/i;
const ADAPTER_YAML = /(?:^|\/)[^/]*[.-]adapter\.ya?ml$/i;
const ADAPTER_JSON = /(?:^|\/)[^/]*\.adapter\.json$/i;
const ANY_YAML = /\.ya?ml$/i;
const ANY_JSON = /\.json$/i;
const ANY_MD = /\.(?:md|markdown)$/i;
/** Top-level keys that make any YAML file ours (design s1, "sniffed from content"). */
const SNIFF_YAML = /^(?:error_codes|error_mapping)[ \t]*:|^type[ \t]*:[ \t]*["']?adapter["']?[ \t]*(?:#.*)?$/m;
const SNIFF_JSON = /"type"\s*:\s*"adapter"|"(?:error_codes|error_mapping)"\s*:/;

export function uriPath(uri: string): string {
  const noQuery = uri.replace(/[?#].*$/, '');
  try {
    return decodeURIComponent(noQuery.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''));
  } catch {
    return noQuery;
  }
}

/** Classify a file; undefined when it is not an adapter file. Sniffing reads at most the first 64 KiB. */
export function classify(uri: string, text: TextSource, extraGlobs: readonly string[] = []): Classified | undefined {
  const path = uriPath(uri);
  const whole = { start: 0, end: text.length };
  const byGlob = extraGlobs.length > 0 && matchesAny(path, extraGlobs);
  if (ADAPTER_MD.test(path) || (byGlob && ANY_MD.test(path))) return frontMatter(text);
  if (ADAPTER_YAML.test(path)) return { kind: 'yaml', region: whole };
  if (ADAPTER_JSON.test(path)) return { kind: 'json', region: whole };
  if (byGlob) return { kind: ANY_JSON.test(path) ? 'json' : 'yaml', region: whole };
  const head = text.length > 65536 ? text.slice(0, 65536) : text.toString();
  if (ANY_YAML.test(path) && SNIFF_YAML.test(head)) return { kind: 'yaml', region: whole };
  if (ANY_JSON.test(path) && SNIFF_JSON.test(head)) return { kind: 'json', region: whole };
  return undefined;
}

/**
 * Front matter per the reference runtime (runtime.md s3.2): the first line is `---`, the block ends at
 * the next line that is only `---`. A Markdown adapter without front matter has an empty region.
 */
function frontMatter(text: TextSource): Classified {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = /^---[ \t]*\r?\n/.exec(text.slice(bom, bom + 8));
  if (!open) return { kind: 'markdown', region: { start: 0, end: 0 } };
  const start = bom + open[0].length;
  const rest = text.slice(start);
  const m = /(?:^|\n)---[ \t]*(?:\r?\n|$)/.exec(rest);
  if (!m) return { kind: 'markdown', region: { start, end: text.length }, unclosed: true };
  const end = start + m.index + (m[0].startsWith('\n') ? 1 : 0);
  return { kind: 'markdown', region: { start, end } };
}
