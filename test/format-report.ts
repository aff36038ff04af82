/** A hand-built report for the formatter tests: formatters are pure functions of it. */
import type { Finding, Report } from '../src/engine/finding.js';

export function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    ruleId: 'timeout-out-of-range',
    severity: 'error',
    message: 'timeoutSeconds is 45; the API server accepts 1 to 30 seconds',
    file: 'deploy/webhook.yaml',
    line: 14,
    column: 5,
    endLine: 14,
    endColumn: 23,
    documentIndex: 0,
    fieldPath: 'webhooks[0].timeoutSeconds',
    object: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', name: 'policy' },
    webhook: 'validate.policy.example.com',
    help: 'Set timeoutSeconds between 1 and 30.',
    ...overrides,
  };
}

/** The summary counts follow the findings, as the engine's do. */
export function report(findings: Finding[], files = 1, objects = 1): Report {
  const count = (severity: Finding['severity']) => findings.filter((f) => f.severity === severity).length;
  return {
    toolVersion: '1.2.3',
    inventory: { files: [] },
    findings,
    summary: { files, documents: files, objects, namespaces: 0, skipped: 0, errors: count('error'), warnings: count('warning'), infos: count('info'), suppressed: 0 },
  };
}
