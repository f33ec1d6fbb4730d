/**
 * The host's config (docs/cli.md, "The host's config"): VS Code's mcp.json (JSON with comments), Claude
 * Desktop's and Cursor's mcpServers; variables; clear errors with line and column; and
 * `watch --print-config`, which changes one server and leaves every other byte as it was.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { pickServer, readHostConfig } from '../../server/src/cli/runtime/hostConfig';
import { printWatchConfig } from '../../server/src/cli/runtime/watch/printWatchConfig';

const VSCODE = `{
  // the servers of this workspace
  "inputs": [{ "type": "promptString", "id": "token", "password": true }],
  "servers": {
    "notes": {
      "type": "stdio",
      "command": "node",
      "args": ["\${workspaceFolder}/server.mjs", "--verbose"], /* trailing comma below */
      "env": { "TOKEN": "\${env:NOTES_TOKEN}", "LEVEL": 3 },
    },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp?x=1", "headers": { "Authorization": "Bearer \${input:token}" } },
    "old": { "type": "sse", "url": "https://example.com/sse" }
  }
}
`;
const CLAUDE = JSON.stringify(
  {
    mcpServers: {
      fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${HOME:-/tmp}'] },
      cursorRemote: { url: 'http://127.0.0.1:3001/mcp', headers: { 'X-Key': '${KEY}' } },
    },
  },
  null,
  2,
);

test("VS Code's mcp.json: comments, trailing commas, stdio and http, variables filled as VS Code would", () => {
  const c = readHostConfig('/work/proj/.vscode/mcp.json', VSCODE, { NOTES_TOKEN: 's3cret' });
  assert.equal(c.key, 'servers');
  assert.deepEqual(
    c.servers.map(s => s.name),
    ['notes', 'remote', 'old'],
  );
  assert.deepEqual(pickServer(c, 'notes').target(), {
    kind: 'stdio',
    command: 'node',
    args: ['/work/proj/server.mjs', '--verbose'],
    env: Object.assign(Object.create(null), { TOKEN: 's3cret', LEVEL: '3' }),
    cwd: undefined,
  });
  // ${input:…} is asked of the user by VS Code: an error naming where, only for the server that has it.
  assert.throws(() => pickServer(c, 'remote').target(), {
    message:
      '/work/proj/.vscode/mcp.json:11:105: ${input:token} is asked of the user by VS Code; give the value in the file or through ${env:NAME}',
  });
  assert.throws(() => pickServer(c, 'old').target(), /mcp.json:12:22: server 'old': type 'sse' is the HTTP\+SSE transport of 2024-11-05/);
  assert.throws(() => pickServer(c, 'nope'), {
    message: "/work/proj/.vscode/mcp.json: no server 'nope' in 'servers' (notes, remote, old)",
  });
});

test("Claude Desktop's and Cursor's mcpServers: a command or a url; ${NAME} and ${NAME:-default}", () => {
  const c = readHostConfig('/home/u/claude_desktop_config.json', CLAUDE, { KEY: 'k1' });
  assert.equal(c.key, 'mcpServers');
  assert.deepEqual(pickServer(c, 'fs').target(), {
    kind: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
    env: Object.create(null),
    cwd: undefined,
  });
  assert.deepEqual(pickServer(c, 'cursorRemote').target(), {
    kind: 'http',
    url: 'http://127.0.0.1:3001/mcp',
    headers: Object.assign(Object.create(null), { 'X-Key': 'k1' }),
  });
  assert.equal(
    (pickServer(readHostConfig('/x.json', '{"servers":{"a":{"command":"${userHome}/bin/s"}}}'), 'a').target() as { command: string })
      .command,
    `${homedir()}/bin/s`,
  );
});

test('a file that is not a host config: a usage error with line and column', () => {
  assert.throws(() => readHostConfig('/x/mcp.json', '{\n  "servers": {\n    "a": { "command": "node" \n  }\n'), {
    message: "/x/mcp.json:5:1: not a JSON config file: ',' or '}' expected",
  });
  assert.throws(() => readHostConfig('/x/mcp.json', '{"mcp": {}}'), /no MCP servers in it/);
  const c = readHostConfig('/x/mcp.json', '{"servers":{"a":{"args":["x"]},"b":{"type":"http","url":"ftp://x"},"c":[1]}}');
  assert.throws(() => pickServer(c, 'a').target(), { message: "/x/mcp.json:1:17: server 'a': a stdio server needs 'command'" });
  assert.throws(() => pickServer(c, 'b').target(), /server 'b': 'url' must be http:\/\/ or https:\/\/, not 'ftp:\/\/x'/);
  assert.throws(() => pickServer(c, 'c').target(), /server 'c': an object expected/);
});

const launch = {
  command: '/usr/bin/node',
  args: ['/opt/mcp-aql-errors/dist/cli.js', 'watch', '--contract', '/work/proj/notes.adapter.yaml'],
};

test('watch --print-config: the stdio server runs through watch, every other byte as it was', () => {
  const c = readHostConfig('/work/proj/.vscode/mcp.json', VSCODE, {});
  const { text, note } = printWatchConfig(c, pickServer(c, 'notes'), launch);
  assert.equal(note, undefined);
  assert.equal(
    text,
    VSCODE.replace('"command": "node"', '"command": "/usr/bin/node"').replace(
      '["${workspaceFolder}/server.mjs", "--verbose"]',
      '["/opt/mcp-aql-errors/dist/cli.js","watch","--contract","/work/proj/notes.adapter.yaml","--","node","${workspaceFolder}/server.mjs","--verbose"]',
    ),
  );
  // No args: they are added after the command.
  const bare = readHostConfig('/c.json', '{"mcpServers": {"s": {"command": "srv"}}}');
  assert.equal(
    printWatchConfig(bare, pickServer(bare, 's'), launch).text,
    '{"mcpServers": {"s": {"command": "/usr/bin/node", "args": ["/opt/mcp-aql-errors/dist/cli.js","watch","--contract","/work/proj/notes.adapter.yaml","--","srv"]}}}',
  );
});

test('watch --print-config: an http server points at the proxy, and the proxy command is the note', () => {
  const c = readHostConfig('/c.json', CLAUDE, {});
  const { text, note } = printWatchConfig(c, pickServer(c, 'cursorRemote'), launch, '127.0.0.1:4100');
  assert.equal(text, CLAUDE.replace('"http://127.0.0.1:3001/mcp"', '"http://127.0.0.1:4100/mcp"'));
  assert.equal(
    note,
    'start the proxy before the host connects: /usr/bin/node /opt/mcp-aql-errors/dist/cli.js watch --contract /work/proj/notes.adapter.yaml --listen 127.0.0.1:4100 --url http://127.0.0.1:3001/mcp',
  );
  assert.throws(() => printWatchConfig(c, pickServer(c, 'cursorRemote'), launch), /give the proxy's address with --listen/);
});
