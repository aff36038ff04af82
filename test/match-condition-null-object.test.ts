/**
 * match-condition-null-object: which expressions fail on a null object, beyond the fixtures.
 * Each case is one matchCondition on a webhook whose rules match the given operations.
 */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

function manifest(operations: readonly string[], expressions: readonly string[], extra = ''): string {
  const conditions = expressions.map((expression, i) => `      - name: c${i}\n        expression: ${JSON.stringify(expression)}\n`).join('');
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: cases
webhooks:
  - name: cases.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    clientConfig:
      service: {namespace: cases, name: webhook, path: /validate}
    rules:
      - {operations: ${JSON.stringify(operations)}, apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"]}
${extra}    matchConditions:
${conditions}`;
}

/** The null variable each finding names, with its operations ("object@DELETE"). */
async function nullReads(operations: readonly string[], expressions: readonly string[]): Promise<string[]> {
  const findings = await lintText(manifest(operations, expressions), { only: ['match-condition-null-object', 'api-validation'] });
  expect(findings.filter((f) => f.ruleId === 'api-validation').map((f) => f.message)).toEqual([]);
  return findings.map((f) => {
    if (/ \(null for webhooks\)$/.test(f.message)) return 'namespaceObject@all';
    const match = /(?:fails|can fail) on ([A-Z, and]+) \((\w+) is null\)$/.exec(f.message);
    return `${match?.[2]}@${match?.[1]}`;
  });
}

describe('match-condition-null-object', () => {
  it.each([
    // field selection, index, nested has(): fail on DELETE
    ["object.metadata.name == 'x'", ['object@DELETE']],
    ["object['metadata']['name'] == 'x'", ['object@DELETE']],
    ['has(object.metadata.labels)', ['object@DELETE']],
    ["object.metadata.labels.exists(k, k == 'team')", ['object@DELETE']],
    ["size(object.spec.template.spec.containers) > 1", ['object@DELETE']],
    ["object.spec.replicas > 1 && request.userInfo.username != 'admin'", ['object@DELETE']],
    ['object.spec.replicas == oldObject.spec.replicas', ['object@DELETE', 'oldObject@CREATE']],
    ["object.spec.replicas > 1 ? true : false", ['object@DELETE']],
    // guarded
    ['has(object.metadata)', []],
    ["object == null || object.metadata.name == 'x'", []],
    ["object != null && object.metadata.name == 'x'", []],
    ["null != object && object.metadata.name == 'x'", []],
    ["request.operation == 'DELETE' || object.metadata.name == 'x'", []],
    ["request.operation != 'DELETE' && object.metadata.name == 'x'", []],
    ["request.operation in ['CREATE', 'UPDATE'] && object.metadata.name == 'x'", []],
    ["!(request.operation in ['DELETE']) && object.metadata.name == 'x'", []],
    ["request.operation == 'DELETE' ? true : object.metadata.name == 'x'", []],
    ["object.?metadata.?name.orValue('') == 'x'", []],
    ["object[?'metadata'].hasValue()", []],
    ["type(object) == null_type || object.metadata.name == 'x'", []],
    ["request.operation.lowerAscii() != 'delete' && object.metadata.name == 'x'", []],
    ["[1, 2].exists(i, i == 1) || request.userInfo.username == 'x'", []],
    ['oldObject.spec.replicas > 1', ['oldObject@CREATE']],
    ["request.userInfo.username.startsWith('system:')", []],
    // a macro variable named like a null variable is not that variable
    ["request.userInfo.groups.exists(object, object.startsWith('x'))", []],
    // not guarded by a guard on the other variable
    ["oldObject != null && object.metadata.name == 'x'", ['object@DELETE']],
  ] as const)('%s on CREATE/UPDATE/DELETE', async (expression, expected) => {
    expect(await nullReads(['CREATE', 'UPDATE', 'DELETE'], [expression])).toEqual(expected);
  });

  it('reports oldObject on CREATE only when the webhook matches CREATE', async () => {
    expect(await nullReads(['UPDATE', 'DELETE'], ["oldObject.metadata.name == 'x'"])).toEqual([]);
    expect(await nullReads(['CREATE'], ["oldObject.metadata.name == 'x'"])).toEqual(['oldObject@CREATE']);
    expect(await nullReads(['*'], ["oldObject.metadata.name == 'x'"])).toEqual(['oldObject@CREATE and CONNECT']);
  });

  it('treats namespaceObject as null for every operation', async () => {
    expect(await nullReads(['CREATE', 'UPDATE'], ["namespaceObject.metadata.name == 'x'"])).toEqual(['namespaceObject@all']);
    expect(await nullReads(['CREATE'], ["namespaceObject == null || namespaceObject.metadata.name == 'x'"])).toEqual([]);
  });

  it('lets a condition that is false for the operation protect the others, whatever their order', async () => {
    expect(await nullReads(['CREATE', 'DELETE'], ["object.metadata.name == 'x'", "request.operation != 'DELETE'"])).toEqual([]);
    expect(await nullReads(['CREATE', 'DELETE'], ['object != null', "object.metadata.name == 'x'"])).toEqual([]);
    // A condition that is only sometimes false does not protect.
    expect(await nullReads(['DELETE'], ["request.userInfo.username != 'admin'", "object.metadata.name == 'x'"])).toEqual(['object@DELETE']);
  });

  it('says when the failure depends on the request', async () => {
    const findings = await lintText(manifest(['DELETE'], ["request.userInfo.username == 'admin' && object.spec.paused"]), { only: ['match-condition-null-object'] });
    expect(findings.map((f) => f.message)).toEqual([expect.stringContaining(' can fail on DELETE (object is null)')]);
  });

  it('leaves expressions that do not compile to api-validation', async () => {
    const findings = await lintText(manifest(['DELETE'], ['object.metadata.name ==']), { only: ['match-condition-null-object'] });
    expect(findings).toEqual([]);
  });

  it('skips CONNECT when a non-empty objectSelector keeps the webhook from matching it', async () => {
    const text = manifest(['CONNECT'], ["oldObject.metadata.name == 'x'"], '    objectSelector:\n      matchLabels: {a: b}\n');
    expect(await lintText(text, { only: ['match-condition-null-object'] })).toEqual([]);
  });
});
