/**
 * The placeholder injection grammar, tokenized by VS Code's own TextMate engine (vscode-textmate +
 * vscode-oniguruma) with VS Code's own YAML, Markdown and JSON grammars — all taken from the
 * code-server that `npm run setup:e2e` installs: `{placeholders}` and codes are coloured in YAML, in
 * the front matter of a `*-adapter.md` (not in its body) and in JSON string values (not in keys).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './codeServer';

const VS = join(ROOT, '.cache', 'code-server', 'node_modules', 'code-server', 'lib', 'vscode');
const why = existsSync(join(VS, 'node_modules', 'vscode-textmate')) ? undefined : 'code-server is not installed';
const skip = why && process.env.CI !== 'true' ? `e2e: skipped — ${why}; run \`npm run setup:e2e\` to enable` : false;

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const GRAMMARS: Record<string, string> = {
  'source.yaml': 'extensions/yaml/syntaxes/yaml.tmLanguage.json',
  'source.yaml.1.2': 'extensions/yaml/syntaxes/yaml-1.2.tmLanguage.json',
  'source.yaml.1.3': 'extensions/yaml/syntaxes/yaml-1.3.tmLanguage.json',
  'source.yaml.1.1': 'extensions/yaml/syntaxes/yaml-1.1.tmLanguage.json',
  'source.yaml.1.0': 'extensions/yaml/syntaxes/yaml-1.0.tmLanguage.json',
  'text.html.markdown': 'extensions/markdown-basics/syntaxes/markdown.tmLanguage.json',
  'source.json': 'extensions/json/syntaxes/JSON.tmLanguage.json',
};

async function tokenizer() {
  type Mod = Record<string, any>;
  const load = async (m: string): Promise<Mod> => {
    const x = (await import(pathToFileURL(join(VS, 'node_modules', m, 'release', 'main.js')).href)) as Mod;
    return (x.default ?? x) as Mod;
  };
  const onig = await load('vscode-oniguruma');
  const tm = await load('vscode-textmate');
  const wasm = readFileSync(join(VS, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const ours = pkg.contributes.grammars[0];
  const registry = new tm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (s: string[]) => new onig.OnigScanner(s),
      createOnigString: (s: string) => new onig.OnigString(s),
    }),
    loadGrammar: async (scope: string) => {
      const path = scope === ours.scopeName ? join(ROOT, ours.path) : GRAMMARS[scope] ? join(VS, GRAMMARS[scope]!) : undefined;
      return path ? tm.parseRawGrammar(readFileSync(path, 'utf8'), path) : null;
    },
    getInjections: (scope: string) => (ours.injectTo.includes(scope) ? [ours.scopeName] : undefined),
  });
  /** The scopes of the first token that is exactly `text` on the line that contains `line`. */
  return async (scope: string, source: string) => {
    const grammar = await registry.loadGrammar(scope);
    const tokens: { text: string; scopes: string[] }[][] = [];
    let state = tm.INITIAL;
    for (const l of source.split('\n')) {
      const r = grammar.tokenizeLine(l, state);
      tokens.push(
        r.tokens.map((t: { startIndex: number; endIndex: number; scopes: string[] }) => ({
          text: l.slice(t.startIndex, t.endIndex),
          scopes: t.scopes,
        })),
      );
      state = r.ruleStack;
    }
    return (line: number, text: string) => tokens[line]!.find(t => t.text === text)?.scopes ?? [];
  };
}

test('placeholders and codes are coloured in YAML, Markdown front matter and JSON values', { skip }, async () => {
  assert.deepEqual(pkg.contributes.grammars[0].injectTo, ['source.yaml', 'text.html.markdown', 'source.json']);
  const tokenize = await tokenizer();
  const PH = 'variable.other.placeholder.mcp-aql',
    CODE = 'constant.other.error-code.mcp-aql';

  const yaml = await tokenize('source.yaml', 'error_codes:\n  NOT_FOUND_REPO:\n    message_template: "Repo \'{owner}\' gone"\n');
  assert.ok(yaml(2, 'owner').includes(PH), yaml(2, 'owner').join(' '));

  const md = await tokenize(
    'text.html.markdown',
    [
      '---',
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_REPOSITORY',
      '    message_template: "Repository \'{owner}/{repo}\' not found"',
      '---',
      '# Body',
      'Text with {owner} and NOT_FOUND_REPOSITORY outside the front matter.',
    ].join('\n'),
  );
  assert.ok(md(4, 'owner').includes(PH), `front matter: ${md(4, 'owner').join(' ')}`);
  assert.ok(md(4, 'repo').includes(PH));
  assert.ok(md(3, 'NOT_FOUND_REPOSITORY').includes(CODE), md(3, 'NOT_FOUND_REPOSITORY').join(' '));
  assert.ok(!md(7, 'owner').includes(PH), 'not in the Markdown body');

  const json = await tokenize(
    'source.json',
    '{\n  "error_codes": {\n    "NOT_FOUND_REPO": { "category": "NOT_FOUND", "message_template": "Repo \'{owner}\' gone" }\n  },\n  "{key}": 1\n}\n',
  );
  assert.ok(json(2, 'owner').includes(PH), `json value: ${json(2, 'owner').join(' ')}`);
  assert.ok(!json(4, 'key').includes(PH), 'not in a JSON key');
});
