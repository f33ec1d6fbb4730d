/** `check --print-config <file>`: the options that apply to that file, as JSON, after config lookup and flags. */
import { relative, resolve, sep } from 'node:path';
import { CODE_SCOPES, DEFAULT_MAX_FILE_SIZE } from '../../service';
import type { ConfigLookup } from '../config';
import { jsonText } from '../format';
import type { Io } from '../io';

export function printConfig(file: string, configs: ConfigLookup, io: Io): number {
  const o = configs.optionsFor(file);
  const c = configs.configFor(file);
  const rel = (p: string) => relative(io.cwd, p).split(sep).join('/') || '.';
  io.stdout(
    jsonText({
      file: rel(resolve(io.cwd, file)),
      configFile: o.configPath ? rel(o.configPath) : null,
      ignored: o.ignored,
      rules: o.rules,
      files: o.files,
      ignore: c?.config.ignore ?? [],
      codeScope: o.codeScope ?? CODE_SCOPES[0],
      maxFileSize: o.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
    }),
  );
  return 0;
}
