/** The client's pure part of Infer Contract from Transcript…: the adapter's path beside the transcript and its name. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { adapterNameFor, adapterPathFor } from '../../client/src/infer/inferNames';

test('the adapter goes beside the transcript, named after it', () => {
  assert.equal(adapterPathFor('/w/probe.responses.jsonl'), '/w/probe.responses.adapter.yaml');
  assert.equal(adapterPathFor('/w/Session.NDJSON'), '/w/Session.adapter.yaml');
  assert.equal(adapterNameFor('/w/probe.responses.jsonl'), 'probe');
  assert.equal(adapterNameFor('/w/notes.a.jsonl'), 'notes-a');
  assert.equal(adapterNameFor('/w/My Server_log.jsonl'), 'my-server-log');
  assert.equal(adapterNameFor('/w/2026-01-01.jsonl'), undefined);
});
