// ESLint (flat config): typescript-eslint's recommended rules, and the import rules of ARCHITECTURE.md as
// `no-restricted-imports`, so an editor shows a layering violation as it is typed. The same rules are
// checked on the sources by test/cli/architecture.test.ts (which also checks the service's stages).
import tseslint from 'typescript-eslint';

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map(group => ({ group: [group], message })) }],
});

const SERVICE_ONLY = 'The service is pure: no Node built-ins, no transport, no editor API (ARCHITECTURE.md).';
const FACADE_ONLY = 'Reach the service through its façade (server/src/service/index.ts) only (ARCHITECTURE.md).';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '.e2e/**', 'coverage/**', 'bench/work/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    files: ['server/src/service/**/*.ts'],
    rules: restrict(
      [
        'node:*',
        'fs',
        'path',
        'os',
        'child_process',
        'worker_threads',
        'vscode',
        'vscode-languageserver',
        'vscode-languageserver/*',
        '**/lsp/*',
        '**/cli/*',
        '**/client/*',
      ],
      SERVICE_ONLY,
    ),
  },
  {
    files: ['server/src/lsp/**/*.ts', 'server/src/cli/**/*.ts', 'server/src/node/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...['yaml', 'ajv', '**/service/*/**', '**/service/*.ts'].map(group => ({ group: [group], message: FACADE_ONLY })),
            // The MCP SDK's client (1.x, and the 2.x client package) is allowed (probe's session); our own client/ is not.
            {
              group: ['**/client/**', '!@modelcontextprotocol/sdk/client/*', '!@modelcontextprotocol/client/*'],
              message: FACADE_ONLY,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/src/**/*.ts'],
    rules: restrict(
      ['yaml', 'ajv', 'vscode-languageserver', '**/server/src/service/**', '**/server/src/lsp/**', '**/server/src/cli/**'],
      'The client talks to the server through server/src/protocol.ts only (ARCHITECTURE.md).',
    ),
  },
  {
    files: ['client/webview/**/*.ts'],
    rules: restrict(['vscode', 'node:*', '**/server/**'], 'The webview renders data it is sent: DOM only (ARCHITECTURE.md).'),
  },
  {
    // Request types are namespaces with `type` and `method`, as vscode-languageserver-protocol declares them.
    files: ['server/src/protocol.ts'],
    rules: { '@typescript-eslint/no-namespace': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
