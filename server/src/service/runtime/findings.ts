/** What the run-time commands are told: one answer's findings at their rule level (`watch`), a transcript's problems (`probe`). */
import { codeInfo, type RuleLevel } from '../codes';
import type { Problem } from '../checks/types';
import type { Contract } from '../contract/contract';
import { judgeAnswer, judgeSilence, type Exchange } from './judgeAnswer';
import { judgeHttp, type HttpExchange } from './judgeHttp';
import { sessionNote, type SessionInfo } from './sessionNote';

/** A run-time finding on one answer: offsets into the answer's text, the level after the rules. */
export interface RuntimeFinding {
  readonly code: string;
  readonly level: Exclude<RuleLevel, 'off'>;
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/** An answer placed in a transcript (`probe`'s report, `watch`'s record): where its line starts. */
export type PlacedAnswer =
  | { readonly at: number; readonly exchange: Exchange }
  /** A probe call that got no answer (timeout) or ended the server: `at`…`end` is its request line. */
  | { readonly at: number; readonly end: number; readonly silence: 'timeout' | 'exited'; readonly tool: string; readonly what: string }
  /** A Streamable HTTP exchange judged by its HTTP facts, its findings on `at`…`end` (its request line). */
  | { readonly at: number; readonly end: number; readonly http: HttpExchange }
  /** What the session agreed on (`runtime.session`, a hint), on `at`…`end`. */
  | { readonly at: number; readonly end: number; readonly session: SessionInfo };

/** One answer judged, each finding at the level `rules` gives its code (else the problem's, else the code's); 'off' dropped. */
export function runtimeFindings(
  ex: Exchange,
  contract: Contract,
  rules: Readonly<Record<string, RuleLevel | undefined>> | undefined,
): RuntimeFinding[] {
  return atLevels(judgeAnswer(ex, contract), rules);
}

/** One Streamable HTTP exchange judged by its HTTP facts (findings at offset 0), at the levels of `rules`. */
export function httpFindings(x: HttpExchange, rules: Readonly<Record<string, RuleLevel | undefined>> | undefined): RuntimeFinding[] {
  return atLevels(judgeHttp(x), rules);
}

/** Each problem at the level `rules` gives its code (else the problem's, else the code's); 'off' dropped. */
function atLevels(problems: readonly Problem[], rules: Readonly<Record<string, RuleLevel | undefined>> | undefined): RuntimeFinding[] {
  const out: RuntimeFinding[] = [];
  for (const p of problems) {
    const level = rules?.[p.code] ?? p.level ?? codeInfo[p.code].level;
    if (level !== 'off') out.push({ code: p.code, level, message: p.message, start: p.start, end: p.end });
  }
  return out;
}

/** The problems of a transcript's answers, at their offsets in the transcript. */
export function answerProblems(answers: readonly PlacedAnswer[], contract: Contract): Problem[] {
  return answers.flatMap(a =>
    'exchange' in a
      ? judgeAnswer(a.exchange, contract).map(p => ({ ...p, start: p.start + a.at, end: p.end + a.at }))
      : 'http' in a
        ? judgeHttp(a.http).map(p => ({ ...p, start: a.at, end: a.end }))
        : 'session' in a
          ? [sessionNote(a.session, a.at, a.end)]
          : [judgeSilence(a.silence, a.tool, a.what, a.at, a.end)],
  );
}
