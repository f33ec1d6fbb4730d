/**
 * The workspace scan's thread runs below the rest of the server on Linux (node/indexThread.ts, SCAN_THREAD_NICE,
 * set by the loader dist/server.js before it compiles the bundle): its nice value is the thread's own, the
 * server's main thread keeps its priority, and the thread still answers. Run on the built dist/server.js.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexThread, SCAN_THREAD_NICE } from '../../server/src/node/indexThread';

const ROOT = join(__dirname, '..', '..');
const ADAPTER = 'name: x\ntype: adapter\nerror_codes:\n  X_ONE:\n    category: NOT_FOUND\n    message_template: "x"\n';

/** The nice value of each thread of this process, by thread id (/proc/self/task/<tid>/stat, field 19). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // After "pid (comm) ": state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

test(
  'the scan thread runs at SCAN_THREAD_NICE on Linux, the main thread at its own priority',
  { skip: process.platform !== 'linux' && 'Linux only' },
  async () => {
    const before = niceByThread();
    const thread = new IndexThread(join(ROOT, 'dist', 'server.js'));
    try {
      // An answer: the thread has loaded the bundle (and lowered its priority before that).
      const entries = await thread.entries('file:///x.adapter.yaml', ADAPTER, {});
      assert.ok(entries, 'the thread read the adapter');
      const after = niceByThread();
      const added = [...after].filter(([tid]) => !before.has(tid));
      assert.ok(
        added.some(([, nice]) => nice === SCAN_THREAD_NICE),
        `a new thread at nice ${SCAN_THREAD_NICE}: ${JSON.stringify(added)}`,
      );
      assert.equal(after.get(process.pid), before.get(process.pid), 'the main thread keeps its priority');
      assert.ok(
        [...before].every(([tid, nice]) => !after.has(tid) || after.get(tid) === nice),
        'no thread that was there before changed its priority',
      );
    } finally {
      thread.close();
    }
  },
);
