/** Settings per resource from workspace/configuration, cached per URI, cleared on change (conventions C8). */
import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver/node';
import { CODE_SCOPES, globError, type CodeScope, type RuleLevel, type ServiceOptions } from '../service';

export interface Settings {
  readonly files: string[];
  readonly responseFiles: string[];
  readonly rules: Record<string, RuleLevel>;
  readonly maxFileSize: number;
  readonly codeScope: CodeScope;
}

export const DEFAULT_SETTINGS: Settings = { files: [], responseFiles: [], rules: {}, maxFileSize: 4.5 * 1024 * 1024, codeScope: 'workspace' };

const LEVELS = new Set(['off', 'hint', 'information', 'warning', 'error']);

/** Settings from raw configuration; an invalid glob in `files` or `responseFiles` is left out and told to `onBadGlob`. */
export function normalize(raw: unknown, onBadGlob: (glob: string, why: string) => void = () => {}): Settings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const globs = (v: unknown) => Array.isArray(v) ? v.filter((x): x is string => {
    if (typeof x !== 'string') return false;
    const why = globError(x);
    if (why) onBadGlob(x, why);
    return !why;
  }) : [];
  const files = globs(r.files);
  const responseFiles = globs(r.responseFiles);
  const rules: Record<string, RuleLevel> = {};
  if (r.rules && typeof r.rules === 'object') {
    for (const [k, v] of Object.entries(r.rules as Record<string, unknown>)) if (typeof v === 'string' && LEVELS.has(v)) rules[k] = v as RuleLevel;
  }
  const maxFileSize = typeof r.maxFileSize === 'number' && r.maxFileSize > 0 ? r.maxFileSize : DEFAULT_SETTINGS.maxFileSize;
  const codeScope = CODE_SCOPES.includes(r.codeScope as CodeScope) ? r.codeScope as CodeScope : DEFAULT_SETTINGS.codeScope;
  return { files, responseFiles, rules, maxFileSize, codeScope };
}

export const toServiceOptions = (s: Settings): ServiceOptions => ({ files: s.files, responseFiles: s.responseFiles, rules: s.rules, maxFileSize: s.maxFileSize, codeScope: s.codeScope });

export class SettingsCache {
  private readonly byUri = new Map<string, Promise<Settings>>();
  private global: Settings = DEFAULT_SETTINGS;
  private readonly warned = new Set<string>();
  constructor(private readonly connection: Connection, private readonly pull: () => boolean, private readonly log: (msg: string) => void = () => {}) {}

  /** An invalid glob in mcpAql.files: logged and shown once (until the settings change), then ignored. */
  private readonly badGlob = (glob: string, why: string): void => {
    if (this.warned.has(glob)) return;
    this.warned.add(glob);
    const message = `mcpAql.files: invalid glob '${glob}': ${why}; it is ignored.`;
    this.log(message);
    try { void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }); } catch { /* connection closed */ }
  };

  forUri(uri: string): Promise<Settings> {
    if (!this.pull()) return Promise.resolve(this.global);
    let hit = this.byUri.get(uri);
    if (!hit) {
      hit = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'mcpAql' }).then(raw => normalize(raw, this.badGlob), () => this.global);
      this.byUri.set(uri, hit);
    }
    return hit;
  }

  /** On workspace/didChangeConfiguration: forget every cached value (and take pushed settings, if any). */
  reset(pushed?: unknown): void {
    this.byUri.clear();
    this.warned.clear();
    if (pushed && typeof pushed === 'object' && 'mcpAql' in pushed) this.global = normalize((pushed as { mcpAql: unknown }).mcpAql, this.badGlob);
  }
}
