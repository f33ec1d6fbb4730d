/**
 * The repository's own CI (.github/workflows/ci.yml), on push and pull request: one job runs `.ci/run`
 * (what CONTRIBUTING.md's fresh clone runs), another runs this repository's own Action (`uses: ./`) on
 * its examples. The Action's check step is run here on the workflow's own inputs, the way the runner
 * runs a composite step (inputs through env, `bash -eo pipefail`), in a copy of examples/: the clean
 * adapters pass (SARIF written, and the workflow's SARIF check accepts it), the broken ones fail.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, tempTree } from './helpers';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
  shell?: string;
  'continue-on-error'?: boolean;
}
interface Job {
  'runs-on': string;
  container?: string;
  steps: Step[];
}
const workflow = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
};
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default: string }>;
  runs: { steps: (Step & { run: string; env: Record<string, string> })[] };
};
const allSteps = Object.values(workflow.jobs).flatMap(j => j.steps);
const local = allSteps.filter(s => s.uses === './');

/** The Action's check step with these inputs (the rest at their defaults), as the runner runs it. */
function runAction(cwd: string, inputs: Record<string, string | number> = {}) {
  const all: Record<string, string> = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default]));
  for (const [k, v] of Object.entries(inputs)) all[k] = String(v);
  const step = action.runs.steps.find(s => s.if === "inputs.mode != 'diff'")!;
  const expr = (s: string) =>
    s.replace(/\$\{\{\s*(inputs\.([\w-]+)|github\.action_path)\s*\}\}/g, (_, _w, name?: string) => (name ? (all[name] ?? '') : ROOT));
  const env = Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, expr(v)]));
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('ci.yml: on every push and pull request, read-only, no expression pasted into a script', () => {
  assert.deepEqual(Object.keys(workflow.on).sort(), ['pull_request', 'push']);
  assert.deepEqual(workflow.permissions, { contents: 'read' });
  for (const s of allSteps) assert.ok(!s.run?.includes('${{'), `${s.name ?? s.uses}: no expression in a script (injection)`);
  for (const job of Object.values(workflow.jobs)) assert.equal(job.steps[0]!.uses, 'actions/checkout@v4');
});

test('ci.yml: a job runs .ci/run on Node 20 as root (what .ci/run expects), and .ci/run runs npm ci, npm start and npm test', () => {
  const jobs = Object.values(workflow.jobs).filter(j => j.steps.some(s => s.run === 'bash .ci/run'));
  assert.equal(jobs.length, 1, 'one job runs bash .ci/run');
  assert.match(jobs[0]!.container ?? '', /^node:20-/, 'Node 20, root and apt: the Debian Node image');
  const script = readFileSync(join(ROOT, '.ci/run'), 'utf8');
  for (const cmd of ['npm ci', 'npm run setup:e2e', 'npm start', 'npm test']) assert.match(script, new RegExp(`^${cmd}\\b`, 'm'), cmd);
});

test('ci.yml: the Action (uses: ./) passes on the clean examples with SARIF and fails on the broken ones', () => {
  const job = Object.values(workflow.jobs).find(j => j.steps.some(s => s.uses === './'))!;
  const node = job.steps.find(s => s.uses === 'actions/setup-node@v4');
  assert.equal(node?.with?.['node-version'], 20);
  assert.equal(local.length, 2);
  const [clean, broken] = local as [Step, Step];
  for (const s of local) for (const k of Object.keys(s.with ?? {})) assert.ok(k in action.inputs, `${k} is an input of action.yml`);

  // The clean adapters: each exists in examples/ outside broken/, as `npm start` lists them.
  const paths = String(clean.with!.paths).split(' ');
  const start = readFileSync(join(ROOT, 'scripts/start.mjs'), 'utf8');
  for (const p of paths) {
    assert.ok(existsSync(join(ROOT, p)) && p.startsWith('examples/') && !p.startsWith('examples/broken/'), p);
    assert.ok(start.includes(`'${p}'`), `${p} is one of npm start's clean examples`);
  }
  const dir = tempTree({});
  cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
  const ok = runAction(dir, clean.with);
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.equal(ok.out, '');
  // The workflow's next step checks the SARIF file: run its script there.
  const sarifStep = job.steps[job.steps.indexOf(clean) + 1]!;
  assert.ok(existsSync(join(dir, String(clean.with!['sarif-file']))));
  const check = spawnSync('bash', ['-eo', 'pipefail', '-c', sarifStep.run!], { cwd: dir, encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);

  // The broken examples fail the step; the step after it fails the job unless they did.
  assert.equal(broken.with!.paths, 'examples/broken');
  assert.equal(broken['continue-on-error'], true);
  const bad = runAction(dir, broken.with);
  assert.equal(bad.code, 1, bad.err);
  assert.match(bad.out, /^::error file=examples\/broken\//m);
  const gate = job.steps[job.steps.indexOf(broken) + 1]!;
  assert.equal(gate.if, `steps.${broken.id}.outcome != 'failure'`);
  assert.equal(spawnSync('bash', ['-eo', 'pipefail', '-c', gate.run!], { encoding: 'utf8' }).status, 1);
});
