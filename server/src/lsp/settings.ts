/**
 * Settings per resource from workspace/configuration, cached per URI (conventions C8). The shape is defined once in
 * ../settingsSchema.ts. A settings change is compared by value (`settingsChange`): what it changed decides whether
 * the workspace is re-scanned, the open files re-checked, or nothing happens — a client sends its settings as it
 * starts, the same ones it gave in `initialize`.
 */
import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver/node';
import { globError, type ServiceOptions } from '../service';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../settingsSchema';

export type { Settings } from '../settingsSchema';
export { DEFAULT_SETTINGS } from '../settingsSchema';

/** Settings from raw configuration; an invalid glob in `files` or `responseFiles` is left out and told to `onBadGlob`. */
const normalize = (raw: unknown, onBadGlob: (glob: string, why: string) => void = () => {}): Settings =>
  normalizeSettings(raw, { globError, onBadGlob });

export const toServiceOptions = (s: Settings): ServiceOptions => ({
  files: s.files,
  responseFiles: s.responseFiles,
  rules: s.rules,
  maxFileSize: s.maxFileSize,
  codeScope: s.codeScope,
});

/**
 * What a settings change needs: `scan` when it changes which files are adapters or response files, or which
 * are read (mcpAql.files, mcpAql.responseFiles, mcpAql.maxFileSize: the workspace index depends on them);
 * `check` when only what the checks report changes (rules, codeScope, the CodeLens); `none` when nothing does.
 */
export type SettingsChange = 'none' | 'check' | 'scan';

const INDEXING: readonly (keyof Settings)[] = ['files', 'responseFiles', 'maxFileSize'];

/** JSON with object keys sorted: two settings objects that differ only in key order are the same settings. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

export function settingsChange(before: Settings, after: Settings): SettingsChange {
  if (INDEXING.some(k => canonical(before[k]) !== canonical(after[k]))) return 'scan';
  return canonical(before) === canonical(after) ? 'none' : 'check';
}

const ORDER: readonly SettingsChange[] = ['none', 'check', 'scan'];
const larger = (a: SettingsChange, b: SettingsChange): SettingsChange => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

/** The `mcpAql` section of pushed settings (`{ mcpAql: {...} }`), or undefined when they carry none (`null`, `{}`). */
const section = (pushed: unknown): { raw: unknown } | undefined =>
  pushed && typeof pushed === 'object' && 'mcpAql' in pushed ? { raw: (pushed as { mcpAql: unknown }).mcpAql } : undefined;

export class SettingsCache {
  private readonly byUri = new Map<string, Promise<Settings>>();
  private global: Settings = DEFAULT_SETTINGS;
  /**
   * Whether `global` is the client's own (given in `initialize` or pushed): a resource's settings are then taken to
   * be those at once, and the client's answer for the resource confirms them in the background (`onLate` when it
   * differs) — the first check does not wait for a round trip through a starting editor.
   */
  private known = false;
  private readonly warned = new Set<string>();
  constructor(
    private readonly connection: Connection,
    private readonly pull: () => boolean,
    private readonly log: (msg: string) => void = () => {},
    /** A resource's answer differed from the settings assumed for it: what was computed with them must be redone. */
    private readonly onLate: (change: SettingsChange) => void = () => {},
    /**
     * Whether the workspace has at most one folder: only then are a resource's settings the window's, and assumed
     * at once (in several folders each folder's own could differ, and every file of one would be redone).
     */
    private readonly oneFolder: () => boolean = () => true,
  ) {}

  /** Late differences gathered for a moment, so that several files' answers redo the work once. */
  private late: SettingsChange = 'none';
  private lateTimer: ReturnType<typeof setTimeout> | undefined;
  private lateChange(change: SettingsChange): void {
    this.late = larger(this.late, change);
    this.lateTimer ??= setTimeout(() => {
      const c = this.late;
      this.late = 'none';
      this.lateTimer = undefined;
      this.onLate(c);
    }, 50);
  }

  /** An invalid glob in mcpAql.files: logged and shown once (until the settings change), then ignored. */
  private readonly badGlob = (glob: string, why: string): void => {
    if (this.warned.has(glob)) return;
    this.warned.add(glob);
    const message = `mcpAql.files: invalid glob '${glob}': ${why}; it is ignored.`;
    this.log(message);
    try {
      void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
    } catch {
      /* connection closed */
    }
  };

  private ask(uri: string): Promise<Settings> {
    return this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'mcpAql' }).then(
      raw => normalize(raw, this.badGlob),
      () => this.global,
    );
  }

  forUri(uri: string): Promise<Settings> {
    if (!this.pull()) return Promise.resolve(this.global);
    let hit = this.byUri.get(uri);
    if (hit) return hit;
    const asked = this.ask(uri);
    if (!this.known || !this.oneFolder()) {
      this.byUri.set(uri, asked);
      return asked;
    }
    const assumed = this.global;
    const now = Promise.resolve(assumed);
    this.byUri.set(uri, now);
    void asked.then(s => {
      // Replaced meanwhile: a settings change asked again and compared itself.
      if (this.byUri.get(uri) !== now) return;
      this.byUri.set(uri, Promise.resolve(s));
      const change = settingsChange(assumed, s);
      if (change === 'none') return;
      this.log(`the settings of ${uri} differ from the window's: ${change === 'scan' ? 're-scanning' : 're-checking'}`);
      this.lateChange(change);
    });
    return (hit = now);
  }

  /** The settings given in `initialize` (`initializationOptions.settings`), if any. */
  initial(raw: unknown): void {
    if (raw === undefined) return;
    this.global = normalize(raw, this.badGlob);
    this.known = true;
  }

  /**
   * On workspace/didChangeConfiguration: what changed, compared by value with what was computed with. In one folder
   * (or none) a resource's settings are the pushed ones (the window's): pushed settings are compared with the cached
   * values, and equal ones change nothing — no question to the client. Otherwise (several folders, or a push without
   * the `mcpAql` section) the client is asked again for the folders and `open` documents and its answers compared
   * with the old ones. Whatever changed, every cached value is forgotten, and invalid globs are warned about again.
   */
  async changed(pushed: unknown, folders: readonly string[], open: readonly string[]): Promise<SettingsChange> {
    const s = section(pushed);
    let change: SettingsChange = 'none';
    if (s) {
      const next = normalize(s.raw);
      const previous = this.global;
      const wasKnown = this.known;
      this.known = true;
      change = settingsChange(previous, next);
      if (change !== 'none') {
        this.warned.clear();
        this.global = normalize(s.raw, this.badGlob);
      }
      if (!this.pull()) return change;
      if (folders.length <= 1) {
        const cached = [...this.byUri.values()];
        // Until a client's first push, what was computed used its answers, not `previous`: those are compared below.
        if (!wasKnown) change = 'none';
        if (change !== 'none') this.byUri.clear();
        for (const old of cached) {
          const was = await old.catch(() => undefined);
          if (was) change = larger(change, settingsChange(was, next));
        }
        if (change !== 'none') this.byUri.clear();
        return change;
      }
    } else if (!this.pull()) return 'none';
    this.warned.clear();
    const uris = [...new Set([...folders, ...open])];
    const before = uris.map(u => this.byUri.get(u));
    this.byUri.clear();
    const after = uris.map(u => {
      const p = this.ask(u);
      this.byUri.set(u, p);
      return p;
    });
    for (let i = 0; i < uris.length; i++) {
      const old = before[i] ? await before[i]!.catch(() => undefined) : undefined;
      const now = await after[i]!;
      // A resource never asked before: nothing was computed with its settings.
      if (old) change = larger(change, settingsChange(old, now));
    }
    return change;
  }
}
