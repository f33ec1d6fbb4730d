/**
 * Config file + overrides → the options of one file. Overrides are the values set explicitly where
 * the check runs (CLI flags; editor settings that differ from their defaults) and win: rules per
 * code, files added, maxFileSize and codeScope replaced. `ignore` globs are matched against the
 * file's path relative to the config file's folder (a pattern without `/` matches at any depth).
 */
import type { RuleLevel } from '../codes';
import { matchesAny } from '../util/glob';
import type { CodeScope } from '../model/workspace';
import type { ProjectConfig } from './projectConfig';

export interface ConfigOverrides {
  readonly rules?: Readonly<Record<string, RuleLevel | undefined>>;
  readonly files?: readonly string[];
  readonly maxFileSize?: number;
  readonly codeScope?: CodeScope;
}

export interface EffectiveOptions {
  readonly rules: Readonly<Record<string, RuleLevel | undefined>>;
  readonly files: readonly string[];
  readonly maxFileSize?: number;
  readonly codeScope?: CodeScope;
  /** The file matches an `ignore` glob: it is not treated as an adapter. */
  readonly ignored: boolean;
}

export function effectiveOptions(
  config: ProjectConfig | undefined,
  relPath: string | undefined,
  over: ConfigOverrides = {},
): EffectiveOptions {
  const maxFileSize = over.maxFileSize ?? config?.maxFileSize;
  const codeScope = over.codeScope ?? config?.codeScope;
  const rel = relPath?.replace(/\\/g, '/');
  return {
    rules: { ...config?.rules, ...over.rules },
    files: [...(config?.files ?? []), ...(over.files ?? [])],
    ...(maxFileSize !== undefined ? { maxFileSize } : {}),
    ...(codeScope !== undefined ? { codeScope } : {}),
    ignored: rel !== undefined && !!config?.ignore?.length && matchesAny(rel, config.ignore),
  };
}
