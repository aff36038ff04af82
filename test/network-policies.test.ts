/**
 * webhook-network-policy concludes only from NetworkPolicies it has read: a NetworkPolicy in an
 * input not read for them (no webhook configuration in it) may let the API server in, so the
 * run says nothing then; and the namespace a policy is applied to must be the Service's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { lint } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { tempFolders } from './temp-folders.js';

const folder = tempFolders('network-policies-test');
const BUNDLE = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'webhook-network-policy', 'invalid', 'pods-only.yaml'), 'utf8');

async function dropped(dir: string): Promise<string[]> {
  const report = await lint({ paths: [dir], rules, kubeVersion: DEFAULT_KUBE_VERSION, trustedNamespaceLabels: [], severityOverrides: new Map(), toolVersion: 'test' });
  return report.findings.filter((finding) => finding.ruleId === 'webhook-network-policy').map((finding) => `${finding.severity} ${finding.message.split(':')[0]}`);
}

const GADGETS_DENY = (peer: string): string => `---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: allow-webhook, namespace: np-gadgets}\nspec:\n  podSelector: {matchLabels: {app: gadgets}}\n  ingress: [{from: [${peer}]}]\n`;

describe('webhook-network-policy: where the API server\'s calls may come from (s43b)', () => {
  const BOTH = ['error webhooks "vwidget.example.com" and 1 more', 'error webhook "gadgets.example.com"'];
  const WIDGETS = ['error webhooks "vwidget.example.com" and 1 more'];
  it('lets in a peer that may select kube-system (konnectivity agents relay the calls on AKS and GKE), or OpenShift\'s host network', async () => {
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + GADGETS_DENY('{namespaceSelector: {}}') }))).toEqual(WIDGETS);
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + GADGETS_DENY('{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: kube-system}}, podSelector: {matchLabels: {k8s-app: konnectivity-agent}}}') }))).toEqual(WIDGETS);
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + GADGETS_DENY('{namespaceSelector: {matchLabels: {policy-group.network.openshift.io/host-network: ""}}}') }))).toEqual(WIDGETS);
    // A label kube-system does not carry (its manifest is not in the run: the name label alone).
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + GADGETS_DENY('{namespaceSelector: {matchLabels: {monitoring: "true"}}}') }))).toEqual(BOTH);
  });

  it('says nothing beside a network plugin\'s own policies in the bundle, nor for a headless Service', async () => {
    const cilium = '---\napiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nmetadata: {name: apiserver, namespace: np-gadgets}\nspec:\n  endpointSelector: {}\n  ingress: [{fromEntities: [kube-apiserver]}]\n';
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + cilium }))).toEqual([]);
    const calico = '---\napiVersion: projectcalico.org/v3\nkind: NetworkPolicy\nmetadata: {name: allow, namespace: np-gadgets}\nspec:\n  selector: all()\n  ingress: [{action: Allow}]\n';
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + calico }))).toEqual([]);
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE.replace('  selector: {app: gadgets}', '  clusterIP: None\n  selector: {app: gadgets}') }))).toEqual(WIDGETS);
  });
});

describe('webhook-network-policy and what the run read', () => {
  it('reports a bundle whose policies cut the API server off', async () => {
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE }))).toEqual(['error webhooks "vwidget.example.com" and 1 more', 'error webhook "gadgets.example.com"']);
  });

  it('says nothing when another input, not read for NetworkPolicies, may hold one that lets it in', async () => {
    const allow = 'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: allow-all, namespace: np-gadgets}\nspec:\n  podSelector: {}\n  ingress: [{}]\n';
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE, 'extra.yaml': allow }))).toEqual([]);
  });

  it('reads a policy with an allow rule in the bundle as letting it in, and one of another namespace as not applying', async () => {
    const allow = '---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: allow-webhook, namespace: np-gadgets}\nspec:\n  podSelector: {matchLabels: {app: gadgets}}\n  ingress: [{ports: [{port: 8443}]}]\n';
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + allow }))).toEqual(['error webhooks "vwidget.example.com" and 1 more']);
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + allow.replace('namespace: np-gadgets', 'namespace: elsewhere') }))).toEqual(['error webhooks "vwidget.example.com" and 1 more', 'error webhook "gadgets.example.com"']);
    // Another port only, or UDP: still cut off.
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + allow.replace('port: 8443', 'port: 9090') }))).toEqual(['error webhooks "vwidget.example.com" and 1 more', 'error webhook "gadgets.example.com"']);
    expect(await dropped(folder({ 'bundle.yaml': BUNDLE + allow.replace('{port: 8443}', '{port: 8443, protocol: UDP}') }))).toEqual(['error webhooks "vwidget.example.com" and 1 more', 'error webhook "gadgets.example.com"']);
  });
});
