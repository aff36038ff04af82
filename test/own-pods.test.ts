/** src/match/own-pods.ts: the webhook's own pods' labels, from the Service and the workloads of the run's bundles. */
import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

const service = `apiVersion: v1
kind: Service
metadata: {name: hook, namespace: hooks}
spec:
  selector: {app: hook}
  ports: [{port: 443, targetPort: 8443}]
`;
const webhook = (selector: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hook}
webhooks:
  - name: hook.example.com
    objectSelector: ${selector}
    sideEffects: None
    admissionReviewVersions: ["v1"]
    failurePolicy: Fail
    clientConfig: {service: {name: hook, namespace: hooks}}
    rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
`;
const workload = (kind: string, podMetadata: string, namespace = 'hooks'): string => {
  if (kind === 'Pod') return `apiVersion: v1\nkind: Pod\nmetadata: {name: hook, namespace: ${namespace}, ${podMetadata}}\nspec: {containers: [{name: c, image: i}]}\n`;
  const template = `template: {metadata: {${podMetadata}}, spec: {containers: [{name: c, image: i}]}}`;
  if (kind === 'CronJob') return `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: hook, namespace: ${namespace}}\nspec: {schedule: "* * * * *", jobTemplate: {spec: {${template}}}}\n`;
  return `apiVersion: apps/v1\nkind: ${kind}\nmetadata: {name: hook, namespace: ${namespace}}\nspec: {selector: {matchLabels: {app: hook}}, ${template}}\n`;
};

async function deadlocks(...documents: string[]): Promise<number> {
  const findings = await lintText(documents.join('---\n'), { only: ['self-deadlock'] });
  return findings.filter((f) => f.severity === 'error').length;
}

describe('self-deadlock on the webhook\'s own pods, as its Service selects them', () => {
  it('reports an objectSelector that picks them, for each kind of workload that keeps a server running', async () => {
    for (const kind of ['Deployment', 'DaemonSet', 'StatefulSet']) {
      expect(await deadlocks(service, workload(kind, 'labels: {app: hook}'), webhook('{matchLabels: {app: hook}}')), kind).toBe(1);
    }
    // A bare Pod is replaced by nothing, a CronJob's pods serve nothing for long (attack s49c D2, D5).
    for (const kind of ['Pod', 'CronJob']) expect(await deadlocks(service, workload(kind, 'labels: {app: hook}'), webhook('{matchLabels: {app: hook}}')), kind).toBe(0);
  });

  it('needs every server workload the Service selects to be intercepted, and leaves alone what the run cannot show', async () => {
    const spared = workload('Deployment', 'labels: {app: hook, tier: system}').replace('name: hook,', 'name: hook-system,');
    expect(await deadlocks(service, workload('Deployment', 'labels: {app: hook}'), spared, webhook('{matchExpressions: [{key: tier, operator: NotIn, values: [system]}]}'))).toBe(0);
    // Labels a controller adds (pod-template-hash) are not in the template: not judged.
    expect(await deadlocks(service, workload('Deployment', 'labels: {app: hook}'), webhook('{matchExpressions: [{key: pod-template-hash, operator: DoesNotExist}]}'))).toBe(0);
    // A workload document the fast reader declines (a duplicate key) leaves its pods unknown.
    expect(await deadlocks(service, workload('Deployment', 'labels: {app: hook}').replace('kind: Deployment', 'kind: Deployment\nkind: Deployment'), webhook('{matchLabels: {app: hook}}'))).toBe(0);
  });

  it('says nothing when the run does not show them, or they are left out', async () => {
    // No Service, no workload, a workload elsewhere or without a namespace, other labels, a NotIn.
    expect(await deadlocks(workload('Deployment', 'labels: {app: hook}'), webhook('{matchLabels: {app: hook}}'))).toBe(0);
    expect(await deadlocks(service, webhook('{matchLabels: {app: hook}}'))).toBe(0);
    expect(await deadlocks(service, workload('Deployment', 'labels: {app: hook}', 'other'), webhook('{matchLabels: {app: hook}}'))).toBe(0);
    expect(await deadlocks(service, workload('Deployment', 'labels: {app: hook, tier: web}'), webhook('{matchLabels: {tier: api}}'))).toBe(0);
    expect(await deadlocks(service, workload('Deployment', 'labels: {app: hook}'), webhook('{matchExpressions: [{key: app, operator: NotIn, values: [hook]}]}'))).toBe(0);
    // A workload the Service does not select is not the webhook's.
    expect(await deadlocks(service, workload('Deployment', 'labels: {app: other}'), webhook('{matchLabels: {app: other}}'))).toBe(0);
  });
});
