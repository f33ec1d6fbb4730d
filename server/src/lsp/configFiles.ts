/**
 * The project config file for the server: the nearest `.mcp-aql.yaml` / `.yml` / `.json` above a
 * `file:` document, read from disk (never written), parsed by the service, cached per folder until a
 * config file changes. Editor settings override it: rules per code, files added, maxFileSize and
 * codeScope only when they differ from their defaults (a setting left at its default cannot be told
 * apart from an unset one). An invalid file still applies its valid parts; its problems are logged
 * and shown on the file itself when it is open.
 */
import { MAX_CONFIG_BYTES, readRegularFile } from '../node/readRegularFile';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findConfigFile } from '../node/findConfigFile';
import { DEFAULT_MAX_FILE_SIZE, effectiveOptions, parseProjectConfig, type ProjectConfig, type ServiceOptions } from '../service';

interface Loaded {
  readonly path: string;
  readonly dir: string;
  readonly config: ProjectConfig;
}

export class ConfigFiles {
  private readonly byDir = new Map<string, Loaded | null>();
  constructor(private readonly log: (msg: string) => void) {}

  /** The config that applies to a document (undefined for none, or a URI that is not a file). */
  find(uri: string): Loaded | undefined {
    let dir: string;
    try {
      if (!uri.startsWith('file:')) return undefined;
      dir = dirname(fileURLToPath(uri));
    } catch {
      return undefined;
    }
    return findConfigFile(dir, this.byDir, path => this.load(path));
  }

  /** The document's options: its config file under the editor's settings. */
  apply(uri: string, editor: ServiceOptions): ServiceOptions {
    const c = this.find(uri);
    if (!c) return editor;
    const rel = relative(c.dir, fileURLToPath(uri)).split(sep).join('/');
    const e = effectiveOptions(c.config, rel, {
      rules: editor.rules,
      files: editor.files,
      ...(editor.maxFileSize !== undefined && editor.maxFileSize !== DEFAULT_MAX_FILE_SIZE ? { maxFileSize: editor.maxFileSize } : {}),
      ...(editor.codeScope !== undefined && editor.codeScope !== 'workspace' ? { codeScope: editor.codeScope } : {}),
    });
    return { ...editor, ...e };
  }

  /** A config file changed, appeared or went away: look everything up again. */
  clear(): void {
    this.byDir.clear();
  }

  private load(path: string): Loaded | null {
    // A regular file of at most 1 MiB, judged before reading (a checkout's config could be anything).
    const read = readRegularFile(path, MAX_CONFIG_BYTES);
    if (!read.ok) {
      this.log(`cannot read ${path}: ${read.message}; ignored`);
      return null;
    }
    const text = read.bytes.toString('utf8');
    const { config, problems } = parseProjectConfig(text);
    for (const p of problems)
      this.log(
        `${path}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${typeof p.message === 'string' ? p.message : p.message.value} (config.invalid; the rest of the file applies)`,
      );
    return { path, dir: dirname(path), config };
  }
}
