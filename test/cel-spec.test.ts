/**
 * cel-go's own parser, checker and comprehension tests (@bufbuild/cel-spec testdata), each run
 * through src/cel/check as a ValidatingAdmissionPolicy variable on a 1.35 server. Every case
 * agrees with what cel-go produced (verdict; the type of an accepted case; the whole error text
 * of a rejected one, as the API server shows it after "compilation failed: "), or sits in the
 * one table of deviations the Kubernetes environment causes (test/cel-spec/deviations.ts), or
 * in OPEN below: a difference of ours, not yet fixed, which this test keeps from growing.
 */
import { describe, expect, it } from 'vitest';
import { caseDeclarations, celGoOutcome, ourOutcome, specCases, type Outcome, type SpecCase, type SuiteName } from './cel-spec/harness.js';
import { CAUSES, DEVIATIONS, type Deviation, type Expected } from './cel-spec/deviations.js';

/** Differences of our parser from cel-go's, not caused by the Kubernetes environment: to be fixed. */
const OPEN: readonly { readonly suite: SuiteName; readonly index: number; readonly expr: string; readonly why: string }[] = [];

const cases = specCases();
const key = (c: { suite: SuiteName; index: number }): string => `${c.suite}#${c.index}`;
const deviations = new Map<string, Deviation>(DEVIATIONS.map((d) => [key(d), d]));
const open = new Set(OPEN.map(key));

/** The issue blocks of an error text (each "ERROR: …" with its snippet lines). */
function issues(text: string): string[] {
  return text.split(/\n(?=ERROR: )/);
}

/** What a case must give: cel-go's recorded outcome, or the deviation table's. */
function expectedFor(c: SpecCase): Expected {
  const deviation = deviations.get(key(c));
  if (deviation) return deviation.k8s;
  const celGo = celGoOutcome(c);
  return celGo.verdict === 'accept' ? { verdict: 'accept', ...(celGo.type !== undefined ? { type: celGo.type } : {}) } : { verdict: 'reject', text: celGo.text!, parsed: celGo.parsed };
}

/** How an outcome differs from what is expected (empty when it agrees). */
function differences(c: SpecCase, outcome: Outcome, expected: Expected): string[] {
  const out: string[] = [];
  if (outcome.verdict !== expected.verdict) out.push(`verdict ${outcome.verdict}, expected ${expected.verdict}`);
  if (expected.type !== undefined && outcome.type !== expected.type) out.push(`type ${outcome.type}, expected ${expected.type}`);
  if (expected.parsed !== undefined && outcome.parsed !== expected.parsed) out.push(`parsed ${outcome.parsed}, expected ${expected.parsed}`);
  if (expected.stage !== undefined && outcome.stage !== expected.stage) out.push(`stage ${outcome.stage}, expected ${expected.stage}`);
  const text = outcome.text ?? '';
  if (expected.text !== undefined && text !== expected.text) out.push(`text ${JSON.stringify(text)}, expected ${JSON.stringify(expected.text)}`);
  if (expected.contains !== undefined && !text.includes(expected.contains)) out.push(`text ${JSON.stringify(text)} lacks ${JSON.stringify(expected.contains)}`);
  if (expected.limitIssue !== undefined) {
    const want = issues(celGoOutcome(c).text ?? '').filter((issue) => !issue.includes(expected.limitIssue!)).join('\n');
    if (!text.startsWith(want) || text.includes(expected.limitIssue)) out.push(`text ${JSON.stringify(text)} does not start with ${JSON.stringify(want)}, or has the limit issue`);
  }
  return out;
}

function run(c: SpecCase): string[] {
  const declarations = caseDeclarations(c);
  return differences(c, ourOutcome(c, declarations.ok ? declarations.declarations : {}), expectedFor(c));
}

describe('the deviation table', () => {
  it('names existing cases by their expression, once each, with causes that cite a source', () => {
    const seen = new Set<string>();
    for (const d of DEVIATIONS) {
      const c = cases.find((x) => x.suite === d.suite && x.index === d.index);
      expect(c, key(d)).toBeDefined();
      expect(c!.expr.includes(d.expr), `${key(d)}: ${JSON.stringify(c!.expr)} has ${JSON.stringify(d.expr)}`).toBe(true);
      expect(seen.has(key(d)), `${key(d)} listed twice`).toBe(false);
      seen.add(key(d));
      expect(d.causes.length).toBeGreaterThan(0);
      for (const cause of d.causes) expect(CAUSES[cause].source).toMatch(/\.go\b/);
    }
  });

  it('lists only cases where cel-go, as the package records it, gives another outcome than Kubernetes', () => {
    for (const d of DEVIATIONS) {
      const c = cases.find((x) => x.suite === d.suite && x.index === d.index)!;
      const recorded = celGoOutcome(c);
      expect(differences(c, recorded, d.k8s), key(d)).not.toEqual([]);
    }
  });

  it('every OPEN case is one of ours: not in the deviation table', () => {
    for (const o of OPEN) expect(deviations.has(key(o)), key(o)).toBe(false);
  });
});

describe.each(['parsing', 'checking', 'comprehension'] as const)('cel-go %s tests as a 1.35 ValidatingAdmissionPolicy variable', (suite) => {
  const suiteCases = cases.filter((c) => c.suite === suite);

  it('has the cases the package publishes', () => {
    expect(suiteCases.length).toBeGreaterThan(90);
  });

  it('every case agrees with cel-go or its deviation row; the disagreements are exactly the OPEN ones', () => {
    const disagreeing: Record<string, string[]> = {};
    for (const c of suiteCases) {
      const diffs = run(c);
      if (diffs.length > 0) disagreeing[`${key(c)} ${JSON.stringify(c.expr).slice(0, 60)}`] = diffs;
    }
    const unexpected = Object.keys(disagreeing).filter((k) => !open.has(k.split(' ')[0]!));
    expect(Object.fromEntries(unexpected.map((k) => [k, disagreeing[k]]))).toEqual({});
    const stillOpen = OPEN.filter((o) => o.suite === suite).map(key);
    expect(Object.keys(disagreeing).map((k) => k.split(' ')[0])).toEqual(stillOpen);
  });
});

describe('the checker cases run with their declarations', () => {
  it('declares each typeEnv our types can express (protobuf message, wrapper and well-known types are deviations)', () => {
    const checking = cases.filter((c) => c.suite === 'checking' && c.test.original.typeEnv.length > 0);
    const declared = checking.filter((c) => caseDeclarations(c).ok);
    // A typeEnv we cannot declare either does not matter to the case, or makes it a protobufTypes deviation.
    for (const c of checking.filter((x) => !caseDeclarations(x).ok && deviations.has(key(x)))) expect(deviations.get(key(c))!.causes, key(c)).toContain('protobufTypes');
    // Lists, maps, dyn, type parameters, abstract and optional types, and function overloads.
    expect(declared.map((c) => c.expr)).toEqual(expect.arrayContaining(['size(x) == x.size()', 'myfun(1, true, 3u) + 1.myfun(false, 3u).myfun(true, 42u)', 'set([1, 2]) == x', 'a.b + 1 == a[0]', 'a.?b']));
    expect(declared.length).toBeGreaterThanOrEqual(20);
  });
});
