/**
 * The critical-resources matrix: the writes the control plane needs to recover (facts §7 and
 * the critical-resources rule's TARGETS) × the run's webhooks, marking which webhook can block
 * which. A webhook intercepts a target when the request matcher calls it for the target's
 * request (the system object's labels as rules/critical-resources.ts assumes them, the
 * namespace's labels from the run or the automatic name label) and its matchConditions let
 * one of the system's requesters through (evaluated with the system requesters of
 * src/match/system-requests.ts; "depends" when they cannot be evaluated).
 */
import { systemWriteCalls, TARGETS } from '../match/critical-targets.js';
import { isAtLeast } from '../kube/version.js';
import type { Operation } from '../match/request.js';
import type { RunScope } from '../run-scope.js';
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

export type CriticalContext = Pick<RunScope, 'namespaces' | 'kubeVersion' | 'discovery' | 'memo'>;

export function criticalCell(webhook: Readonly<Webhook>, targetIndex: number, context: CriticalContext): CriticalCell {
  const target = TARGETS[targetIndex]!;
  if (target.virtual && isAtLeast(context.kubeVersion, 1, 37)) return { mark: 'exempt', operations: [] };
  const sure = new Set<Operation>();
  const open = new Set<Operation>();
  for (const request of target.requests) {
    for (const call of systemWriteCalls(webhook, target, request, context)) (call.conditions === 'called' ? sure : open).add(call.operation);
  }
  const order: Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
  if (sure.size > 0) return { mark: webhook.failurePolicy === 'Ignore' ? 'can-deny' : 'blocks', operations: order.filter((op) => sure.has(op)) };
  if (open.size > 0) return { mark: 'depends', operations: order.filter((op) => open.has(op)) };
  return { mark: 'none', operations: [] };
}
