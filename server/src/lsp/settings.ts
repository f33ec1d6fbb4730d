/** Settings per resource from workspace/configuration, cached per URI, cleared on change (conventions C8). The shape is defined once in ../settingsSchema.ts. */
import type { Connection } from 'vscode-languageserver/node';
import type { ServiceOptions } from '../service';
import { DEFAULT_SETTINGS, normalizeSettings as normalize, type Settings } from '../settingsSchema';

export const toServiceOptions = (s: Settings): ServiceOptions => ({ files: s.files, rules: s.rules, maxFileSize: s.maxFileSize });

export class SettingsCache {
  private readonly byUri = new Map<string, Promise<Settings>>();
  private global: Settings = DEFAULT_SETTINGS;
  constructor(private readonly connection: Connection, private readonly pull: () => boolean) {}

  forUri(uri: string): Promise<Settings> {
    if (!this.pull()) return Promise.resolve(this.global);
    let hit = this.byUri.get(uri);
    if (!hit) {
      hit = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'mcpAql' }).then(normalize, () => this.global);
      this.byUri.set(uri, hit);
    }
    return hit;
  }

  /** On workspace/didChangeConfiguration: forget every cached value (and take pushed settings, if any). */
  reset(pushed?: unknown): void {
    this.byUri.clear();
    if (pushed && typeof pushed === 'object' && 'mcpAql' in pushed) this.global = normalize((pushed as { mcpAql: unknown }).mcpAql);
  }
}
