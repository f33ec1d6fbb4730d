/** Settings per resource from workspace/configuration, cached per URI, cleared on change (conventions C8). The shape is defined once in ../settingsSchema.ts. */
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

export class SettingsCache {
  private readonly byUri = new Map<string, Promise<Settings>>();
  private global: Settings = DEFAULT_SETTINGS;
  private readonly warned = new Set<string>();
  constructor(
    private readonly connection: Connection,
    private readonly pull: () => boolean,
    private readonly log: (msg: string) => void = () => {},
  ) {}

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

  forUri(uri: string): Promise<Settings> {
    if (!this.pull()) return Promise.resolve(this.global);
    let hit = this.byUri.get(uri);
    if (!hit) {
      hit = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'mcpAql' }).then(
        raw => normalize(raw, this.badGlob),
        () => this.global,
      );
      this.byUri.set(uri, hit);
    }
    return hit;
  }

  /** On workspace/didChangeConfiguration: forget every cached value (and take pushed settings, if any). */
  reset(pushed?: unknown): void {
    this.byUri.clear();
    this.warned.clear();
    if (pushed && typeof pushed === 'object' && 'mcpAql' in pushed)
      this.global = normalize((pushed as { mcpAql: unknown }).mcpAql, this.badGlob);
  }
}
