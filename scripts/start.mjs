// `npm start`: the main job on the bundled examples. Checks the clean adapters in examples/ (they must
// be clean) and the broken ones in examples/broken/ (every rule fires there, on purpose), printing both.
// Exits 0 when the clean ones are clean and the broken ones are reported; non-zero otherwise.
import { spawnSync } from 'node:child_process';

const cli = ['dist/cli.js', 'check'];
const run = (args, title) => {
  process.stdout.write(`\n=== ${title}: mcp-aql-errors check ${args.join(' ')} ===\n\n`);
  return spawnSync(process.execPath, [...cli, ...args], { stdio: 'inherit' }).status;
};
const clean = run(
  ['examples/github-adapter.md', 'examples/shop.adapter.yaml', 'examples/weather.adapter.json', 'examples/server/notes.adapter.yaml'],
  'Clean examples',
);
const broken = run(['examples/broken'], 'Broken examples (every diagnostic, on purpose)');
const ok = clean === 0 && broken === 1;
process.stdout.write(`\n${ok ? 'OK' : 'UNEXPECTED'}: clean examples exit ${clean} (want 0), broken examples exit ${broken} (want 1).\n`);
process.exit(ok ? 0 : 1);
