/**
 * The JSON contract of `simulate --format json`:
 * {"request": {…}, "mutating": [...], "validating": [...], "policies": [...], "worstCaseLatencySeconds": n}
 * Each array lists every webhook (policy binding) of that kind in the run, in execution order,
 * called ones first, as {"configuration", "webhook", "called", "reason", "failurePolicy",
 * "timeoutSeconds", "reinvoked"}.
 */
import { worstCaseLatency } from './failures.js';
import type { AdmissionPath, PathEntry } from './path.js';
import type { SimulatedRequest } from './request-flags.js';
import { kubeVersionText } from './describe.js';
import { guardJson } from '../format/escape.js';

function entryJson(entry: PathEntry): Record<string, unknown> {
  return {
    configuration: entry.configuration,
    webhook: entry.webhook,
    called: entry.called,
    reason: entry.reason,
    failurePolicy: entry.failurePolicy,
    timeoutSeconds: entry.timeoutSeconds,
    reinvoked: entry.reinvoked,
  };
}

/** The request's attributes, first in the `request` of simulate's and probe's JSON. */
export function requestAttributesJson(request: SimulatedRequest): Record<string, unknown> {
  return {
    operation: request.operation,
    group: request.group,
    version: request.version,
    resource: request.resource,
    subresource: request.subresource,
    kind: request.kind,
    namespace: request.namespace,
  };
}

export function formatJson(path: AdmissionPath): string {
  const { request } = path;
  const json = {
    request: {
      ...requestAttributesJson(request),
      namespaceLabels: path.namespaceLabels?.labels ?? null,
      namespaceLabelsFrom: path.namespaceLabels?.source ?? null,
      objectLabels: request.operation === 'CONNECT' ? null : request.group === '' && request.resource === 'namespaces' ? (path.namespaceLabels?.labels ?? {}) : request.objectLabels,
      dryRun: request.dryRun,
      kubeVersion: kubeVersionText(path),
    },
    mutating: path.mutating.map(entryJson),
    validating: path.validating.map(entryJson),
    policies: path.policies.map(entryJson),
    worstCaseLatencySeconds: worstCaseLatency(path).totalSeconds,
    // Added with --object (issue 14): after the fields of the contract above.
    object: path.request.object === undefined ? null : { file: path.request.object.file, kind: path.request.object.kind, apiVersion: path.request.object.apiVersion, name: path.request.object.name ?? null, namespaceAssumed: path.request.namespaceAssumed === true },
    oldObject: path.request.oldObject === undefined ? null : { file: path.request.oldObject.file, kind: path.request.oldObject.kind, apiVersion: path.request.oldObject.apiVersion, name: path.request.oldObject.name ?? null },
    podSecurity: path.podSecurity,
  };
  // Names and labels from the input: no workflow command when printed in a CI log (escape.ts).
  return guardJson(`${JSON.stringify(json, null, 2)}\n`);
}
