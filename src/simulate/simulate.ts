/** `simulate` as a function: read the run, check the request flags, compute the path. */
import { Meter } from '../cel/budget.js';
import { loadRun } from '../engine/lint.js';
import { Discovery } from '../kube/discovery/discovery.js';
import type { KubeVersion } from '../kube/version.js';
import { prepareCel } from '../cel/library.js';
import { admissionPath, type AdmissionPath } from './path.js';
import { parseRequestFlags, type RequestFlags } from './request-flags.js';

export interface SimulateOptions {
  readonly paths: readonly string[];
  readonly flags: RequestFlags;
  readonly kubeVersion: KubeVersion;
  readonly readStdin?: () => Uint8Array;
}

export async function simulate(options: SimulateOptions): Promise<AdmissionPath> {
  const run = loadRun(options.paths, options.readStdin);
  const discovery = new Discovery(options.kubeVersion);
  for (const crd of run.customResourceDefinitions) discovery.addCustomResource(crd);
  const request = parseRequestFlags(options.flags, discovery);
  const hasConditions =
    run.webhookConfigurations.some((object) => object.decodable && (object.effective.webhooks ?? []).some((webhook) => (webhook?.matchConditions ?? []).length > 0)) ||
    run.policies.length > 0;
  if (hasConditions) await prepareCel();
  return admissionPath(request, { webhookConfigurations: run.webhookConfigurations, namespaces: run.namespaces, policies: run.policies, discovery, kubeVersion: options.kubeVersion, celMeter: new Meter() });
}
