/**
 * An opened file's own diagnostics never wait for the workspace scan, and nothing the unread files could
 * contradict is published meanwhile: dist/server.js over stdio, in a folder of large generated adapters
 * (bench/firstDiagnostics.ts). Asserted on the order of events the client sees — publications, the scan's
 * progress and its "indexed …" log line — never on a time.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import {
  FAR_CODE,
  isScanLine,
  NOWHERE_CODE,
  runFirstDiagnostics,
  SMALL_ADAPTER,
  writeFirstDiagnosticsWorkspace,
  type Event,
} from '../../bench/firstDiagnostics';
import { tempDir } from '../tempDirs';
import { ROOT } from './harness';

const SERVER = [process.execPath, join(ROOT, 'dist', 'server.js'), '--stdio'];
/** 12 adapters of 2,400 codes (550 KB each, 6.6 MB): a scan of seconds on this machine, of many steps anywhere. */
const FILES = 12;
const CODES = 2400;

const lineOf = (code: string) => SMALL_ADAPTER.split('\n').findIndex(l => l.endsWith(`code: ${code}`));
const unknownCodes = (ds: readonly Diagnostic[]) => ds.filter(d => d.code === 'mapping.unknown-code');

function check(events: readonly Event[], smallUri: string): void {
  const scanAt = events.findIndex(isScanLine);
  assert.ok(scanAt >= 0, 'the scan logged its end');
  const publications = events.flatMap((e, i) => (e.kind === 'publish' && e.uri === smallUri ? [{ i, diagnostics: e.diagnostics }] : []));
  const own = publications.find(p => p.diagnostics.some(d => d.code === 'code.unknown-category'));
  assert.ok(own, 'the opened file got its own diagnostics');
  assert.ok(own.i < scanAt, `its own diagnostics came before the scan finished: ${JSON.stringify(events.map(e => e.kind))}`);
  // While the scan runs: the own mistake, and no mapping.unknown-code at all (either name may be declared in an unread file).
  for (const p of publications.filter(p => p.i < scanAt)) {
    assert.deepEqual(
      p.diagnostics.map(d => d.code),
      ['code.unknown-category'],
    );
  }
  // After it: the code no file declares is unknown, the far file's code never was.
  const after = publications.filter(p => p.i > scanAt);
  assert.ok(after.length, 'the open file was checked again once the scan was complete');
  const last = after.at(-1)!.diagnostics;
  assert.deepEqual(last.map(d => d.code).sort(), ['code.unknown-category', 'mapping.unknown-code']);
  const unknown = unknownCodes(last)[0]!;
  assert.equal(unknown.range.start.line, lineOf(NOWHERE_CODE));
  for (const p of publications)
    for (const d of unknownCodes(p.diagnostics)) assert.notEqual(d.range.start.line, lineOf(FAR_CODE), JSON.stringify(d.message));
}

test(
  'a file opened while the scan runs gets its own diagnostics before the scan ends, and no unknown code until it has',
  { timeout: 240_000 },
  async () => {
    assert.ok(existsSync(SERVER[1]!), 'run npm run build first (npm test does)');
    const ws = writeFirstDiagnosticsWorkspace(tempDir('mcp-aql-first-'), FILES, CODES);
    const run = await runFirstDiagnostics(SERVER, ws, 'mid-scan');
    // Opened mid-scan: the server had reported progress (files read) before the didOpen.
    assert.ok(run.events.some(e => e.kind === 'progress' && e.value.kind === 'report' && e.at < 0));
    // And the scan went on after the open file's diagnostics: more progress was reported between them and its end.
    const own = run.events.findIndex(e => e.kind === 'publish' && e.diagnostics.length);
    assert.ok(
      run.events.some((e, i) => i > own && e.kind === 'progress' && e.value.kind === 'report'),
      'the scan reported progress after the first diagnostics',
    );
    check(run.events, ws.smallUri);
    // The built server reads the scan's files in a thread of its own (node/indexThread.ts).
    assert.ok(run.events.some(e => e.kind === 'log' && /read in the scan's thread/.test(e.message)));
  },
);

test(
  'a file opened with the folder (an editor restoring it) is checked first; the unknown code waits for the scan',
  { timeout: 240_000 },
  async () => {
    const ws = writeFirstDiagnosticsWorkspace(tempDir('mcp-aql-first-'), FILES, CODES);
    const run = await runFirstDiagnostics(SERVER, ws, 'at-once');
    check(run.events, ws.smallUri);
  },
);
