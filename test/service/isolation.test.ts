/** Crash isolation at the service: a rule that throws costs one diagnostic naming it; the others report. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { checks } from '../../server/src/service/checks';
import { runChecks } from '../../server/src/service/checks/runChecks';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { indexRegistry } from '../../server/src/service/model/registry';
import { emptyWorkspace } from '../../server/src/service/model/workspace';
import { loadDeps, yamlDoc } from './helpers';
import Ajv from 'ajv';

test('a throwing rule yields internal.rule-failure naming it, and every other rule still reports', () => {
  const model = buildModel('file:///w/x.adapter.yaml', yamlDoc('error_codes:', '  bad_name:', '    category: NOPE'))!;
  const boom = {
    name: 'boom',
    run() {
      throw new Error('kaboom');
    },
  };
  const deps = loadDeps();
  const problems = runChecks([boom, ...checks], {
    model,
    registry: indexRegistry(deps.registry),
    validateSchema: new Ajv({ strict: false }).compile(deps.schema),
    workspace: emptyWorkspace,
  });
  const codes = problems.map(p => p.code);
  assert.ok(codes.includes('internal.rule-failure'));
  assert.match(problems.find(p => p.code === 'internal.rule-failure')!.message, /rule 'boom': kaboom/);
  assert.ok(codes.includes('code.name-format') && codes.includes('code.unknown-category'));
});
