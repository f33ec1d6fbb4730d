/**
 * Push diagnostics (lsp/diagnostics.ts): a lone change is validated at once (no fixed delay), changes
 * that arrive together or during a validation are validated once at their newest version, and a
 * superseded version is never published. The event loop is played by hand: `turn()` runs what was
 * deferred, as one setImmediate round does, and the JSON-RPC connection delivers one message per turn.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Connection, Diagnostic, PublishDiagnosticsParams, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticsScheduler } from '../../server/src/lsp/diagnostics';
import { PieceDocument } from '../../server/src/lsp/pieceDocument';
import { ServerDocuments } from '../../server/src/lsp/textDocuments';
import type { ClientFeatures } from '../../server/src/lsp/capabilities';
import { inMemory, PLAIN } from './harness';

const URI = 'file:///w/a.adapter.yaml';

function setup(opts: { pull?: boolean; hold?: boolean; refresh?: boolean; slowWrite?: boolean } = {}) {
  const docs = new Map<string, TextDocument>();
  const published: PublishDiagnosticsParams[] = [];
  const validated: number[] = [];
  const held: (() => void)[] = [];
  let deferred: (() => void)[] = [];
  /** The warm-ups asked for (uris), and what waits for `later`. */
  const warmed: string[] = [];
  let laters: (() => void)[] = [];
  let clock = 0;
  let refreshes = 0;
  const writes: (() => void)[] = [];
  const connection = {
    sendDiagnostics: (p: PublishDiagnosticsParams) => {
      published.push(p);
      // `slowWrite`: the publication's write completes when the test says (`written`), as a pipe's callback does.
      return opts.slowWrite ? new Promise<void>(res => writes.push(res)) : Promise.resolve();
    },
    languages: {
      diagnostics: {
        refresh: () => {
          refreshes++;
          return Promise.resolve();
        },
      },
    },
  } as unknown as Connection;
  const documents = { get: (uri: string) => docs.get(uri), all: () => [...docs.values()] } as unknown as TextDocuments<TextDocument>;
  const scheduler = new DiagnosticsScheduler({
    connection,
    documents,
    features: () => ({ pullDiagnostics: !!opts.pull, diagnosticRefresh: !!opts.refresh }) as ClientFeatures,
    log: () => undefined,
    defer: f => void deferred.push(f),
    later: f => void laters.push(f),
    warmUp: uri => void warmed.push(uri),
    now: () => clock,
    compute: async doc => {
      validated.push(doc.version);
      const d: Diagnostic = { message: `v${doc.version}`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };
      if (opts.hold) await new Promise<void>(res => held.push(res));
      clock += 40;
      return [d];
    },
  });
  const settle = () => new Promise<void>(res => setImmediate(res));
  return {
    scheduler,
    published,
    validated,
    held,
    /** One round of the event loop: what was deferred runs, then the promises it settled. */
    async turn() {
      const fs = deferred;
      deferred = [];
      for (const f of fs) f();
      await settle();
    },
    pendingTurns: () => deferred.length,
    warmed,
    /** The pause the warm-up waits for is over: what waited runs. */
    pause() {
      const fs = laters;
      laters = [];
      for (const f of fs) f();
    },
    pendingLaters: () => laters.length,
    /** The publications' writes so far complete, and the promises that follow them run (no turn of the event loop). */
    async written() {
      for (const w of writes.splice(0)) w();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
    refreshes: () => refreshes,
    /** The document changes (as documents.ts does: the new version, then schedule). */
    change(version: number, uri = URI) {
      docs.set(uri, TextDocument.create(uri, 'yaml', version, `v${version}`));
      scheduler.schedule(uri);
    },
    open(version: number, uri = URI) {
      docs.set(uri, TextDocument.create(uri, 'yaml', version, `v${version}`));
      scheduler.schedule(uri, true);
    },
    drop(uri = URI) {
      docs.delete(uri);
    },
  };
}

const versions = (ps: PublishDiagnosticsParams[]) => ps.map(p => [p.version, p.diagnostics.map(d => d.message)]);

test('a lone change is validated after two turns of the event loop, and published once', async () => {
  const s = setup();
  s.change(2);
  await s.turn();
  assert.deepEqual(s.validated, []);
  await s.turn();
  assert.deepEqual(s.validated, [2]);
  assert.deepEqual(versions(s.published), [[2, ['v2']]]);
  assert.equal(s.pendingTurns(), 0);
  assert.equal(s.scheduler.editCost, 40);
});

test('changes delivered one per turn (typing faster than validations): one validation of the newest version', async () => {
  const s = setup();
  for (let v = 2; v <= 7; v++) {
    s.change(v);
    await s.turn();
  }
  assert.deepEqual(s.validated, []);
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [7]);
  assert.deepEqual(versions(s.published), [[7, ['v7']]]);
  await s.turn();
  assert.equal(s.pendingTurns(), 0);
});

test('changes during a validation: the running one is not published, the newest is validated once after it', async () => {
  const s = setup({ hold: true });
  s.change(2);
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [2]);
  s.change(3);
  await s.turn();
  s.change(4);
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [2], 'no second validation while one runs');
  s.held.shift()!();
  await s.turn();
  assert.deepEqual(s.published, [], 'v2 is superseded');
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [2, 4]);
  s.held.shift()!();
  await s.turn();
  assert.deepEqual(versions(s.published), [[4, ['v4']]]);
  assert.equal(s.pendingTurns(), 0);
});

test('a change right after a validation ends (the client answered the diagnostics) is validated at once again', async () => {
  const s = setup();
  for (const v of [2, 3, 4]) {
    s.change(v);
    await s.turn();
    await s.turn();
  }
  assert.deepEqual(s.validated, [2, 3, 4]);
  assert.deepEqual(versions(s.published), [
    [2, ['v2']],
    [3, ['v3']],
    [4, ['v4']],
  ]);
});

test('documents are independent: a burst in one does not hold back the other', async () => {
  const s = setup();
  const B = 'file:///w/b.adapter.yaml';
  s.change(2);
  s.change(5, B);
  await s.turn();
  s.change(3);
  await s.turn();
  assert.deepEqual(s.validated, [5], 'b is validated while a still receives changes');
  await s.turn();
  assert.deepEqual(s.validated, [5]);
  await s.turn();
  assert.deepEqual(s.validated, [5, 3]);
  assert.deepEqual(
    s.published.map(p => [p.uri, p.version]),
    [
      [B, 5],
      [URI, 3],
    ],
  );
});

test('closing during a validation: only the clearing empty list is published; opening is not an edit', async () => {
  const s = setup({ hold: true });
  s.open(1);
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [1]);
  s.drop();
  s.scheduler.closed(URI);
  s.held.shift()!();
  await s.turn();
  assert.deepEqual(
    s.published.map(p => [p.uri, p.diagnostics.length]),
    [[URI, 0]],
  );
  assert.equal(s.scheduler.editCost, 0, 'the open was not measured');
  s.change(2);
  s.scheduler.dispose();
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [1], 'nothing runs after dispose');
});

test('a pulling client gets nothing pushed', async () => {
  const s = setup({ pull: true });
  s.change(2);
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, []);
  assert.deepEqual(s.published, []);
  assert.equal(s.pendingTurns(), 0);
});

test('idle(): nothing while no validation waits or runs; else a promise kept once the last one is published', async () => {
  const s = setup({ hold: true });
  assert.equal(s.scheduler.idle(), undefined, 'nothing scheduled');
  s.open(1);
  let idle = false;
  void s.scheduler.idle()!.then(() => (idle = true));
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [1]);
  s.change(2); // during the validation: validated again after it, and the scheduler stays busy until then
  s.held.shift()!();
  await s.turn();
  assert.equal(idle, false, 'v2 still waits');
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [1, 2]);
  assert.equal(idle, false, 'v2 runs');
  s.held.shift()!();
  await s.turn();
  assert.deepEqual(versions(s.published), [[2, ['v2']]]);
  assert.equal(idle, true);
  assert.equal(s.scheduler.idle(), undefined);
});

test('idle(): a pull being answered counts; closing the document or disposing frees whoever waits', async () => {
  const p = setup({ pull: true, hold: true });
  p.open(1);
  const answer = p.scheduler.pull(URI);
  let idle = false;
  void p.scheduler.idle()!.then(() => (idle = true));
  await p.turn();
  assert.equal(idle, false);
  p.held.shift()!();
  await answer;
  await p.turn();
  assert.equal(idle, true);

  const s = setup({ hold: true });
  s.open(1);
  let freed = false;
  void s.scheduler.idle()!.then(() => (freed = true));
  await s.turn();
  s.drop();
  s.scheduler.closed(URI); // closed before its validation started
  await s.turn();
  assert.equal(freed, true);
  s.open(2);
  let disposed = false;
  void s.scheduler.idle()!.then(() => (disposed = true));
  s.scheduler.dispose();
  await s.turn();
  assert.equal(disposed, true);
});

test('checkedOnce(): kept once every open document was validated (pushed or pulled) or closed', async () => {
  const s = setup();
  const B = 'file:///w/b.adapter.yaml';
  s.open(1);
  s.open(1, B);
  let done = false;
  void s.scheduler.checkedOnce([URI, B])!.then(() => (done = true));
  await s.turn();
  await s.turn();
  assert.deepEqual(s.validated, [1, 1]);
  await s.turn();
  assert.equal(done, true);
  assert.equal(s.scheduler.checkedOnce([URI, B]), undefined, 'both were checked');
  s.drop(B);
  s.scheduler.closed(B);
  s.open(1, B);
  assert.ok(s.scheduler.checkedOnce([B]), 'opened again: not checked since');

  const p = setup({ pull: true });
  p.open(1);
  let pulled = false;
  void p.scheduler.checkedOnce([URI])!.then(() => (pulled = true));
  await p.scheduler.pull(URI);
  await p.turn();
  assert.equal(pulled, true);
  const q = setup({ pull: true });
  q.open(1);
  let closed = false;
  void q.scheduler.checkedOnce([URI])!.then(() => (closed = true));
  q.drop();
  q.scheduler.closed(URI);
  await q.turn();
  assert.equal(closed, true, 'closed without a pull');
});

test('the real server over JSON-RPC: six changes sent together give one validation, published once at the last version', async () => {
  const c = await inMemory(PLAIN);
  try {
    const uri = 'file:///w/burst.adapter.yaml';
    const text = (n: number) =>
      `error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "gone ${n}"\nerror_mapping:\n  404:\n    code: NOT_FOUNDX\n`;
    await c.open(uri, text(0));
    await c.waitForDiagnostics(uri);
    const before = c.publications.length;
    await Promise.all(
      [2, 3, 4, 5, 6, 7].map(v =>
        c.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ text: text(v) }] }),
      ),
    );
    await c.waitForDiagnostics(uri, () => c.published.get(uri)?.version === 7);
    await new Promise(r => setTimeout(r, 100));
    assert.deepEqual(
      c.publications.slice(before).map(p => [p.version, p.diagnostics.map(d => d.code)]),
      [[7, ['mapping.unknown-code']]],
    );
  } finally {
    await c.close();
  }
});

test('a pulling client is asked to pull again only when a document besides the one that changed is open', async () => {
  const s = setup({ pull: true, refresh: true });
  const other = 'file:///w/b.adapter.yaml';
  s.open(1);
  s.scheduler.refreshAll(URI);
  await new Promise(res => setTimeout(res, 150));
  assert.equal(s.refreshes(), 0, 'the changed document alone: its own pull already saw the change');
  s.open(1, other);
  s.scheduler.refreshAll(URI);
  await new Promise(res => setTimeout(res, 150));
  assert.equal(s.refreshes(), 1, 'another open document depends on it');
  s.scheduler.refreshAll();
  await new Promise(res => setTimeout(res, 150));
  assert.equal(s.refreshes(), 2, 'a change from no open document (the scan): every open one is pulled again');
  s.scheduler.dispose();
});

test("the warm-up: once per open, as soon as the document's first diagnostics are written, before the next turn (pushed and pulled)", async () => {
  const s = setup({ slowWrite: true });
  s.open(1);
  await s.turn();
  await s.turn();
  assert.deepEqual(versions(s.published), [[1, ['v1']]]);
  assert.deepEqual(s.warmed, [], 'not before the diagnostics are written');
  await s.written();
  assert.deepEqual(s.warmed, [URI], 'at once, with no turn and no pause in between');
  assert.equal(s.pendingTurns(), 0);
  assert.equal(s.pendingLaters(), 0);
  s.change(2);
  await s.turn();
  await s.turn();
  await s.written();
  await s.turn();
  s.pause();
  assert.deepEqual(s.warmed, [URI], 'not after a keystroke: it ran the path itself');
  assert.equal(s.pendingLaters(), 0);
  // Closed and opened again: once more.
  s.drop();
  s.scheduler.closed(URI);
  s.open(3);
  await s.turn();
  await s.turn();
  await s.written();
  await s.turn();
  assert.deepEqual(s.warmed, [URI, URI]);

  const p = setup({ pull: true });
  p.open(1);
  await p.scheduler.pull(URI);
  assert.deepEqual(p.warmed, [], 'not before the answer is written (the turn after it)');
  await p.turn();
  assert.deepEqual(p.warmed, [URI]);
  await p.scheduler.pull(URI);
  await p.turn();
  assert.deepEqual(p.warmed, [URI], 'once');
});

test('the warm-up: none when the document changed or closed before its diagnostics were out; later again while a validation waits', async () => {
  const s = setup({ hold: true });
  s.open(1);
  await s.turn();
  await s.turn();
  s.change(2);
  s.held.shift()!();
  await s.turn();
  assert.deepEqual(versions(s.published), [], 'superseded: not published');
  assert.deepEqual(s.warmed, [], 'edited since: the keystroke runs the path itself');
  await s.turn();
  await s.turn();
  s.held.shift()!();
  await s.turn();
  s.pause();
  assert.deepEqual(versions(s.published), [[2, ['v2']]]);
  assert.deepEqual(s.warmed, [], 'checked once already');

  const c = setup({ hold: true });
  c.open(1);
  await c.turn();
  await c.turn();
  c.drop();
  c.scheduler.closed(URI);
  c.held.shift()!();
  await c.turn();
  c.pause();
  assert.deepEqual(c.warmed, [], 'closed');

  const b = setup();
  const other = 'file:///w/b.adapter.yaml';
  b.open(1);
  await b.turn();
  b.open(1, other);
  await b.turn();
  assert.deepEqual(versions(b.published), [[1, ['v1']]]);
  assert.deepEqual(b.warmed, [], 'another document waits for its validation');
  assert.equal(b.pendingLaters(), 1, 'asked again later');
  await b.turn();
  assert.deepEqual(b.warmed, [other], "the other's own, once its diagnostics are out");
  b.pause();
  assert.deepEqual(b.warmed, [other, URI]);
  assert.equal(b.pendingLaters(), 0);
});

/** The scheduler over the server's documents holding one open adapter: what it computed, edited, warmed and published. */
async function openedInServerDocuments(rehearseFrom: number) {
  const text = 'name: x\nerror_codes:\n  A_B:\n    category: VALIDATION\n';
  const doc = new PieceDocument(URI, 'yaml', 1, text);
  const edits: [number, number, string][] = [];
  // The server's documents (lsp/textDocuments.ts), holding one open document.
  const documents = Object.assign(Object.create(ServerDocuments.prototype) as ServerDocuments, {
    edited: (_u: string, from: number, to: number, e: { start: number; end: number; text: string }[]) =>
      edits.push([from, to, e.map(x => `${x.start}-${x.end}:${JSON.stringify(x.text)}`).join()]),
    get: (uri: string) => (uri === URI ? doc : undefined),
    all: () => [doc],
  });
  const published: PublishDiagnosticsParams[] = [];
  const computed: [number, string][] = [];
  let deferred: (() => void)[] = [];
  const warmed: string[] = [];
  const scheduler = new DiagnosticsScheduler({
    connection: { sendDiagnostics: (p: PublishDiagnosticsParams) => (published.push(p), Promise.resolve()) } as unknown as Connection,
    documents,
    features: () => ({ pullDiagnostics: false }) as ClientFeatures,
    log: () => undefined,
    defer: f => void deferred.push(f),
    later: () => undefined,
    warmUp: uri => void warmed.push(uri),
    rehearseFrom,
    compute: async d => (computed.push([d.version, d.getText()]), []),
  });
  scheduler.schedule(URI, true);
  for (let i = 0; i < 2; i++) {
    const fs = deferred;
    deferred = [];
    for (const f of fs) f();
    await new Promise(res => setImmediate(res));
  }
  await new Promise(res => setImmediate(res));
  return { text, doc, computed, edits, warmed, published };
}

test('the warm-up of a document with an entry to type in: a keystroke rehearsed on a copy, validated as a change and undone, nothing published', async () => {
  const { text, doc, computed, edits, warmed, published } = await openedInServerDocuments(0);
  const site = text.indexOf('A_B:') + 4;
  assert.deepEqual(warmed, [], 'the rehearsal moves the entries itself: no separate warm-up of the move');
  assert.deepEqual(computed, [
    [1, text],
    [-1, text.slice(0, site) + ' ' + text.slice(site)],
    [1, text],
  ]);
  assert.deepEqual(edits, [
    [1, -1, `${site}-${site}:" "`],
    [-1, 1, `${site}-${site + 1}:""`],
  ]);
  assert.deepEqual(
    published.map(p => p.version),
    [1],
    'the rehearsal publishes nothing',
  );
  assert.equal(doc.version, 1);
  assert.equal(doc.getText(), text);
});

test('the warm-up of a document smaller than rehearseFrom: the move alone', async () => {
  const { text, computed, edits, warmed } = await openedInServerDocuments(10_000);
  assert.deepEqual(warmed, [URI]);
  assert.deepEqual(computed, [[1, text]]);
  assert.deepEqual(edits, []);
});
