/**
 * CEL from manifests is evaluated with bounded work (issue 12, item 2): a regex that backtracks
 * in JS runs with RE2, nested comprehensions and list doubling stop at the evaluation budget,
 * and deep nesting is a compile error at cel-go's recursion limit, never a stack overflow. Each
 * payload goes through lint (system-request matching), simulate, report and policy validation.
 * Work is bounded by the budget; the timeouts are generous guards, not measurements.
 */
import { describe, expect, it } from 'vitest';
import { OVER_BUDGET, PER_CALL_LIMIT } from '../src/cel/budget.js';
import { RECURSION_LIMIT_MESSAGE } from '../src/cel/depth.js';
import { re2Error } from '../src/cel/re2.js';
import { conditionsOutcome, SYSTEM_REQUESTERS } from '../src/match/system-requests.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { buildReport } from '../src/report/build.js';
import { simulate } from '../src/simulate/simulate.js';
import { evaluateConditionResult as evaluateWithMeter } from '../src/cel/evaluate.js';
import { prepareCel } from '../src/cel/library.js';
import { Meter } from '../src/cel/budget.js';
import { RunMemo } from '../src/run-scope.js';

/** Each evaluation with a fresh run's meter, as a run of its own. */
const evaluateConditionResult = (expression: string, context: Record<string, unknown>) => evaluateWithMeter(expression, context, new Meter());
import { lintText } from './helpers.js';

const LIST = `[${Array.from({ length: 20 }, (_, i) => i).join(', ')}]`;

/** cel.bind doubling a one-element list 30 times (2^30 elements if nothing stops it). */
function doubling(): string {
  let body = 'size(l30) > 0';
  for (let i = 30; i >= 1; i--) body = `cel.bind(l${i}, l${i - 1} + l${i - 1}, ${body})`;
  return `cel.bind(l0, [1], ${body})`;
}

/** Seven nested .all() over 20 elements: 20^7 iterations if nothing stops it. */
function nestedAll(): string {
  let body = 'true';
  for (let i = 0; i < 7; i++) body = `${LIST}.all(x${i}, ${body})`;
  return body;
}

const PAYLOADS = {
  backtracking: `'${'a'.repeat(700)}!'.matches('^(a+)+$')`,
  nestedAll: nestedAll(),
  doubling: doubling(),
  manyNots: `${'!'.repeat(4000)}true`,
};
/** What each evaluates to here: RE2 finds no match; cel-go keeps the parity of a run of `!` (4,000: true). */
const OUTCOME: Record<keyof typeof PAYLOADS, { value: boolean } | { notEvaluated: string }> = {
  backtracking: { value: false },
  nestedAll: { notEvaluated: OVER_BUDGET },
  doubling: { notEvaluated: OVER_BUDGET },
  manyNots: { value: true },
};
/**
 * The payloads the API server rejects at compile time: cel.bind is not in Kubernetes' CEL
 * environment (environment/base.go has no ext.Bindings), so `doubling` is an api-validation
 * finding; it stays here for the evaluator's bounds (cel-js evaluates cel.bind).
 */
const REJECTED: ReadonlySet<keyof typeof PAYLOADS> = new Set(['doubling']);
const apiValidationMessages = (findings: readonly { ruleId: string; message: string }[]) => findings.filter((f) => f.ruleId === 'api-validation').map((f) => f.message);
const expectCompileVerdict = (name: keyof typeof PAYLOADS, messages: readonly string[]): void => {
  if (REJECTED.has(name)) {
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toContain("undeclared reference to 'cel' (in container '')");
  } else {
    expect(messages).toEqual([]);
  }
};
/** Nesting cel-go's parser refuses (more than 250 levels). */
const DEEP = `${'!('.repeat(4000)}true${')'.repeat(4000)}`;

const TIMEOUT = 60_000;

function webhook(expression: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: guard
webhooks:
  - name: guard.example.com
    failurePolicy: Fail
    sideEffects: None
    admissionReviewVersions: ["v1"]
    clientConfig:
      service: {namespace: guard, name: guard, path: /validate}
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}
    matchConditions:
      - name: payload
        expression: ${JSON.stringify(expression)}
`;
}

function policy(expression: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: guard.example.com
spec:
  matchConstraints:
    resourceRules:
      - {apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}
  variables:
    - name: payload
      expression: ${JSON.stringify(expression)}
  validations:
    - expression: ${JSON.stringify(expression)}
`;
}

function mutatingPolicy(expression: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: guard.example.com
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
      - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"]}
  mutations:
    - patchType: JSONPatch
      jsonPatch:
        expression: ${JSON.stringify(expression)}
`;
}

const stdin = (text: string) => () => new TextEncoder().encode(text);

describe('bounded CEL evaluation', () => {
  it.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('%s: evaluates to its documented outcome within the budget', async (name) => {
    await prepareCel();
    expect(evaluateConditionResult(PAYLOADS[name], { request: {} })).toEqual(OUTCOME[name]);
  }, TIMEOUT);

  it('runs matches with RE2: a pattern RE2 rejects is not evaluated with JS RegExp', async () => {
    await prepareCel();
    expect(re2Error('(a)\\1')).toBeDefined();
    expect(re2Error('a(?=b)')).toBeDefined();
    expect(evaluateConditionResult(String.raw`'aa'.matches('(a)\\1')`, {})).toEqual({ notEvaluated: 'evaluation error' });
    expect(evaluateConditionResult(`'abc'.matches('^a.c$') && !'abc'.matches('^b')`, {})).toEqual({ value: true });
    // The cost of matches counts the input: a long enough one is over the budget before it runs.
    const long = 'a'.repeat(PER_CALL_LIMIT);
    expect(evaluateConditionResult(`x.matches('^(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u|v|w|x|y|z)+$')`, { x: long })).toEqual({ notEvaluated: OVER_BUDGET });
  });

  it('gives lint an unknown outcome for a condition over the budget, and a known one otherwise', async () => {
    await prepareCel();
    const requests = [{ group: '', resource: 'pods', subresource: '', operation: 'CREATE', namespace: 'kube-system', requester: SYSTEM_REQUESTERS[0]! }];
    const outcome = (expression: string) => conditionsOutcome({ memo: new RunMemo() }, [{ name: 'payload', expression }], requests);
    expect(outcome(PAYLOADS.backtracking)).toBe('skipped');
    expect(outcome(PAYLOADS.nestedAll)).toBe('unknown');
    expect(outcome(PAYLOADS.doubling)).toBe('unknown');
    expect(outcome(PAYLOADS.manyNots)).toBe('called');
  }, TIMEOUT);
});

describe('payloads through the commands', () => {
  it.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('lint: %s finishes without an internal error', async (name) => {
    const findings = await lintText(webhook(PAYLOADS[name]));
    expect(findings.filter((f) => f.message.includes('internal error'))).toEqual([]);
    expectCompileVerdict(name, apiValidationMessages(findings));
    // Only a condition known to be false keeps the system's writes from the webhook: one that
    // cannot be evaluated (over the budget) may match (issue 21, class 2).
    const kubeSystem = findings.filter((f) => f.ruleId === 'matches-kube-system');
    expect(kubeSystem.length > 0).toBe(name !== 'backtracking');
  }, TIMEOUT);

  it.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('simulate: %s gives its outcome or "not evaluated"', async (name) => {
    const path = await simulate({ paths: ['-'], flags: { operation: 'CREATE', resource: 'pods', namespace: 'default' }, kubeVersion: DEFAULT_KUBE_VERSION, readStdin: stdin(webhook(PAYLOADS[name])) });
    const entry = path.validating.find((e) => e.webhook === 'guard.example.com')!;
    const expected = OUTCOME[name];
    if ('value' in expected) {
      expect(entry.called).toBe(expected.value);
      if (!expected.value) expect(entry.reason).toBe('matchCondition "payload" is false');
    } else {
      expect(entry.called).toBe(true);
      expect(entry.reason).toMatch(/^depends on: .*\(not evaluated: over the evaluation budget\)$/s);
    }
  }, TIMEOUT);

  it.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('report: %s marks the webhook by its outcome', async (name) => {
    const report = await buildReport({ paths: ['-'], kubeVersion: DEFAULT_KUBE_VERSION, toolVersion: 'test', readStdin: stdin(webhook(PAYLOADS[name])) });
    const marks = new Set(report.webhooks.find((w) => w.webhook === 'guard.example.com')!.critical.map((cell) => cell.mark));
    const expected = OUTCOME[name];
    if (!('value' in expected)) expect(marks.has('depends')).toBe(true);
    else if (expected.value) expect(marks.has('blocks')).toBe(true);
    else expect([...marks]).toEqual(['none']);
  }, TIMEOUT);

  it.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('policy validation and variable: %s gets the API server verdict, never an internal error', async (name) => {
    const findings = await lintText(policy(PAYLOADS[name]));
    expect(findings.filter((f) => f.message.includes('internal error'))).toEqual([]);
    expectCompileVerdict(name, apiValidationMessages(findings));
  }, TIMEOUT);
});

describe('nesting past the parser limit', () => {
  const recursion = `compilation failed: ERROR: <input>:-1:0: ${RECURSION_LIMIT_MESSAGE}`;
  const apiValidation = async (text: string) => (await lintText(text, { only: ['api-validation'] })).map((f) => f.message);

  it('is one finding per expression in a webhook matchCondition, never an internal error', async () => {
    const messages = await apiValidation(webhook(DEEP));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(recursion);
    const all = await lintText(webhook(DEEP));
    expect(all.filter((f) => f.message.includes('internal error'))).toEqual([]);
  }, TIMEOUT);

  it('is a finding for a policy variable, validation and mutation', async () => {
    // The same expression as a variable and a validation: one cause, one finding naming the other.
    const messages = await apiValidation(policy(DEEP));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(recursion);
    expect(messages[0]).toMatch(/\(the same in spec\.validations\[0\]\.expression\)/);
    const mutation = await apiValidation(mutatingPolicy(DEEP));
    expect(mutation).toHaveLength(1);
    expect(mutation[0]).toContain(recursion);
  }, TIMEOUT);

  it('counts a chain of 250 operators as cel-go does, and leaves long || chains alone', async () => {
    await prepareCel();
    const sum = `${Array(300).fill('1').join(' + ')} > 0`;
    expect((await apiValidation(policy(sum))).every((m) => m.includes(recursion))).toBe(true);
    // 10,000 terms: 90,000 code points, under cel-go's limit of 100,000.
    const ors = Array(10_000).fill('false').join(' || ');
    const findings = await lintText(webhook(ors));
    expect(findings.filter((f) => f.message.includes('internal error') || f.ruleId === 'api-validation')).toEqual([]);
    expect(evaluateConditionResult(ors, {})).toEqual({ notEvaluated: OVER_BUDGET });
    // Past the limit the parser refuses it unread (parser/parser.go), as the API server does.
    const longer = Array(20_000).fill('false').join(' || ');
    const refused = await apiValidation(policy(longer));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((m) => m.includes('expression code point size exceeds limit: size: 179996, limit 100000'))).toBe(true);
    expect(evaluateConditionResult(longer, {})).toEqual({ notEvaluated: 'over the size limit' });
  }, TIMEOUT);

  it('collapses runs of ! and - with their parity, outside strings', async () => {
    await prepareCel();
    expect(evaluateConditionResult(`${'!'.repeat(4001)}true`, {})).toEqual({ value: false });
    expect(evaluateConditionResult(`1 - - - 1 == 0 && ${'-'.repeat(1000)}1 == 1 && '!!' != '' && 1 != 2`, {})).toEqual({ value: true });
  });
});
