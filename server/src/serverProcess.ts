// How the editor's client starts the language server: its V8 flags and what it adds to its environment. Imports
// nothing: the client's loader (client/src/loadClient.ts, dist/client.js) forks the server with them before the
// client's bundle loads, and stays small; protocol.ts re-exports them for everyone else.

/**
 * V8 flags the editor's client starts the language server with (and the benches, which measure the server
 * as the editor runs it). A 4 MB semi-space (V8's default on a 64-bit machine grows it to 16 MB): the young
 * generation's peak is most of what a large file's open adds to the server's peak memory, and its objects
 * either die young or belong to the model for good (docs/performance.md, bench/NOTES.md "Peak memory").
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=4'];

/**
 * Environment the editor's client adds to the language server's (and the benches, as for the flags). One glibc
 * malloc arena: the workspace scan's thread (node/indexThread.ts) mallocs its file's read and its isolate's
 * buffers in an arena of its own, and glibc keeps what that thread frees in its arena instead of handing it to
 * the main thread or the system: 10-13 MB held after the thread ends, about a tenth of the server's peak at
 * 10,000 codes (bench/NOTES.md, "seventh sitting"). Other C libraries and systems ignore the variable.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };
