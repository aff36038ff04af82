/**
 * SARIF 2.1.0, for GitHub code scanning and other SARIF viewers: one run, every registered rule
 * as a reportingDescriptor, one result per finding. GitHub's upload rejects logs with invalid
 * regions, so every region here is non-empty and well ordered.
 */
import { posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding, Report } from '../engine/finding.js';
import { STDIN_PATH } from '../load/sources.js';
import type { RuleMeta, Severity } from '../rule.js';
import { INFORMATION_URI, markdownToText, ruleDocsUrl } from './docs.js';
import { guardJson } from './escape.js';
import { findingHash, occurrenceCounter } from './fingerprint.js';
import type { FormatOptions } from './types.js';

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const SRCROOT = 'SRCROOT';
/**
 * Our partialFingerprints key. GitHub reserves `primaryLocationLineHash` for its own algorithm (a
 * hash of the line's text) and computes it at upload; we never emit it.
 */
export const FINGERPRINT_KEY = 'admissionLint/v1';

type Level = 'error' | 'warning' | 'note';
const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

/** `timeout-out-of-range` → `TimeoutOutOfRange`. */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

interface ArtifactLocation {
  readonly uri: string;
  readonly uriBaseId?: string;
}

/** Percent-encodes each segment of a `/`-separated path (spaces, `#`, `%`, `?`, non-ASCII…). */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * A finding's file as a SARIF artifact location: relative to SRCROOT (the working folder) when
 * the file is inside it, an absolute file: URI when it is not, and `stdin` for standard input.
 */
export function artifactLocation(file: string, cwd: string): ArtifactLocation {
  if (file === STDIN_PATH) return { uri: 'stdin' };
  const slashed = file.split('\\').join('/');
  const root = posix.resolve(cwd.split('\\').join('/'));
  const absolute = posix.resolve(root, slashed);
  const relative = posix.relative(root, absolute);
  if (relative !== '' && !relative.startsWith('../') && relative !== '..' && !posix.isAbsolute(relative)) {
    return { uri: encodePath(relative), uriBaseId: SRCROOT };
  }
  return { uri: pathToFileURL(absolute).href };
}

interface Region {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/**
 * Our spans are 1-based with an exclusive end, as SARIF's are. An empty or inverted span (an
 * insertion point, a problem at the end of the file) becomes one character wide, which every
 * validator and GitHub accept.
 */
export function region(finding: Pick<Finding, 'line' | 'column' | 'endLine' | 'endColumn'>): Region {
  const startLine = Math.max(1, Math.trunc(finding.line) || 1);
  const startColumn = Math.max(1, Math.trunc(finding.column) || 1);
  let endLine = Math.trunc(finding.endLine) || startLine;
  let endColumn = Math.trunc(finding.endColumn) || startColumn;
  if (endLine < startLine || (endLine === startLine && endColumn <= startColumn)) {
    endLine = startLine;
    endColumn = startColumn + 1;
  }
  if (endColumn < 1) endColumn = 1;
  return { startLine, startColumn, endLine, endColumn };
}

/**
 * Stable across line moves (fingerprint.ts). The file is the artifact URI, so `./a.yaml` and
 * `a.yaml` agree. Findings that share all of these get an occurrence suffix.
 */
export function fingerprintBase(finding: Finding, location: ArtifactLocation): string {
  return findingHash(finding, location.uriBaseId ? `${location.uriBaseId}:${location.uri}` : location.uri);
}

/**
 * Where a result is. For rendered input (`helm template`) the location is the file that was read
 * (the rendered stream), at the finding's true region: a `# Source:` comment is text from the
 * input, and a path it names (absolute, outside the folder, a file the change did not touch) never
 * becomes a location. The template it names is said in a related location's message only (and
 * in `properties.rendered`).
 */
function resultLocations(finding: Finding, location: ArtifactLocation): Record<string, unknown> {
  const rendered = finding.rendered;
  if (rendered === undefined) {
    return { message: { text: finding.message }, locations: [{ physicalLocation: { artifactLocation: location, region: region(finding) } }] };
  }
  return {
    message: { text: `${finding.message} (template ${finding.file})` },
    locations: [{ physicalLocation: { artifactLocation: location, region: region(rendered) } }],
    relatedLocations: [{ id: 1, message: { text: `template named by the # Source: comment of the rendered output: ${finding.file}` } }],
  };
}

function sarifFixes(finding: Finding, location: ArtifactLocation, options: FormatOptions): Record<string, unknown> {
  const fixes = options.fixes?.(finding) ?? [];
  if (fixes.length === 0) return {};
  return {
    fixes: fixes.map((fix) => ({
      description: { text: `${fix.kind === 'fix' ? 'fix (keeps behaviour; admission-lint --fix applies it)' : 'suggestion (changes behaviour)'}: ${fix.description}` },
      artifactChanges: [
        {
          artifactLocation: location,
          replacements: fix.edits.map((edit) => ({
            deletedRegion: { startLine: edit.start.line, startColumn: edit.start.column, endLine: edit.end.line, endColumn: edit.end.column },
            insertedContent: { text: edit.text },
          })),
        },
      ],
    })),
  };
}

function descriptor(meta: RuleMeta, options: FormatOptions): Record<string, unknown> {
  const url = ruleDocsUrl(meta.id);
  const description = options.ruleDescription?.(meta.id);
  const name = pascalCase(meta.id);
  return {
    id: meta.id,
    // SARIF1001: a name that only restates the id (`schema` → `Schema`) is left out.
    ...(name.toLowerCase() === meta.id.toLowerCase() ? {} : { name }),
    shortDescription: { text: meta.title },
    fullDescription: description ? { text: markdownToText(description), markdown: description } : { text: meta.title },
    help: {
      text: `${meta.help} Documentation: ${url}`,
      markdown: `${meta.help}\n\n[Documentation of ${meta.id}](${url})`,
    },
    helpUri: url,
    defaultConfiguration: { level: LEVEL[meta.severity] },
  };
}

function unknownDescriptor(id: string): Record<string, unknown> {
  const name = pascalCase(id);
  return {
    id,
    ...(name.toLowerCase() === id.toLowerCase() ? {} : { name }),
    shortDescription: { text: id },
    fullDescription: { text: id },
    help: { text: id },
    defaultConfiguration: { level: 'warning' },
  };
}

export function formatSarif(report: Report, options: FormatOptions): string {
  const rules = options.rules.map((meta) => descriptor(meta, options));
  const ruleIndex = new Map(options.rules.map((meta, index) => [meta.id, index]));
  const occurrenceOf = occurrenceCounter();

  const suppressedResults = new Map((report.suppressed ?? []).map((entry) => [entry.finding, entry]));
  const results = [...report.findings, ...suppressedResults.keys()].map((finding) => {
    let index = ruleIndex.get(finding.ruleId);
    if (index === undefined) {
      // A finding of a rule the caller did not list: describe it rather than point at nothing.
      index = rules.length;
      rules.push(unknownDescriptor(finding.ruleId));
      ruleIndex.set(finding.ruleId, index);
    }
    // A rendered finding is located in the stream that was read, never in the template it names.
    const location = artifactLocation(finding.rendered?.file ?? finding.file, options.cwd);
    const base = fingerprintBase(finding, location);
    const occurrence = occurrenceOf(base);
    const properties: Record<string, unknown> = {};
    if (finding.fieldPath !== null) properties.fieldPath = finding.fieldPath;
    if (finding.object !== null) properties.object = finding.object;
    if (finding.webhook !== null) properties.webhook = finding.webhook;
    properties.documentIndex = finding.documentIndex;
    if (finding.help !== null) properties.help = finding.help;
    if (finding.rendered !== undefined) properties.rendered = finding.rendered;
    return {
      ruleId: finding.ruleId,
      ruleIndex: index,
      level: LEVEL[finding.severity],
      ...resultLocations(finding, location),
      partialFingerprints: { [FINGERPRINT_KEY]: `${base}:${occurrence}` },
      properties,
      // Fixes (--fix applies them) and suggestions (behaviour changes): SARIF has one kind, the description says which.
      ...sarifFixes(finding, location, options),
      // A finding an inline suppression removed: kept, marked, with its justification.
      ...(suppressedResults.has(finding) ? { suppressions: [{ kind: 'inSource', justification: suppressedResults.get(finding)!.reason || suppressedResults.get(finding)!.by }] } : {}),
    };
  });

  const root = posix.resolve(options.cwd.split('\\').join('/'));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'admission-lint',
            version: report.toolVersion,
            semanticVersion: report.toolVersion,
            informationUri: INFORMATION_URI,
            rules,
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(root.endsWith('/') ? root : `${root}/`).href } },
        columnKind: 'utf16CodeUnits',
        results,
        // What the configuration changed about the gate, and the run's counts.
        properties: { summary: report.summary, ...(report.gate ? { gate: report.gate } : {}) },
      },
    ],
  };
  // Values from the input must not read as workflow commands when the log is printed (escape.ts).
  return guardJson(`${JSON.stringify(log, null, 2)}\n`);
}
