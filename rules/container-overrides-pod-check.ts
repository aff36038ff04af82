import { containerOverrides } from '../src/match/container-override.js';
import type { PolicyObject } from '../src/model/objects.js';
import { defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { elideMiddle } from '../src/text/list.js';

/** How a value a container sets reads in the message: `false`, `0`, `Unconfined`. */
function shown(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

/** One finding per validation that checks a pod-level field a container overrides (src/match/container-override.ts). */
function check(object: PolicyObject, run: RuleRun): Violation<'overridden'>[] {
  const byValidation = new Map<number, { field: string; bad: unknown; more: number }>();
  for (const { validation, field, bad } of containerOverrides(object, run)) {
    const first = byValidation.get(validation);
    byValidation.set(validation, first === undefined ? { field, bad, more: 0 } : { ...first, more: first.more + 1 });
  }
  return [...byValidation].map(([validation, { field, bad, more }]) => ({
    messageId: 'overridden',
    data: {
      site: `validations[${validation}]`,
      policy: elideMiddle(object.name ?? '(unnamed)', 26),
      field,
      value: `${field}: ${shown(bad)}`,
      more: more === 0 ? '' : ` (+${more} more)`,
    },
    path: ['spec', 'validations', validation, 'expression'],
  }));
}

export const rule = defineObjectRule({
  meta: {
    id: 'container-overrides-pod-check',
    title: "A policy accepts a pod-level securityContext setting that a container's own overrides",
    severity: 'warning',
    appliesTo: ['ValidatingAdmissionPolicy'],
    messages: {
      overridden: '{{site}} of policy "{{policy}}": a container\'s own {{value}} overrides the pod-level value it accepts{{more}}',
    },
    help: "A container's securityContext overrides the pod's for runAsNonRoot, runAsUser, runAsGroup, seccompProfile, appArmorProfile and seLinuxOptions. Accept the pod-level value only when no container sets its own to something else (has(c.securityContext.runAsNonRoot) ? c.securityContext.runAsNonRoot : pod-level), as Pod Security's restricted level checks both, or check each container.",
  },
  create(run) {
    return { policy: (object) => check(object, run) };
  },
});
