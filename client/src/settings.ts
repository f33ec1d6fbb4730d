// The client reads its settings by their one definition (server/src/settingsSchema.ts through protocol.ts):
// the key is checked, the type and the default come from SETTINGS.
import * as vscode from 'vscode';
import { SETTINGS, type SettingKey } from '../../server/src/protocol';

export function setting<K extends SettingKey>(key: K, scope?: vscode.Uri): (typeof SETTINGS)[K]['default'] {
  const dot = key.indexOf('.');
  return vscode.workspace.getConfiguration(key.slice(0, dot), scope).get(key.slice(dot + 1), SETTINGS[key].default);
}
