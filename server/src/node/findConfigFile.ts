/**
 * The project config file that applies to a folder: the nearest `.mcp-aql.yaml|.yml|.json` at or above
 * it, found by walking up once per folder (the answer, config or none, is remembered for every folder
 * passed on the way). Shared by the CLI (`cli/config.ts`) and the server (`lsp/configFiles.ts`).
 */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONFIG_FILE_NAMES } from '../service';
import { fsPath } from './bytePaths';

const isFile = (p: string): boolean => {
  try {
    return statSync(fsPath(p)).isFile();
  } catch {
    return false;
  }
};

/** `byDir` caches the answer per folder (null: none); `load` reads a config file found at a path (null: unreadable, treated as none). */
export function findConfigFile<T>(start: string, byDir: Map<string, T | null>, load: (path: string) => T | null): T | undefined {
  const seen: string[] = [];
  let dir = start;
  let found: T | null = null;
  for (;;) {
    const hit = byDir.get(dir);
    if (hit !== undefined) {
      found = hit;
      break;
    }
    seen.push(dir);
    const name = CONFIG_FILE_NAMES.find(n => isFile(join(dir, n)));
    if (name) {
      found = load(join(dir, name));
      break;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of seen) byDir.set(d, found);
  return found ?? undefined;
}
