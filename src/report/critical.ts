/**
 * The critical-resources matrix: the writes the control plane needs to recover (facts §7 and
 * the critical-resources rule's TARGETS) × the run's webhooks, marking which webhook can block
 * which. A webhook intercepts a target when the request matcher calls it for the target's
 * request (the system object's labels as rules/critical-resources.ts assumes them, the
 * namespace's labels from the run or the automatic name label) and its matchConditions let
 * one of the system's requesters through (evaluated with the system requesters of
 * src/match/system-requests.ts; "depends" when they cannot be evaluated).
 */
import { TARGETS } from '../../rules/critical-resources.js';
import type { Discovery } from '../kube/discovery/discovery.js';
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import { systemObjectLabels } from '../match/kube-system.js';
import { namespaceLabels } from '../match/namespaces.js';
import { matchWebhook, type AdmissionRequest, type Operation } from '../match/request.js';
import type { Labels } from '../match/selector.js';
import { conditionsOutcome, SYSTEM_REQUESTERS } from '../match/system-requests.js';
import type { NamespaceObject } from '../model/objects.js';
import type { Webhook } from '../model/types.js';

type Target = (typeof TARGETS)[number];

export interface CriticalTarget {
  /** "leases in kube-node-lease", for tables. */
  readonly label: string;
  /** What breaks while those writes are rejected. */
  readonly why: string;
  readonly virtual: boolean;
}

/**
 * - `blocks`: failurePolicy Fail: rejected while the webhook is down, and whenever it denies;
 * - `can-deny`: failurePolicy Ignore: fails open when down (after its timeout), but a denial still rejects;
 * - `depends`: the rules match but matchConditions decide, and cannot be evaluated here;
 * - `exempt`: the target is never sent to webhooks in this version (virtual resources from 1.37);
 * - `none`: not intercepted.
 */
export type CriticalMark = 'blocks' | 'can-deny' | 'depends' | 'exempt' | 'none';

export interface CriticalCell {
  readonly mark: CriticalMark;
  /** The operations it intercepts, e.g. ["CREATE", "UPDATE"]. */
  readonly operations: readonly Operation[];
}

function describe(request: Target['requests'][number]): string {
  return request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
}

export function criticalTargets(): CriticalTarget[] {
  return TARGETS.map((target) => ({
    label: `${target.requests.map(describe).join(', ')}${target.where}`,
    why: target.why,
    virtual: target.virtual === true,
  }));
}

function labelsFor(operation: Operation, labels: Labels): Pick<AdmissionRequest, 'objectLabels' | 'oldObjectLabels'> {
  if (operation === 'CREATE') return { objectLabels: labels, oldObjectLabels: null };
  if (operation === 'DELETE') return { objectLabels: null, oldObjectLabels: labels };
  return { objectLabels: labels, oldObjectLabels: labels };
}

export interface CriticalContext {
  readonly namespaces: readonly NamespaceObject[];
  readonly kubeVersion: KubeVersion;
  readonly discovery: Discovery;
}

export function criticalCell(webhook: Readonly<Webhook>, targetIndex: number, context: CriticalContext): CriticalCell {
  const target = TARGETS[targetIndex]!;
  if (target.virtual && isAtLeast(context.kubeVersion, 1, 37)) return { mark: 'exempt', operations: [] };
  const nsLabels = target.namespace === null ? undefined : namespaceLabels(context, target.namespace);
  const objectLabels = target.namespaceObject ? nsLabels! : systemObjectLabels(webhook.objectSelector);
  const sure = new Set<Operation>();
  const open = new Set<Operation>();
  for (const request of target.requests) {
    for (const operation of request.operations) {
      const outcome = matchWebhook(
        webhook,
        {
          operation,
          group: request.group,
          version: request.version,
          resource: request.resource,
          subresource: request.subresource ?? '',
          namespace: target.namespace,
          ...(nsLabels === undefined ? {} : { namespaceLabels: nsLabels }),
          ...labelsFor(operation, objectLabels),
        },
        context.discovery,
      );
      if (outcome.called !== true) continue;
      const conditions = outcome.dependsOnMatchConditions
        ? conditionsOutcome(
            webhook.matchConditions ?? [],
            SYSTEM_REQUESTERS.map((requester) => ({ group: request.group, resource: request.resource, subresource: request.subresource ?? '', operation, namespace: target.namespace, requester })),
          )
        : 'called';
      if (conditions === 'called') sure.add(operation);
      else if (conditions === 'unknown') open.add(operation);
    }
  }
  const order: Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
  if (sure.size > 0) return { mark: webhook.failurePolicy === 'Ignore' ? 'can-deny' : 'blocks', operations: order.filter((op) => sure.has(op)) };
  if (open.size > 0) return { mark: 'depends', operations: order.filter((op) => open.has(op)) };
  return { mark: 'none', operations: [] };
}
