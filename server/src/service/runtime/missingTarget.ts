/**
 * Arguments that pass a tool's input schema and name what cannot exist, so that the server's own error
 * path answers, not the schema check in front of it: a file inside the roots the server was given that
 * the probe made up, an id no one issued, a page on a loopback port nothing listens on. Which parameter
 * names a thing is read from its name and type (a path, a URI, an id); whether the tool may be called
 * at all is never read from names (probeCases.ts: read-only hints, read operations, the sandbox).
 */

/** The made-up name every missing target carries, so a server's log shows where it came from. */
export const MISSING_NAME = 'mcp-aql-probe-missing';
/** A number no one issued: far above any real id, still a safe 32-bit integer. */
export const MISSING_NUMBER = 2_000_000_017;

export type TargetKind = 'path' | 'folder' | 'uri' | 'url' | 'id';

export interface MissingTarget {
  readonly param: string;
  readonly kind: TargetKind;
  readonly value: string | number;
}

const PATH = /^(?:.*[_-])?(?:path|file|filename|filepath|source|destination|target)$|(?:Path|File|FileName|FilePath)$/i;
const FOLDER = /^(?:.*[_-])?(?:dir|directory|folder)$|(?:Dir|Directory|Folder)$|^(?:dir|directory|folder)(?:_?path|_?name|Path|Name)$/i;
const URI = /^(?:.*[_-])?uri$|Uri$/i;
const URL_PARAM = /^(?:.*[_-])?(?:url|href|link)$|(?:Url|Href)$/;
// `issue_number` names an issue; a camelCase `…Number` (thoughtNumber, pageNumber, lineNumber) counts
// or places more often than it names: sequential-thinking's thoughtNumber accepts any number.
const ID = /^(?:.*[_-])?(?:id|key|slug|ref|sku|identifier|handle|number|name)$|(?:Id|Key|Slug|Name)$/;

/** Joins a root and a name with the root's own separator (a Windows root keeps its backslashes). */
function inside(root: string, name: string): string {
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  return root.endsWith(sep) ? root + name : root + sep + name;
}

/**
 * The value for one parameter that names a missing thing, or undefined when the parameter names
 * nothing the probe can make up. `roots`: the folders the server was given (its first one is used).
 */
export function missingValue(name: string, type: string | undefined, roots: readonly string[]): MissingTarget | undefined {
  const root = roots[0];
  if (type === 'string' || type === undefined) {
    if (FOLDER.test(name)) return { param: name, kind: 'folder', value: root ? inside(root, MISSING_NAME) : MISSING_NAME };
    if (PATH.test(name)) return { param: name, kind: 'path', value: root ? inside(root, `${MISSING_NAME}.txt`) : `${MISSING_NAME}.txt` };
    if (URI.test(name))
      return { param: name, kind: 'uri', value: `file://${root ? inside(root, `${MISSING_NAME}.txt`) : `/${MISSING_NAME}.txt`}` };
    // Port 9 on the loopback address: nothing listens there, and no request leaves the machine.
    if (URL_PARAM.test(name)) return { param: name, kind: 'url', value: `http://127.0.0.1:9/${MISSING_NAME}` };
    if (ID.test(name)) return { param: name, kind: 'id', value: MISSING_NAME };
    return undefined;
  }
  if ((type === 'integer' || type === 'number') && ID.test(name)) return { param: name, kind: 'id', value: MISSING_NUMBER };
  return undefined;
}
