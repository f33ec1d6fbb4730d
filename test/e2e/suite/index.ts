// Extension-host test runner in @vscode/test-electron's shape: `run()` is required by the extension host
// (extensionTestsPath) and runs mocha (TDD) over the suites. Run here through code-server's payload
// (test/e2e/extensionHost.test.ts); with desktop VS Code, runTests() from @vscode/test-electron uses it as is.
import { join } from 'node:path';

export function run(): Promise<void> {
  // mocha comes from the project's node_modules (absolute path: this bundle lives under .e2e/).
  const root = process.env.MCP_AQL_ROOT ?? join(__dirname, '..', '..');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Mocha = require(join(root, 'node_modules', 'mocha')) as typeof import('mocha');
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  mocha.addFile(join(__dirname, 'extension.test.js'));
  mocha.addFile(join(__dirname, 'editorPolish.test.js'));
  return new Promise((resolve, reject) => {
    mocha.run(failures => (failures ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
