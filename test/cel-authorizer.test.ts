/**
 * The authorizer library for system:masters (src/cel/authorizer.ts): every check kube-apiserver's
 * privileged-group authorizer makes for such a user is allowed; a service account's permissions
 * and any other requester's are not known, so a condition that needs them is not decided.
 */
import { describe, expect, it } from 'vitest';
import { privilegedAuthorizer } from '../src/cel/authorizer.js';
import { Meter } from '../src/cel/budget.js';
import { evaluateConditionResult } from '../src/cel/evaluate.js';
import { prepareCel } from '../src/cel/library.js';
import { celVariables, conditionsOutcome, SYSTEM_REQUESTERS, systemWritersOf } from '../src/match/system-requests.js';
import { RunMemo } from '../src/run-scope.js';

const evaluate = (expression: string, context: Record<string, unknown>) => evaluateConditionResult(expression, context, new Meter());

describe('the authorizer of a system:masters member', () => {
  it('allows every check, with no reason and no error', async () => {
    await prepareCel();
    const authorizer = privilegedAuthorizer();
    expect(evaluate(`authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('update').allowed()`, { authorizer })).toEqual({ value: true });
    expect(evaluate(`authorizer.path('/healthz').check('get').allowed()`, { authorizer })).toEqual({ value: true });
    expect(evaluate(`authorizer.requestResource.check('delete').allowed()`, { authorizer })).toEqual({ value: true });
    expect(evaluate(`authorizer.group('').resource('pods').check('list').reason() == '' && !authorizer.group('').resource('pods').check('list').errored()`, { authorizer })).toEqual({ value: true });
  });

  it("does not know a service account's permissions, nor another requester's", async () => {
    await prepareCel();
    expect(evaluate(`authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('get').allowed()`, { authorizer: privilegedAuthorizer() })).toEqual({ notEvaluated: 'evaluation error' });
    expect(evaluate(`authorizer.group('').resource('pods').check('get').allowed()`, {})).toEqual({ notEvaluated: 'evaluation error' });
  });

  it('is given to the API server\'s own user only', () => {
    const given = SYSTEM_REQUESTERS.filter((requester) => 'authorizer' in celVariables({ group: '', resource: 'pods', subresource: '', operation: 'CREATE', namespace: 'kube-system', requester }));
    expect(given.map((requester) => requester.username)).toEqual(['system:apiserver']);
  });

  it('decides a break-glass condition for RBAC writes in kube-system, which only the API server makes', async () => {
    await prepareCel();
    const breakglass = [{ name: 'breakglass', expression: `!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations').name('x').check('breakglass').allowed()` }];
    const requests = (group: string, resource: string) => systemWritersOf(group).map((requester) => ({ group, resource, subresource: '', operation: 'CREATE', namespace: 'kube-system', requester }));
    expect(conditionsOutcome({ memo: new RunMemo() }, breakglass, requests('rbac.authorization.k8s.io', 'roles'))).toBe('skipped');
    // Pods are written by the kubelet and controllers too, whose authorizer answers are not known.
    expect(conditionsOutcome({ memo: new RunMemo() }, breakglass, requests('', 'pods'))).toBe('unknown');
  });
});
