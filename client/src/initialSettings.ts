/**
 * The `mcpAql` section as the client sends it in `initialize` (`initializationOptions.settings`): every setting of
 * SETTINGS read through `get` (the window's value: in one folder, every file's), nested by its key's dots as
 * workspace/configuration answers it (`mcpAql.codeLens.enabled` → `codeLens.enabled`). The server takes them for
 * the first check instead of asking through the starting extension host, and confirms them per file meanwhile
 * (server/src/lsp/settings.ts). No `vscode` import: test/client/initialSettings.test.ts runs it in Node.
 */
import { SETTINGS, type SettingKey } from '../../server/src/protocol';

export function initialSettings(get: (key: SettingKey) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const path = key.split('.').slice(1);
    let at = out;
    for (const p of path.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
    at[path[path.length - 1]!] = get(key);
  }
  return out;
}
