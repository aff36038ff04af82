/**
 * kustomize-patched names a patch only for the objects its kustomization may build: a patch
 * fragment that no kustomization lists (hold-out 14), or the base of another overlay, is not
 * changed by it. Where what a kustomization builds is not known, the patch is named as before.
 */
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('kustomize-patched-reach-test');

const WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutator
webhooks:
- name: pods.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Ignore
  clientConfig:
    service: {name: svc, namespace: example-system}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
`;
const FRAGMENT = 'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: mutator\nwebhooks:\n- name: pods.example.com\n  timeoutSeconds: 5\n';

async function patched(dir: string): Promise<string[]> {
  const report = await lint({ paths: [dir], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
  return report.findings.filter((finding) => finding.ruleId === 'kustomize-patched').map((finding) => finding.file.slice(dir.length + 1));
}

describe('kustomize-patched and what a kustomization builds', () => {
  it('names the patch on the base the overlay builds, not on a fragment no kustomization lists', async () => {
    const dir = folder({
      'base/manifests.yaml': WEBHOOK,
      'base/kustomization.yaml': 'resources:\n- manifests.yaml\n',
      'base/unused_patch.yaml': FRAGMENT,
      'prod/kustomization.yaml': 'resources:\n- ../base\npatches:\n- path: timeout.yaml\n',
      'prod/timeout.yaml': FRAGMENT,
    });
    expect(await patched(dir)).toEqual(['base/manifests.yaml']);
  });

  it('names a Component\'s patch on what the kustomization that lists it builds (s38d 8)', async () => {
    const dir = folder({
      'base/manifests.yaml': WEBHOOK,
      'base/kustomization.yaml': 'resources:\n- manifests.yaml\n',
      'component/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- path: timeout.yaml\n',
      'component/timeout.yaml': FRAGMENT,
      'prod/kustomization.yaml': 'resources:\n- ../base\ncomponents:\n- ../component\n',
    });
    expect(await patched(dir)).toContain('base/manifests.yaml');
  });

  it('names it where what the kustomization builds is not known (a folder without a kustomization the run read)', async () => {
    const dir = folder({
      'base/manifests.yaml': WEBHOOK,
      'other/unused_patch.yaml': FRAGMENT,
      'prod/kustomization.yaml': 'resources:\n- ../base\npatches:\n- path: timeout.yaml\n',
      'prod/timeout.yaml': FRAGMENT,
    });
    expect((await patched(dir)).sort()).toEqual(['base/manifests.yaml', 'other/unused_patch.yaml']);
  });
});
