// Writes package.json contributes.configuration.properties from server/src/settingsSchema.ts (the one
// definition of the settings), then the README's settings table. `node --import tsx scripts/sync-settings.ts`.
// test/client/settings.test.ts fails when package.json and SETTINGS differ.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../server/src/settingsSchema';

const root = join(__dirname, '..');
const file = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
pkg.contributes.configuration.properties = JSON.parse(JSON.stringify(SETTINGS));
writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
process.exit(spawnSync(process.execPath, ['scripts/docs-tables.mjs'], { cwd: root, stdio: 'inherit' }).status ?? 1);
