/** `simulate` as a function: read the run (and the request's object), check the request flags, compute the path. */
import { Meter } from '../cel/budget.js';
import { loadRun } from '../engine/lint.js';
import { UsageError } from '../errors.js';
import { Discovery } from '../kube/discovery/discovery.js';
import type { KubeVersion } from '../kube/version.js';
import { readStdinSync } from '../load/sources.js';
import { prepareCel } from '../cel/library.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import type { PodSecuritySettings } from '../model/pod-security.js';
import { DEFAULT_POD_SECURITY_SETTINGS } from '../psa/run-policy.js';
import { objectRequestFlags, readRequestObject } from './object.js';
import { admissionPath, type AdmissionPath } from './path.js';
import { parseRequestFlags, type RequestFlags, type SimulatedRequest } from './request-flags.js';

export interface SimulateOptions {
  readonly paths: readonly string[];
  readonly flags: RequestFlags;
  readonly kubeVersion: KubeVersion;
  readonly readStdin?: () => Uint8Array;
  /** `--object FILE` (`-`: standard input): the request's object. */
  readonly object?: string;
  /** `--old-object FILE`: the object before an UPDATE. */
  readonly oldObject?: string;
  /** `--pod-security-config`: the cluster's PodSecurity configuration (default: the plugin's built-in one). */
  readonly podSecurity?: PodSecuritySettings;
}

export async function simulate(options: SimulateOptions): Promise<AdmissionPath> {
  return (await simulateRun(options)).path;
}

/** The path and the webhook configurations it was computed from (probe calls one of them). */
export async function simulateRun(options: SimulateOptions): Promise<{ readonly path: AdmissionPath; readonly webhookConfigurations: readonly WebhookConfigurationObject[] }> {
  const stdinReaders = [options.paths.includes('-') ? 'the paths' : '', options.object === '-' ? '--object' : '', options.oldObject === '-' ? '--old-object' : ''].filter((who) => who !== '');
  if (stdinReaders.length > 1) throw new UsageError(`${stdinReaders.join(' and ')} both read standard input; it can be read once`, 'give one of them as a file');
  const readStdin = options.readStdin ?? readStdinSync;
  const run = loadRun(options.paths, readStdin);
  const discovery = new Discovery(options.kubeVersion);
  for (const crd of run.customResourceDefinitions) discovery.addCustomResource(crd);
  const request = options.object === undefined ? requestWithoutObject(options, discovery) : requestWithObject(options, options.object, discovery, readStdin);
  const hasConditions =
    run.webhookConfigurations.some((object) => object.decodable && (object.effective.webhooks ?? []).some((webhook) => (webhook?.matchConditions ?? []).length > 0)) ||
    run.policies.length > 0;
  if (hasConditions) await prepareCel();
  const path = admissionPath(request, {
    webhookConfigurations: run.webhookConfigurations,
    namespaces: run.namespaces,
    policies: run.policies,
    discovery,
    kubeVersion: options.kubeVersion,
    celMeter: new Meter(),
    podSecurity: options.podSecurity ?? DEFAULT_POD_SECURITY_SETTINGS,
  });
  return { path, webhookConfigurations: run.webhookConfigurations };
}

function requestWithoutObject(options: SimulateOptions, discovery: Discovery): SimulatedRequest {
  if (options.oldObject !== undefined) throw new UsageError('--old-object needs --object: the object after the UPDATE');
  return parseRequestFlags(options.flags, discovery);
}

function requestWithObject(options: SimulateOptions, file: string, discovery: Discovery, readStdin: () => Uint8Array): SimulatedRequest {
  const object = readRequestObject(file, '--object', readStdin);
  const oldObject = options.oldObject === undefined ? undefined : readRequestObject(options.oldObject, '--old-object', readStdin);
  // --namespace is the namespace of an object that names none (kubectl's default: default).
  const filled = objectRequestFlags(options.flags, object, oldObject, discovery);
  const isNamespace = filled.flags.group === '' && filled.flags.resource === 'namespaces';
  if (isNamespace && options.flags.namespaceLabels !== undefined) throw new UsageError("--namespace-labels and a Namespace --object: the Namespace's labels are its metadata.labels", 'leave out --namespace-labels');
  const request = parseRequestFlags(filled.flags, discovery);
  return {
    ...request,
    objectLabels: isNamespace ? {} : filled.objectLabels,
    ...(isNamespace ? { namespaceLabelsFlag: object.labels } : {}),
    ...(request.operation === 'DELETE' ? { object } : { object, ...(oldObject !== undefined ? { oldObject } : {}) }),
    namespaceAssumed: filled.namespaceAssumed,
  };
}
