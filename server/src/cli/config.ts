/**
 * The config file on disk for the CLI: looked up by walking up from each checked file's folder (the
 * nearest `.mcp-aql.yaml`, `.mcp-aql.yml` or `.mcp-aql.json` wins; no merging of several), or named
 * with --config, or none with --no-config. An invalid config file stops the run (exit 2).
 */
import { existsSync } from 'node:fs';
import { MAX_CONFIG_BYTES, readRegularFile } from '../node/readRegularFile';
import { dirname, relative, resolve, sep } from 'node:path';
import {
  effectiveOptions,
  parseProjectConfig,
  type CodeScope,
  type EffectiveOptions,
  type ProjectConfig,
  type RuleLevel,
} from '../service';
import { fsPath } from '../node/bytePaths';
import { findConfigFile } from '../node/findConfigFile';
import { InputError } from './args';
import { UsageError } from './files';

interface LoadedConfig {
  readonly path: string;
  readonly dir: string;
  readonly config: ProjectConfig;
}

export class ConfigLookup {
  private readonly byDir = new Map<string, LoadedConfig | null>();
  private readonly fixed: LoadedConfig | undefined;

  constructor(
    private readonly cwd: string,
    private readonly args: { config?: string; noConfig?: boolean; rules?: Readonly<Record<string, RuleLevel>>; codeScope?: CodeScope },
  ) {
    this.fixed = args.config !== undefined ? load(resolve(cwd, args.config), cwd) : undefined;
  }

  /** The config that applies to a file (undefined: none). */
  configFor(file: string): LoadedConfig | undefined {
    if (this.fixed || this.args.noConfig) return this.fixed;
    return findConfigFile(dirname(resolve(this.cwd, file)), this.byDir, path => load(path, this.cwd));
  }

  /**
   * The file's options: its config merged under the command line's --rule and --code-scope flags. They depend
   * on the file only through its config (each loaded once) and whether that config ignores it (check.ts shares
   * one object among such files).
   */
  optionsFor(file: string): EffectiveOptions & { readonly configPath?: string } {
    const c = this.configFor(file);
    const rel = c ? relative(c.dir, resolve(this.cwd, file)).split(sep).join('/') : undefined;
    return {
      ...effectiveOptions(c?.config, rel, { rules: this.args.rules, codeScope: this.args.codeScope }),
      ...(c ? { configPath: c.path } : {}),
    };
  }
}

function load(path: string, cwd: string): LoadedConfig {
  const shown = relative(cwd, path) || path;
  if (!existsSync(fsPath(path))) throw new UsageError(`cannot read config file '${shown}': no such file`);
  // A regular file of at most 1 MiB, judged before reading (a checkout's config could be anything).
  const read = readRegularFile(path, MAX_CONFIG_BYTES);
  if (!read.ok) throw new UsageError(`cannot read config file '${shown}': ${read.message}`);
  const text = read.bytes.toString('utf8');
  const { config, problems } = parseProjectConfig(text);
  if (problems.length) {
    const lines = problems.map(
      p =>
        `  ${shown}:${p.range.start.line + 1}:${p.range.start.character + 1}  ${typeof p.message === 'string' ? p.message : p.message.value}  config.invalid`,
    );
    throw new InputError(`invalid config file '${shown}':\n${lines.join('\n')}`);
  }
  return { path, dir: dirname(path), config };
}
