/**
 * The linter descriptors of integrations/ (docs/ci.md, "MegaLinter" and "trunk"): each read with the yaml
 * package, its file pattern matched against adapter names and others, and the command it builds run
 * in-process the way the engine runs it — MegaLinter's `cli_executable` + `cli_lint_extra_args` + the
 * SARIF arguments + the files; trunk's `run` with `${target}` the files — so a descriptor cannot drift
 * from the options `check` takes.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, run, tempTree } from './helpers';

const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';
const CLEAN = 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n';
const ADAPTERS = ['notes.adapter.yaml', 'a/b/github-adapter.yml', 'x.adapter.json', 'spec-adapter.md', 'y-adapter.yaml'];
const OTHERS = ['docker-compose.yaml', 'package.json', 'README.md', 'adapter.yaml', 'notes.adapter.yaml.bak'];

interface MegaLinter {
  descriptor_id: string;
  file_names_regex: string[];
  file_extensions: string[];
  linters: {
    name: string;
    cli_lint_mode: string;
    cli_executable: string[];
    cli_lint_extra_args: string[];
    can_output_sarif: boolean;
    cli_sarif_args: string[];
    cli_lint_errors_count: string;
    cli_lint_errors_regex: string;
    config_file_name: string;
    install: { npm: string[] };
  }[];
}
interface Trunk {
  tools: { definitions: { name: string; runtime: string; package: string; shims: string[] }[] };
  lint: {
    files: { name: string; regexes: string[] }[];
    definitions: {
      name: string;
      files: string[];
      tools: string[];
      commands: { name: string; run: string; output: string; read_output_from: string; batch: boolean; success_codes: number[] }[];
    }[];
  };
}
interface Sarif {
  version: string;
  runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
}

const read = <T>(path: string) => parse(readFileSync(join(ROOT, path), 'utf8')) as T;
const megalinter = read<MegaLinter>('integrations/megalinter/mcp-aql-errors.megalinter-descriptor.yml');
const trunk = read<Trunk>('integrations/trunk/plugin.yaml');

/** The project: one adapter with a misspelt code, one clean. */
async function inProject<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = tempTree({ 'adapters/bad.adapter.yaml': BAD, 'adapters/good.adapter.yaml': CLEAN });
  try {
    return await f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('MegaLinter: the descriptor runs `mcp-aql-errors check` on adapter files, SARIF on request', async () => {
  const [linter] = megalinter.linters;
  assert.equal(megalinter.linters.length, 1);
  assert.equal(linter!.name, 'MCP_AQL_ERRORS');
  assert.deepEqual([...linter!.cli_executable, ...linter!.cli_lint_extra_args], ['mcp-aql-errors', 'check']);
  assert.equal(linter!.cli_lint_mode, 'list_of_files', 'one run for all adapters: codes declared in one are known in the others');
  assert.equal(linter!.config_file_name, '.mcp-aql.yaml');
  assert.deepEqual(linter!.install.npm, ['mcp-aql-errors']);
  // file_names_regex: a full match on the base name (Python's re.fullmatch).
  const names = megalinter.file_names_regex.map(r => new RegExp(`^(?:${r})$`));
  const adapter = (p: string) => names.some(r => r.test(p.split('/').pop()!)) && megalinter.file_extensions.some(e => p.endsWith(e));
  for (const p of ADAPTERS) assert.ok(adapter(p), p);
  for (const p of OTHERS) assert.ok(!adapter(p), p);

  assert.equal(linter!.can_output_sarif, true);
  await inProject(async dir => {
    const sarifArgs = linter!.cli_sarif_args.map(a => a.replace('{{SARIF_OUTPUT_FILE}}', 'report/mcp.sarif'));
    const files = ['adapters/bad.adapter.yaml', 'adapters/good.adapter.yaml'];
    const withSarif = await run([...linter!.cli_lint_extra_args, ...sarifArgs, ...files], dir);
    assert.equal(withSarif.code, 1, withSarif.err);
    const sarif = JSON.parse(readFileSync(join(dir, 'report/mcp.sarif'), 'utf8')) as Sarif;
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(
      sarif.runs[0]!.results.map(r => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri]),
      [['mapping.unknown-code', 'adapters/bad.adapter.yaml']],
    );
    // Without the SARIF reporter: the text report, its errors counted by cli_lint_errors_regex.
    const text = await run([...linter!.cli_lint_extra_args, ...files], dir);
    assert.equal(linter!.cli_lint_errors_count, 'regex_number');
    assert.equal(new RegExp(linter!.cli_lint_errors_regex).exec(text.out)?.[1], '1', text.out);
  });
});

test('trunk: the plugin runs `mcp-aql-errors check --format sarif` on adapter files, parsed as SARIF', async () => {
  const [tool] = trunk.tools.definitions;
  assert.deepEqual([tool!.runtime, tool!.package, tool!.shims], ['node', 'mcp-aql-errors', ['mcp-aql-errors']]);
  const [def] = trunk.lint.definitions;
  assert.deepEqual([def!.name, def!.tools], ['mcp-aql-errors', ['mcp-aql-errors']]);
  const types = trunk.lint.files.filter(f => def!.files.includes(f.name));
  assert.equal(types.length, def!.files.length, 'every file type the linter names is defined');
  const adapter = (p: string) => types.some(t => t.regexes.some(r => new RegExp(r).test(p)));
  for (const p of ADAPTERS) assert.ok(adapter(p), p);
  for (const p of OTHERS) assert.ok(!adapter(p), p);

  const [lint] = def!.commands;
  assert.deepEqual([lint!.output, lint!.read_output_from, lint!.batch], ['sarif', 'stdout', true]);
  const words = lint!.run.split(/\s+/);
  assert.deepEqual(words.slice(0, 4), ['mcp-aql-errors', 'check', '--format', 'sarif']);
  await inProject(async dir => {
    const argv = words.slice(1).flatMap(w => (w === '${target}' ? ['adapters/bad.adapter.yaml', 'adapters/good.adapter.yaml'] : [w]));
    const r = await run(argv, dir);
    assert.ok(lint!.success_codes.includes(r.code), `exit ${r.code} is a result, not a failure of the run`);
    const sarif = JSON.parse(r.out) as Sarif;
    assert.deepEqual(
      sarif.runs[0]!.results.map(x => x.ruleId),
      ['mapping.unknown-code'],
    );
    // Bad usage (exit 2) is not among the codes trunk takes for results.
    assert.ok(!lint!.success_codes.includes(2));
  });
});
