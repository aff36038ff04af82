/**
 * Findings a run found but does not show: below `-q`'s errors-only cut, or recorded in the
 * `--baseline`. A report that hides findings says how many, so that an empty list is never
 * mistaken for a clean run. Findings hidden by `-q` still count for `--fail-on` (the README's
 * contract), so they can fail a run whose shown findings would not: then the report says so.
 * The terminal output (stylish) also leaves infos out unless `--show-info` asks for them, as
 * ESLint and Ruff keep their default output to what needs acting on: it counts them instead.
 */
import type { Severity } from '../severity.js';
import { joinWords } from '../text/list.js';

export interface HiddenFindings {
  /** Set when `-q` was given: what it left out (it shows errors only). */
  readonly quiet?: { readonly warnings: number; readonly infos: number };
  /**
   * Set when the terminal output left infos out (its default; `--show-info` shows them): how
   * many. Never set with `quiet`, which hides infos itself.
   */
  readonly infos?: number;
  /** Set when `--baseline` was given: findings the baseline matched. */
  readonly baseline?: number;
  /** Set when findings hidden by `-q` fail the run and the shown ones alone would not: the level it fails on. */
  readonly failsRunOn?: Severity;
}

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

/** The most severe level among the findings `-q` hid, when they fail the run. */
export function hiddenFailure(hidden: HiddenFindings | undefined): Severity | undefined {
  if (hidden?.failsRunOn === undefined) return undefined;
  return (hidden.quiet?.warnings ?? 0) > 0 ? 'warning' : 'info';
}

/**
 * One clause per cause, e.g. `3 warnings and 1 info hidden by -q fail the run (fails on: warning)`,
 * `12 findings in the baseline not shown`; empty when nothing was hidden.
 */
export function describeHidden(hidden: HiddenFindings | undefined): string[] {
  if (hidden === undefined) return [];
  const parts: string[] = [];
  const quiet = hidden.quiet;
  if (quiet !== undefined && quiet.warnings + quiet.infos > 0) {
    const counts = joinWords([...(quiet.warnings > 0 ? [plural(quiet.warnings, 'warning')] : []), ...(quiet.infos > 0 ? [plural(quiet.infos, 'info', 'infos')] : [])]);
    const verb = quiet.warnings + quiet.infos === 1 ? 'fails' : 'fail';
    parts.push(`${counts} hidden by -q${hidden.failsRunOn !== undefined ? ` ${verb} the run (fails on: ${hidden.failsRunOn})` : ''}`);
  }
  const infos = hidden.infos ?? 0;
  if (infos > 0) {
    const verb = infos === 1 ? 'fails' : 'fail';
    const fails = hidden.failsRunOn !== undefined && quiet === undefined ? ` ${verb} the run (fails on: ${hidden.failsRunOn})` : '';
    parts.push(`${plural(infos, 'info', 'infos')} not shown${fails} (--show-info shows ${infos === 1 ? 'it' : 'them'})`);
  }
  if (hidden.baseline !== undefined && hidden.baseline > 0) parts.push(`${plural(hidden.baseline, 'finding')} in the baseline not shown`);
  return parts;
}
