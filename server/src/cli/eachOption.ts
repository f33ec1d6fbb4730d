/**
 * Reads a command's arguments one at a time: `name` is the option (`--lang`, `-o`) or the plain
 * argument; `value()` takes the option's value from `--name=value` or from the next argument.
 */
import { UsageError } from './files';

export function eachOption(argv: readonly string[], each: (name: string, value: () => string) => void): void {
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    const eq = x.startsWith('--') ? x.indexOf('=') : -1;
    const name = eq > 0 ? x.slice(0, eq) : x;
    each(name, () => {
      const v = eq > 0 ? x.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    });
  }
}
