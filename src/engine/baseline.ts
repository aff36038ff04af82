/**
 * Baselines, for repositories adopting the linter: `--write-baseline` records today's findings
 * by fingerprint, `--baseline` reports only the findings that are not in it. A fingerprint is
 * what stays the same when lines move: rule id, file, object kind and name, webhook name and
 * field path (no line, column or message), and the other places a finding of one cause stands
 * for (a finding that stands for more places than its entry lists is new). The baseline is a multiset: a file with two
 * identical findings records a count of 2, and a third one is new. Each entry records the
 * findings' severity: a finding whose severity rose above it is new (an entry written before
 * severities were recorded hides any severity, and the run says so).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { fileNamed, STDIN_PATH } from '../load/sources.js';
import { writeFileAtomic } from '../output-safety/write.js';
import { SEVERITIES, type Severity } from '../severity.js';
import { severityAtLeast, type Finding, type Report } from './finding.js';
import { restoreUncovered } from './covers.js';

export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  readonly ruleId: string;
  /** Relative to the baseline file's folder, `/`-separated; `<stdin>` stays as is. */
  readonly file: string;
  readonly kind: string | null;
  readonly name: string | null;
  readonly webhook: string | null;
  readonly fieldPath: string | null;
  /** How many findings have this fingerprint. */
  readonly count: number;
  /** The findings' severity when recorded: a finding above it is not hidden (absent in older baselines). */
  readonly severity?: Severity;
  /**
   * For a finding in rendered `helm template` output: the template its `# Source:` comment names
   * (`file` is then the file read, so that a comment in one file never matches another's entries).
   */
  readonly template?: string;
  /**
   * The other places the findings stand for (Finding.alsoAt), sorted; absent when none. A
   * finding that stands for a place not among them is new (and said: BaselineResult.grown).
   */
  readonly alsoAt?: readonly string[];
}

export interface Baseline {
  readonly version: typeof BASELINE_VERSION;
  readonly tool: 'admission-lint';
  readonly entries: readonly BaselineEntry[];
}

export interface BaselineResult {
  readonly report: Report;
  /** Findings hidden because the baseline has them. */
  readonly matched: number;
  /** Baseline entries (counting duplicates) that no finding matched any more. */
  readonly gone: number;
  /** Findings not hidden because their severity rose above the entry's. */
  readonly raised: number;
  /** Findings not hidden because they stand for a place their entry does not list (Finding.alsoAt). */
  readonly grown: number;
  /** Entries that record no severity (written by an older admission-lint): they hide any severity. */
  readonly withoutSeverity: number;
}

type Fingerprint = Omit<BaselineEntry, 'count' | 'severity'>;

/** File paths are stored relative to the baseline file, so any working directory gives the same. */
function baselinePath(file: string, baselineDir: string, cwd: string): string {
  if (file === STDIN_PATH) return file;
  const absolute = isAbsolute(file) ? file : resolve(cwd, file);
  // A file named as standard input is shown keeps its `./`.
  return fileNamed(relative(baselineDir, absolute).split('\\').join('/'));
}

export function fingerprintOf(finding: Finding, baselineDir: string, cwd: string): Fingerprint {
  return {
    ruleId: finding.ruleId,
    file: baselinePath(finding.rendered?.file ?? finding.file, baselineDir, cwd),
    ...(finding.rendered !== undefined ? { template: finding.file } : {}),
    kind: finding.object?.kind ?? null,
    name: finding.object?.name ?? null,
    webhook: finding.webhook,
    fieldPath: finding.fieldPath,
    ...(finding.alsoAt !== undefined && finding.alsoAt.length > 0 ? { alsoAt: [...new Set(finding.alsoAt)].sort() } : {}),
  };
}

/** Whether an entry's places include every other place of the finding (an entry without them: none). */
function coversPlaces(entry: readonly string[] | undefined, finding: readonly string[] | undefined): boolean {
  return (finding ?? []).every((place) => entry?.includes(place) === true);
}

function keyOf(fingerprint: Fingerprint): string {
  return JSON.stringify([fingerprint.ruleId, fingerprint.file, fingerprint.kind, fingerprint.name, fingerprint.webhook, fingerprint.fieldPath, ...(fingerprint.template !== undefined ? [fingerprint.template] : [])]);
}

export function createBaseline(findings: readonly Finding[], baselineDir: string, cwd: string): Baseline {
  const counts = new Map<string, { fingerprint: Fingerprint; count: number; severity: Severity }>();
  for (const finding of findings) {
    const fingerprint = fingerprintOf(finding, baselineDir, cwd);
    const key = JSON.stringify([keyOf(fingerprint), fingerprint.alsoAt ?? [], finding.severity]);
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { fingerprint, count: 1, severity: finding.severity });
  }
  // Sorted by file (then object, field, rule) so that a rewritten baseline diffs cleanly in review.
  const sortKey = (f: Fingerprint): string => JSON.stringify([f.file, f.kind, f.name, f.webhook, f.fieldPath, f.ruleId]);
  const entries = [...counts.values()]
    .map(({ fingerprint, count, severity }) => ({ ...fingerprint, count, severity }))
    .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0) || SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  return { version: BASELINE_VERSION, tool: 'admission-lint', entries };
}

export function writeBaseline(path: string, findings: readonly Finding[], cwd: string): Baseline {
  const baseline = createBaseline(findings, dirname(resolve(cwd, path)), cwd);
  // Atomic and never through a symbolic link: a baseline is often rewritten in a checkout.
  writeFileAtomic('--write-baseline', path, `${JSON.stringify(baseline, null, 2)}\n`, { cwd, what: `the baseline ${path}` });
  return baseline;
}

const nullableString = (value: unknown): boolean => value === null || typeof value === 'string';

export function readBaseline(path: string, cwd: string): Baseline {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no such baseline file: ${path}` : `cannot read the baseline ${path}: ${code ?? String(error)}`, code === 'ENOENT' ? 'create it with --write-baseline' : undefined);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: not a baseline file: ${error instanceof Error ? error.message : String(error)}`);
  }
  const record = data as Partial<Baseline> | null;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new InputError(`${path}: not a baseline file (expected a JSON object with version and entries)`);
  if (record.version !== BASELINE_VERSION) throw new InputError(`${path}: baseline version ${JSON.stringify(record.version)} is not supported (this admission-lint writes version ${BASELINE_VERSION})`, 'rewrite it with --write-baseline');
  if (!Array.isArray(record.entries)) throw new InputError(`${path}: not a baseline file (entries must be a list)`);
  record.entries.forEach((entry: Partial<BaselineEntry>, index) => {
    const valid =
      typeof entry === 'object' && entry !== null && typeof entry.ruleId === 'string' && typeof entry.file === 'string' &&
      nullableString(entry.kind) && nullableString(entry.name) && nullableString(entry.webhook) && nullableString(entry.fieldPath) &&
      Number.isInteger(entry.count) && (entry.count ?? 0) >= 1 &&
      (entry.severity === undefined || (SEVERITIES as readonly unknown[]).includes(entry.severity)) &&
      (entry.template === undefined || typeof entry.template === 'string') &&
      (entry.alsoAt === undefined || (Array.isArray(entry.alsoAt) && entry.alsoAt.every((place) => typeof place === 'string')));
    if (!valid) throw new InputError(`${path}: entries[${index}] is not a baseline entry (ruleId, file, kind, name, webhook, fieldPath, count, severity)`);
  });
  return record as Baseline;
}

/** The report without the findings the baseline has (each entry hides up to `count` of them). */
export function applyBaseline(report: Report, baseline: Baseline, baselineDir: string, cwd: string): BaselineResult {
  /** Per fingerprint: what each entry has left to hide, lowest severity first (an entry without one last: it hides any). */
  const remaining = new Map<string, { severity: Severity | undefined; left: number; alsoAt: readonly string[] | undefined }[]>();
  let withoutSeverity = 0;
  for (const entry of baseline.entries) {
    const key = keyOf(entry);
    const list = remaining.get(key) ?? [];
    list.push({ severity: entry.severity, left: entry.count, alsoAt: entry.alsoAt });
    remaining.set(key, list);
    if (entry.severity === undefined) withoutSeverity++;
  }
  const rank = (severity: Severity | undefined): number => (severity === undefined ? 3 : 2 - SEVERITIES.indexOf(severity));
  for (const list of remaining.values()) list.sort((a, b) => rank(a.severity) - rank(b.severity));
  let matched = 0;
  let raised = 0;
  let grown = 0;
  const kept = report.findings.filter((finding) => {
    const fingerprint = fingerprintOf(finding, baselineDir, cwd);
    const list = remaining.get(keyOf(fingerprint));
    if (list === undefined) return true;
    // A finding is hidden by an entry of its severity or above that lists its other places: one
    // that rose, or that stands for a place added since, is new.
    const entry = list.find((candidate) => candidate.left > 0 && (candidate.severity === undefined || severityAtLeast(candidate.severity, finding.severity)) && coversPlaces(candidate.alsoAt, fingerprint.alsoAt));
    if (entry === undefined) {
      // Its entry is still there, at a lower severity or with fewer places: the finding is new, the entry not gone.
      const lower = list.find((candidate) => candidate.left > 0 && coversPlaces(candidate.alsoAt, fingerprint.alsoAt));
      const fewer = lower ?? list.find((candidate) => candidate.left > 0);
      if (fewer !== undefined) {
        fewer.left--;
        if (lower !== undefined) raised++;
        else grown++;
      }
      return true;
    }
    entry.left--;
    matched++;
    return false;
  });
  let gone = 0;
  for (const list of remaining.values()) for (const entry of list) gone += entry.left;
  // An info that deferred to a finding the baseline hides says its cause again, at its severity.
  const findings = restoreUncovered(kept);
  const summary = {
    ...report.summary,
    errors: findings.filter((finding) => finding.severity === 'error').length,
    warnings: findings.filter((finding) => finding.severity === 'warning').length,
    infos: findings.filter((finding) => finding.severity === 'info').length,
  };
  return { report: { ...report, findings, summary }, matched, gone, raised, grown, withoutSeverity };
}
