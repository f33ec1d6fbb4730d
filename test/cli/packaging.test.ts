/** The manifest, the README's generated tables and the .vsix allowlist. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('Marketplace fields: a PNG icon of 128 or 256 px, a gallery banner, narrow activation', () => {
  const png = readFileSync(join(ROOT, pkg.icon));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.ok(w === h && (w === 128 || w === 256), `${w}x${h}`);
  assert.match(pkg.galleryBanner.color, /^#[0-9a-f]{6}$/i);
  assert.ok(['dark', 'light'].includes(pkg.galleryBanner.theme));
  assert.ok(
    !pkg.activationEvents.includes('onLanguage:markdown') &&
      !pkg.activationEvents.includes('onLanguage:json') &&
      !pkg.activationEvents.includes('*'),
  );
  assert.ok(pkg.activationEvents.includes('workspaceContains:**/*-adapter.md'));
});

test('menus and adapter commands appear on adapter files only (context key mcpAql.isAdapter)', () => {
  const palette = Object.fromEntries(
    pkg.contributes.menus.commandPalette.map((m: { command: string; when: string }) => [m.command, m.when]),
  );
  for (const c of ['mcpAql.previewEnvelope', 'mcpAql.openPreviewToSide', 'mcpAql.fixAll']) assert.equal(palette[c], 'mcpAql.isAdapter', c);
  for (const m of [...pkg.contributes.menus['editor/title'], ...pkg.contributes.menus['editor/context']])
    assert.equal(m.when, 'mcpAql.isAdapter', m.command);
  const steps = pkg.contributes.walkthroughs[0].steps.map((s: { id: string }) => s.id);
  assert.deepEqual(steps, ['openExample', 'fixProblem', 'openPreview']);
  const commands = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
  for (const m of Object.values(pkg.contributes.menus).flat() as { command: string }[]) assert.ok(commands.has(m.command), m.command);
});

test('every contributed command is in category MCP-AQL and every setting uses the mcpAql prefix', () => {
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'MCP-AQL', c.command);
  for (const k of Object.keys(pkg.contributes.configuration.properties)) assert.match(k, /^mcpAql\./);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, true);
  assert.match(pkg.engines.vscode, /^\^1\.100/);
});

test('the README settings table is generated from package.json and up to date', () => {
  const r = spawnSync(process.execPath, ['scripts/docs-tables.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('the .vsix holds exactly the allowlist', { timeout: 60_000 }, () => {
  // What vsce would pack in the staging folder of scripts/package-vsix.mjs (package.json's "files" is npm's list).
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/package-vsix.mjs'), '--ls'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout
    .split('\n')
    .map(s => s.trim())
    .filter(Boolean)
    .sort();
  for (const f of files)
    assert.match(
      f,
      /^(dist\/(client|client-main|server|server-main|webview|browser-client|browser-server|cli|probe-session)\.js|dist\/(server|client)-main\.cache|schemas\/.+\.json|syntaxes\/.+\.json|client\/media\/.+|docs\/rules\.md|docs\/diagnostics-[a-z-]+\.md|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/,
      f,
    );
  for (const must of [
    'dist/client.js',
    'dist/client-main.js', // dist/client.js loads it
    'dist/server.js',
    'dist/server-main.js', // dist/server.js loads it
    'dist/cli.js', // "MCP-AQL: Probe a Server…" runs it
    'dist/probe-session.js', // and it loads the MCP SDK from there
    'schemas/error-registry.json',
    'syntaxes/placeholders.injection.tmLanguage.json',
    'package.json',
    pkg.icon,
    'client/media/walkthrough/example.adapter.yaml',
    'docs/rules.md',
    'docs/diagnostics-templates.md',
  ])
    assert.ok(files.includes(must), must);
  assert.ok(!files.includes('client/media/marketplace-icon.svg'), "the icon's SVG source stays out");
  // Every file the manifest points at is shipped: the icon, walkthrough media, grammars, schemas.
  const referenced = [
    pkg.icon,
    ...pkg.contributes.walkthroughs.flatMap((w: { steps: { media: Record<string, string> }[] }) =>
      w.steps.flatMap(s => Object.values(s.media)),
    ),
    ...pkg.contributes.grammars.map((g: { path: string }) => g.path.replace(/^\.\//, '')),
    ...pkg.contributes.jsonValidation.map((j: { url: string }) => j.url.replace(/^\.\//, '')),
  ];
  for (const r of referenced) assert.ok(files.includes(r), `package.json points at ${r}, which the .vsix lacks`);
  assert.match(pkg.scripts.package, /node scripts\/package-vsix\.mjs/);
  assert.ok(files.includes('README.md'), 'the .vsix README');
});

test('the .vsix README: no pictures (the extension page allows https: and data: only), a link to them, relative links to the repository', async () => {
  const { vsixReadme } = (await import(join(ROOT, 'scripts/vsix-readme.mjs'))) as { vsixReadme(r: string, repo: string): string };
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok([...readme.matchAll(/^!\[[^\]]*\]\(docs\/images\/[a-z]+\.png\)$/gm)].length >= 6, 'the repository README shows the pictures');
  const out = vsixReadme(readme, pkg.repository.url);
  assert.doesNotMatch(out, /!\[/);
  assert.doesNotMatch(out, /data:image/);
  assert.match(
    out,
    /^## Features\n\nPictures of each feature: the \[README in the repository\]\(https:\/\/github\.com\/mcp-aql\/mcp-aql-errors#features\)\.$/m,
  );
  assert.deepEqual(
    [...out.matchAll(/(?<!!)\[[^\]]*\]\((?!https:|#)([^)]+)\)/g)].map(m => m[1]),
    [],
    'no relative link is left',
  );
  assert.equal(
    vsixReadme('## Features\n\ntext\n\n![a](docs/x.png)\n\n[b](docs/c.md) [d](#e) [f](https://x.org/g)\n', 'https://github.com/o/r.git'),
    '## Features\n\nPictures of each feature: the [README in the repository](https://github.com/o/r#features).\n\ntext\n\n[b](https://github.com/o/r/blob/main/docs/c.md) [d](#e) [f](https://x.org/g)\n',
  );
});

test('the injection grammar colours placeholders and codes', () => {
  const g = JSON.parse(readFileSync(join(ROOT, 'syntaxes/placeholders.injection.tmLanguage.json'), 'utf8'));
  const ph = new RegExp(g.repository.placeholder.match, 'g');
  assert.deepEqual(
    [..."Repository '{owner}/{repo}' { x } {}".matchAll(ph)].map(m => m[2]),
    ['owner', 'repo'],
  );
  const code = new RegExp(g.repository.code.match, 'g');
  assert.deepEqual('code: NOT_FOUND_RESOURCE or RATE_LIMIT_EXCEEDED, not GITHUB_X'.match(code), [
    'NOT_FOUND_RESOURCE',
    'RATE_LIMIT_EXCEEDED',
  ]);
});

test("the editor title's icon is a codicon of our own, not one of the built-in Markdown preview's", () => {
  const titled = pkg.contributes.menus['editor/title'].map((m: { command: string }) => m.command);
  assert.ok(titled.length > 0);
  for (const id of titled) {
    const icon = pkg.contributes.commands.find((c: { command: string }) => c.command === id)?.icon;
    assert.match(icon, /^\$\([a-z-]+\)$/, id);
    assert.ok(!['$(open-preview)', '$(preview)', '$(go-to-file)'].includes(icon), `${id}: ${icon} is Markdown's`);
  }
});
