/**
 * Temporary folders for tests that remove themselves: every folder made here is
 * removed after the test file's last test (a root `after` hook, registered when this module loads),
 * and, should the process end another way, when it exits. scripts/test.mjs runs the tests with a
 * TMPDIR of their own and fails if anything is left in it.
 */
import { after } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];
const removeAll = () => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
};
after(removeAll);
process.on('exit', removeAll);

/** A new empty folder under the OS temp folder, removed after the file's tests. */
export function tempDir(prefix = 'mcp-aql-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A temporary folder with the given files (path → text or bytes), removed after the file's tests. */
export function tempTree(files: Record<string, string | Buffer>, prefix = 'mcp-aql-cli-'): string {
  const dir = tempDir(prefix);
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}
