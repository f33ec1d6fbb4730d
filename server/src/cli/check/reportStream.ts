/**
 * `check`'s report, written as the files come (ARCHITECTURE.md, "One workspace path"): a file's problems are printed as soon as its
 * turn in the input (sorted path) order comes, and the file is then forgotten. The bytes equal `render`
 * over all the reports (test/cli/reportStream.test.ts): text, github, json, checkstyle and codeclimate
 * are written file by file; SARIF and JUnit, whose headers carry totals or whose artifacts precede the
 * results, keep each report without its text (they print no code frame) and are written at the end.
 */
import { CHECKSTYLE_HEAD, CHECKSTYLE_TAIL, checkstyleFile, codeclimateIssues, jsonFile, textFileLines, textSummary } from '../format';
import { errorsOnly, render } from '../output';
import { count, type Counts, type FileReport } from '../report';
import type { Io } from '../io';

export interface ReportStream {
  /** One file's report, in order. */
  file(r: FileReport): void;
  /** After the last file; returns the counts of what was reported. */
  end(): Counts;
}

/** The formats written file by file. */
export const STREAMED_FORMATS: readonly string[] = ['text', 'github', 'json', 'checkstyle', 'codeclimate'];

/**
 * A pretty-printed JSON array written item by item: JSON.stringify(items, null, 2) is "[", then each
 * item's own pretty text with every line indented by two spaces, separated by ",", then "]" ("[]" when
 * empty); strings never hold a raw line break, so the indentation is per line.
 */
function jsonArray(out: (s: string) => void) {
  let n = 0;
  return {
    item(x: unknown) {
      const indented = JSON.stringify(x, null, 2).replace(/\n/g, '\n  ');
      out(`${n++ === 0 ? '[\n' : ',\n'}  ${indented}`);
    },
    end() {
      out(n ? '\n]\n' : '[]\n');
    },
  };
}

export function reportStream(format: string, io: Io, out: (s: string) => void, opts: { quiet?: boolean; color: boolean }): ReportStream {
  const counts: Counts = { errors: 0, warnings: 0, infos: 0, hints: 0 };
  let files = 0;
  const each = (write: (r: FileReport) => void, end: () => void): ReportStream => ({
    file(r) {
      const shown = opts.quiet ? errorsOnly([r])[0]! : r;
      const c = count([shown]);
      counts.errors += c.errors;
      counts.warnings += c.warnings;
      counts.infos += c.infos;
      counts.hints += c.hints;
      files++;
      write(shown);
    },
    end() {
      end();
      return counts;
    },
  });
  switch (format) {
    case 'text':
      // formatText: every line followed by "\n", the summary last.
      return each(
        r => {
          const lines = textFileLines(r, opts.color);
          if (lines.length) out(lines.join('\n') + '\n');
        },
        () => out(textSummary(counts, files) + '\n'),
      );
    case 'github':
      return each(
        r => out(render('github', [r], io)),
        () => {},
      );
    case 'json': {
      const a = jsonArray(out);
      return each(
        r => a.item(jsonFile(r)),
        () => a.end(),
      );
    }
    case 'codeclimate': {
      const a = jsonArray(out);
      return each(
        r => codeclimateIssues(r).forEach(i => a.item(i)),
        () => a.end(),
      );
    }
    case 'checkstyle':
      return each(
        r => out((files === 1 ? CHECKSTYLE_HEAD : '') + checkstyleFile(r)),
        () => out((files === 0 ? CHECKSTYLE_HEAD : '') + CHECKSTYLE_TAIL),
      );
    default: {
      // sarif, junit: written whole at the end, from reports without their texts.
      const kept: FileReport[] = [];
      return each(
        r => kept.push({ ...r, text: '' }),
        () => out(render(format, kept, io, opts.color)),
      );
    }
  }
}
