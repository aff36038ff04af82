/**
 * self-deadlock judges a webhook against the Namespace manifest its own file applies when the run
 * holds several of that name (a repository with two rendered builds: hold-out 14, a test build
 * that labels its namespace out of the webhook beside a release build that does not).
 */
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('self-deadlock-namespaces-test');

const namespace = (labels: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: mac-system\n  labels: {${labels}}\n`;
const WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mac-mutator
webhooks:
- name: pods.mac.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig:
    service: {name: mac-webhook, namespace: mac-system}
  namespaceSelector:
    matchExpressions:
    - {key: mac.example.com/mutate, operator: NotIn, values: [ignore]}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
`;

async function deadlocks(files: Record<string, string>): Promise<string[]> {
  const dir = folder(files);
  const report = await lint({ paths: [dir], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
  // A rendered stream's finding is named by its template, and placed in the stream (`rendered`).
  return report.findings.filter((finding) => finding.ruleId === 'self-deadlock').map((finding) => (finding.rendered === undefined ? `${finding.file.slice(dir.length + 1)}:${finding.line}` : `${finding.rendered.file.slice(dir.length + 1)}:${finding.rendered.line}`));
}

describe('self-deadlock with Namespace manifests of one name in several files', () => {
  it('reads the labels of the Namespace in the webhook\'s own file', async () => {
    // a-release.yaml is read first: its Namespace has no opt-out label, the test build's does.
    const found = await deadlocks({
      'a-release.yaml': `${namespace('app: mac')}---\n${WEBHOOK.replace('NotIn, values: [ignore]', 'In, values: [allocate]')}`,
      'b-test.yaml': `${namespace('mac.example.com/mutate: ignore')}---\n${WEBHOOK}`,
    });
    expect(found).toEqual([]);
  });

  it('still reports the webhook whose own file\'s Namespace is not labelled out, whatever another file says', async () => {
    const found = await deadlocks({
      'a-other.yaml': namespace('mac.example.com/mutate: ignore'),
      'b-test.yaml': `${namespace('app: mac')}---\n${WEBHOOK}`,
    });
    expect(found).toEqual(['b-test.yaml:22']);
  });

  it('takes a rendered stream as the file its templates are applied with (s38a: two helm renderings of one chart)', async () => {
    const rendered = (labels: string): string => `---\n# Source: mac/templates/webhook.yaml\n${namespace(labels)}---\n# Source: mac/templates/webhook.yaml\n${WEBHOOK}`;
    const found = await deadlocks({ 'a-namespace.yaml': namespace('app: mac'), 'b-release.yaml': rendered('mac.example.com/mutate: ignore'), 'c-test.yaml': rendered('app: mac') });
    expect(found).toEqual(['c-test.yaml:25']);
  });

  it('counts the Namespace a later file applies again (s38c 4: kubectl apply -R applies files in this order)', async () => {
    const found = await deadlocks({
      '00-namespace.yaml': namespace('app: mac'),
      '10-webhook.yaml': `${namespace('mac.example.com/mutate: ignore')}---\n${WEBHOOK}`,
      '20-namespace.yaml': namespace('app: mac'),
    });
    expect(found).toEqual(['10-webhook.yaml:22']);
    // An earlier file's does not: the webhook's own file applies its Namespace after it.
    expect(await deadlocks({ '00-namespace.yaml': namespace('app: mac'), '10-webhook.yaml': `${namespace('mac.example.com/mutate: ignore')}---\n${WEBHOOK}` })).toEqual([]);
  });

  it('uses the run\'s first and last Namespace of that name when the webhook\'s file has none (s38d 6: kubectl apply -R leaves the last)', async () => {
    const found = await deadlocks({ 'a-ns.yaml': namespace('mac.example.com/mutate: ignore'), 'b-ns.yaml': namespace('app: mac'), 'c-webhook.yaml': WEBHOOK });
    expect(found).toEqual(['c-webhook.yaml:16']);
    expect(await deadlocks({ 'a-ns.yaml': namespace('app: mac'), 'b-ns.yaml': namespace('mac.example.com/mutate: ignore'), 'c-webhook.yaml': WEBHOOK })).toEqual(['c-webhook.yaml:16']);
    expect(await deadlocks({ 'a-ns.yaml': namespace('mac.example.com/mutate: ignore'), 'c-webhook.yaml': WEBHOOK })).toEqual([]);
  });

  it('takes the last Namespace of the webhook\'s own file (kubectl applies its documents in order)', async () => {
    const unlabelledLast = await deadlocks({ 'b-test.yaml': `${namespace('mac.example.com/mutate: ignore')}---\n${namespace('app: mac')}---\n${WEBHOOK}` });
    expect(unlabelledLast).toEqual(['b-test.yaml:28']);
    expect(await deadlocks({ 'b-test.yaml': `${namespace('app: mac')}---\n${namespace('mac.example.com/mutate: ignore')}---\n${WEBHOOK}` })).toEqual([]);
  });
});
