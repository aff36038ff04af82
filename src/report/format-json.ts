/** `report --format json`: the report data as it is built (see BlastRadiusReport in ./build.ts). */
import { guardJson } from '../format/escape.js';
import type { BlastRadiusReport } from './build.js';

export function formatJson(report: BlastRadiusReport): string {
  const json = {
    kubeVersion: report.kubeVersion,
    webhooks: report.webhooks.map((webhook) => ({
      configuration: webhook.configuration,
      kind: webhook.kind,
      webhook: webhook.webhook,
      file: webhook.file,
      intercepts: webhook.intercepts,
      namespaceSelector: webhook.namespaceSelector,
      objectSelector: webhook.objectSelector,
      namespaces: webhook.namespaces,
      failurePolicy: webhook.failurePolicy,
      timeoutSeconds: webhook.timeoutSeconds,
      reinvocationPolicy: webhook.reinvocationPolicy,
      matchPolicy: webhook.matchPolicy,
      sideEffects: webhook.sideEffects,
      matchConditions: webhook.matchConditions,
      findings: webhook.findings,
    })),
    configurationFindings: report.configurationFindings,
    critical: report.critical.targets.map((target, index) => ({
      resources: target.label,
      why: target.why,
      webhooks: report.webhooks
        .filter((webhook) => webhook.critical[index]!.mark !== 'none')
        .map((webhook) => ({ configuration: webhook.configuration, webhook: webhook.webhook, mark: webhook.critical[index]!.mark, operations: webhook.critical[index]!.operations })),
    })),
    notDecodable: report.notDecodable,
    podSecurity: report.podSecurity,
  };
  // Names, selectors and findings from the input: no workflow command in a CI log (escape.ts).
  return guardJson(`${JSON.stringify(json, null, 2)}\n`);
}
