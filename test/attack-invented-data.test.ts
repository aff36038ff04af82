/**
 * Issue 21, class 2: no rule concludes "safe" from invented data or from "unknown". matchConditions
 * are evaluated for the system's requests with only what is known of them; a condition whose
 * answer depends on the rest (the object's labels, spec or name, an authorizer call, a presence
 * test) counts as "may match" for the rules that report risk.
 */
import { describe, expect, it } from 'vitest';
import { answersFromKnownFields } from '../src/match/system-requests.js';
import { runCli } from './run-cli.js';

function webhook(condition: string): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
  - name: widgets.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    failurePolicy: Fail
    timeoutSeconds: 5
    clientConfig: {url: https://widgets.example.com/validate}
    rules: [{operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
    matchConditions:
      - name: only-some
        expression: ${JSON.stringify(condition)}
`;
}

async function rulesFired(condition: string): Promise<string[]> {
  const { stdout } = await runCli(['--format', 'json', '--no-config-lookup', '-'], webhook(condition));
  return (JSON.parse(stdout) as { findings: { ruleId: string }[] }).findings.map((finding) => finding.ruleId);
}

describe('a condition decided by invented data does not silence matches-kube-system', () => {
  it.each([
    ['a field an empty spec lacks', 'has(object.spec.containers)'],
    ['a label an empty label map lacks', "'component' in object.metadata.labels"],
    ['a label value', "object.metadata.labels['tier'] == 'control-plane'"],
    ['the made-up name', "object.metadata.name != 'system-object'"],
    ['the request name', "request.name.startsWith('kube-')"],
    ['an authorizer call', "authorizer.group('').resource('pods').check('create').allowed()"],
    ['a field read whole', 'object.metadata.size() > 3'],
    ['a presence test of the labels', 'has(object.metadata.labels)'],
    ['an optional read', "object.metadata.?labels.orValue({}).size() > 0"],
  ])('%s: reported', async (_what, condition) => {
    expect(await rulesFired(condition)).toContain('matches-kube-system');
  });

  it.each([
    ['system users excluded', "!request.userInfo.username.startsWith('system:')"],
    ['kube-system excluded', "request.namespace != 'kube-system'"],
    ['kube-system excluded, with a label read the known part decides', "request.namespace != 'kube-system' && object.metadata.labels['x'] == 'y'"],
    ['system groups excluded', "!request.userInfo.groups.exists(g, g.startsWith('system:'))"],
  ])('%s: not reported (what is known decides)', async (_what, condition) => {
    expect(await rulesFired(condition)).not.toContain('matches-kube-system');
  });
});

describe('answersFromKnownFields', () => {
  it('accepts reads of the known fields and plain reads past them; refuses whole maps, presence tests, optional reads', () => {
    expect(answersFromKnownFields("request.userInfo.username == 'x' && 'g' in request.userInfo.groups")).toBe(true);
    expect(answersFromKnownFields("object.metadata.namespace == 'kube-system'")).toBe(true);
    expect(answersFromKnownFields("object.spec.nodeName == 'x'")).toBe(true);
    expect(answersFromKnownFields('[1, 2].all(object, object > 0)')).toBe(true);
    expect(answersFromKnownFields('has(object.spec)')).toBe(false);
    expect(answersFromKnownFields('object == null')).toBe(false);
    expect(answersFromKnownFields('request.userInfo.size() == 2')).toBe(false);
    expect(answersFromKnownFields('object.?spec.hasValue()')).toBe(false);
    expect(answersFromKnownFields('((')).toBe(false);
  });
});
