/** Settings per resource from workspace/configuration, cached per URI, cleared on change (conventions C8). */
import type { Connection } from 'vscode-languageserver/node';
import { CODE_SCOPES, type CodeScope, type RuleLevel, type ServiceOptions } from '../service';

export interface Settings {
  readonly files: string[];
  readonly rules: Record<string, RuleLevel>;
  readonly maxFileSize: number;
  readonly codeScope: CodeScope;
}

export const DEFAULT_SETTINGS: Settings = { files: [], rules: {}, maxFileSize: 4.5 * 1024 * 1024, codeScope: 'workspace' };

const LEVELS = new Set(['off', 'hint', 'information', 'warning', 'error']);

export function normalize(raw: unknown): Settings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const files = Array.isArray(r.files) ? r.files.filter((x): x is string => typeof x === 'string') : [];
  const rules: Record<string, RuleLevel> = {};
  if (r.rules && typeof r.rules === 'object') {
    for (const [k, v] of Object.entries(r.rules as Record<string, unknown>)) if (typeof v === 'string' && LEVELS.has(v)) rules[k] = v as RuleLevel;
  }
  const maxFileSize = typeof r.maxFileSize === 'number' && r.maxFileSize > 0 ? r.maxFileSize : DEFAULT_SETTINGS.maxFileSize;
  const codeScope = CODE_SCOPES.includes(r.codeScope as CodeScope) ? r.codeScope as CodeScope : DEFAULT_SETTINGS.codeScope;
  return { files, rules, maxFileSize, codeScope };
}

export const toServiceOptions = (s: Settings): ServiceOptions => ({ files: s.files, rules: s.rules, maxFileSize: s.maxFileSize, codeScope: s.codeScope });

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
