/**
 * `--format gitlab`: a GitLab Code Quality report (artifacts:reports:codequality), which GitLab
 * shows in the merge request widget and, on Ultimate, on the changed lines. GitLab reads a JSON
 * array of issues with the fields below and ignores the rest of the Code Climate spec
 * (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
 *
 * - `description`: the message, as one line (the Code Climate spec asks for a single line of
 *   text without HTML; values from the input are written as safeText writes them).
 * - `check_name`: the rule id.
 * - `fingerprint`: 32 hex digits of the SHA-256 of the rule, path, object, webhook and field path
 *   and the occurrence (fingerprint.ts): stable when lines move, so the widget reports a finding
 *   as new or fixed only when it is; unique per finding, since GitLab shows findings with one
 *   fingerprint as one entry. The digest is SHA-256 rather than the docs' MD5 example so that it
 *   also works where FIPS mode forbids MD5.
 * - `severity`: error → `major`, warning → `minor`, info → `info` (as ESLint's GitLab formatters
 *   map theirs; `critical` and `blocker` are left for tools that rank security problems).
 * - `location.path`: relative to the working folder (the job runs in the project folder), with
 *   `/` separators; a file outside it keeps the path as given, standard input is `<stdin>`.
 * - `location.lines.begin`: the finding's line. A finding in a template of rendered `helm
 *   template` output is placed where it is true, in the rendered stream that was read; the
 *   template its `# Source:` comment names (input text, possibly absolute or outside the
 *   project) is said in the description only (as `--format github` does).
 *
 * No byte order mark (GitLab's parser refuses one). The whole output goes through guardJson, so
 * no value reads as a workflow command in a CI log; JSON readers get the same strings back.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Finding, Report } from '../engine/finding.js';
import { STDIN_PATH } from '../load/sources.js';
import type { Severity } from '../severity.js';
import { guardJson, oneLineMessage, safeText } from './escape.js';
import { findingHash, occurrenceCounter } from './fingerprint.js';
import type { FormatOptions } from './types.js';

export type CodeQualitySeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

export const CODE_QUALITY_SEVERITY: Readonly<Record<Severity, CodeQualitySeverity>> = { error: 'major', warning: 'minor', info: 'info' };

export interface CodeQualityIssue {
  readonly description: string;
  readonly check_name: string;
  readonly fingerprint: string;
  readonly severity: CodeQualitySeverity;
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } };
}

/** The path GitLab links to: project-relative with `/`, when the file is in the working folder. */
export function projectPath(file: string, cwd: string): string {
  if (file === STDIN_PATH) return file;
  const slashed = file.split('\\').join('/');
  const root = posix.resolve(cwd.split('\\').join('/'));
  const relative = posix.relative(root, posix.resolve(root, slashed));
  const inside = relative !== '' && relative !== '..' && !relative.startsWith('../') && !posix.isAbsolute(relative);
  return inside ? relative : slashed;
}

function description(finding: Finding): string {
  const message = oneLineMessage(finding.message);
  return finding.rendered === undefined ? message : `${message} (template ${safeText(finding.file)})`;
}

export function codeQualityIssues(report: Report, cwd: string): CodeQualityIssue[] {
  const occurrenceOf = occurrenceCounter();
  return report.findings.map((finding) => {
    const path = projectPath(finding.rendered?.file ?? finding.file, cwd);
    const base = findingHash(finding, path);
    const fingerprint = createHash('sha256').update(`${base}:${occurrenceOf(base)}`).digest('hex').slice(0, 32);
    return {
      description: description(finding),
      check_name: finding.ruleId,
      fingerprint,
      severity: CODE_QUALITY_SEVERITY[finding.severity],
      location: { path, lines: { begin: (finding.rendered ?? finding).line } },
    };
  });
}

export function formatGitlab(report: Report, options: FormatOptions): string {
  return guardJson(`${JSON.stringify(codeQualityIssues(report, options.cwd), null, 2)}\n`);
}
