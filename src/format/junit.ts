/**
 * JUnit XML, for CI systems that show test reports: one <testsuite> per file, one <testcase> per
 * linted object (file-level problems such as YAML syntax go to a "document N" case), one
 * <failure> per finding. Objects without findings are passing test cases, so a report lists what
 * was checked, not only what failed (when the CLI passes the run's inventory).
 */
import type { Finding, Report } from '../engine/finding.js';
import { guardMarkup, safeMarkupText } from './escape.js';
import type { FormatOptions, Inventory } from './types.js';

/** Characters XML 1.0 does not allow at all, not even as character references. */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripForbidden(value: string): string {
  return value.replace(FORBIDDEN, '');
}

/**
 * Text content: the characters XML forbids dropped, DEL and C1 controls (which XML allows) as
 * visible escapes (escape.ts), `&`, `<`, `>` escaped (`>` so that `]]>` cannot occur), CR as a
 * reference (a parser would turn a literal CR LF into LF).
 */
export function escapeText(value: string): string {
  return safeMarkupText(stripForbidden(value)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** A double-quoted attribute value; line breaks and tabs as references, so parsers keep them. */
export function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

interface TestCase {
  readonly classname: string;
  readonly name: string;
  readonly failures: Finding[];
}

interface Suite {
  readonly name: string;
  readonly cases: Map<string, TestCase>;
}

const documentName = (documentIndex: number): string => `document ${documentIndex + 1}`;

function caseKey(documentIndex: number, kind: string | null, name: string | null): string {
  return kind === null ? `doc\u0000${documentIndex}` : `obj\u0000${documentIndex}\u0000${kind}\u0000${name ?? ''}`;
}

function objectCase(documentIndex: number, kind: string, name: string | null): TestCase {
  return { classname: kind, name: name ?? `(no name, ${documentName(documentIndex)})`, failures: [] };
}

function collect(report: Report, inventory: Inventory | undefined): Map<string, Suite> {
  const suites = new Map<string, Suite>();
  const suite = (file: string): Suite => {
    let found = suites.get(file);
    if (!found) {
      found = { name: file, cases: new Map() };
      suites.set(file, found);
    }
    return found;
  };
  for (const file of inventory?.files ?? []) {
    const { cases } = suite(file.path);
    for (const object of file.objects) {
      const key = caseKey(object.documentIndex, object.kind, object.name);
      if (!cases.has(key)) cases.set(key, objectCase(object.documentIndex, object.kind, object.name));
    }
  }
  for (const finding of report.findings) {
    const { cases } = suite(finding.file);
    const key = caseKey(finding.documentIndex, finding.object?.kind ?? null, finding.object?.name ?? null);
    let testCase = cases.get(key);
    if (!testCase) {
      testCase = finding.object
        ? objectCase(finding.documentIndex, finding.object.kind, finding.object.name)
        : { classname: finding.file, name: documentName(finding.documentIndex), failures: [] };
      cases.set(key, testCase);
    }
    testCase.failures.push(finding);
  }
  return suites;
}

function failureBody(finding: Finding): string {
  const lines = [`${finding.file}:${finding.line}:${finding.column}`, `severity: ${finding.severity}`, `rule: ${finding.ruleId}`];
  if (finding.webhook !== null) lines.push(`webhook: ${finding.webhook}`);
  if (finding.fieldPath !== null) lines.push(`field: ${finding.fieldPath}`);
  lines.push(`message: ${finding.message}`);
  if (finding.help !== null) lines.push(`help: ${finding.help}`);
  return lines.join('\n');
}

export function formatJunit(report: Report, options?: Pick<FormatOptions, 'inventory'>): string {
  const suites = [...collect(report, options?.inventory).values()];
  let tests = 0;
  let failures = 0;
  const body: string[] = [];
  for (const suite of suites) {
    const cases = [...suite.cases.values()];
    const failed = cases.filter((testCase) => testCase.failures.length > 0).length;
    tests += cases.length;
    failures += failed;
    body.push(`  <testsuite name="${escapeAttribute(suite.name)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="0">`);
    for (const testCase of cases) {
      const open = `    <testcase classname="${escapeAttribute(testCase.classname)}" name="${escapeAttribute(testCase.name)}" file="${escapeAttribute(suite.name)}"`;
      if (testCase.failures.length === 0) {
        body.push(`${open}/>`);
        continue;
      }
      body.push(`${open}>`);
      for (const finding of testCase.failures) {
        body.push(`      <failure message="${escapeAttribute(finding.message)}" type="${escapeAttribute(finding.ruleId)}">${escapeText(failureBody(finding))}</failure>`);
      }
      body.push('    </testcase>');
    }
    body.push('  </testsuite>');
  }
  // A failure body's lines and a value with a line break start lines: no workflow command (escape.ts).
  return guardMarkup([
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="admission-lint" tests="${tests}" failures="${failures}" errors="0">`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n'));
}
