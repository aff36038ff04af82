/**
 * The project the README's probe example runs in: deploy/ with a mutating and a validating
 * webhook configuration for the test server's Service (its caBundle the test CA), and the
 * ConfigMaps the requests carry.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAMESPACE, SERVICE, type Certificates } from './webhook-server.js';

function hook(kind: 'Mutating' | 'Validating', name: string, webhook: string, path: string, caBundle: string, extra: string[]): string {
  return [
    'apiVersion: admissionregistration.k8s.io/v1',
    `kind: ${kind}WebhookConfiguration`,
    'metadata:',
    `  name: ${name}`,
    'webhooks:',
    `  - name: ${webhook}`,
    '    admissionReviewVersions: [v1]',
    '    sideEffects: None',
    ...extra,
    '    clientConfig:',
    `      caBundle: ${caBundle}`,
    '      service:',
    `        name: ${SERVICE}`,
    `        namespace: ${NAMESPACE}`,
    `        path: ${path}`,
    '    rules:',
    '      - operations: ["CREATE", "UPDATE"]',
    '        apiGroups: [""]',
    '        apiVersions: ["v1"]',
    '        resources: ["configmaps"]',
  ].join('\n');
}

export function readmeProject(certificates: Certificates): string {
  const project = mkdtempSync(join(tmpdir(), 'admission-lint-probe-readme-'));
  mkdirSync(join(project, 'deploy'));
  const caBundle = Buffer.from(certificates.caPem).toString('base64');
  writeFileSync(
    join(project, 'deploy', 'probe-hook.yaml'),
    `${hook('Mutating', 'probe-mutator', 'annotate.probe.example.com', '/mutate', caBundle, ['    failurePolicy: Fail', '    timeoutSeconds: 5', '    reinvocationPolicy: IfNeeded'])}\n---\n${hook('Validating', 'probe-validator', 'check.probe.example.com', '/validate', caBundle, ['    failurePolicy: Ignore', '    timeoutSeconds: 2'])}\n`,
  );
  writeFileSync(join(project, 'configmap.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team-a\ndata:\n  deny: "false"\n');
  writeFileSync(join(project, 'deny.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team-a\ndata:\n  deny: "true"\n');
  return project;
}
