import { unreadableMayHoldNaming } from '../src/match/unreadable.js';
import type { WorkloadObject } from '../src/model/objects.js';
import { WORKLOAD_KINDS } from '../src/model/types.js';
import { podForbiddenMessage, violatesMessage, wouldViolateMessage } from '../src/psa/message.js';
import { modeText, objectPathOf, workloadNamespace, workloadVerdict, type ModeVerdict, type NamespacePodSecurity } from '../src/psa/run-policy.js';
import { defineObjectRule, type RuleMeta, type Severity, type Violation } from '../src/rule.js';

type MessageId = 'podRejected' | 'podsRejected' | 'warned' | 'audited';

const meta = {
  id: 'pod-security',
  title: "A Pod or pod template that its namespace's Pod Security level rejects, warns about or audits",
  severity: 'error',
  appliesTo: [...WORKLOAD_KINDS],
  messages: {
    podRejected: '{{forbidden}}{{where}}',
    podsRejected: '{{object}} is admitted, but {{pods}} are rejected: {{violates}}{{where}}',
    warned: '{{object}} is admitted with a warning: {{wouldViolate}}{{where}}',
    audited: '{{object}} is admitted, and the audit log records that it {{wouldViolate}}{{where}}',
  },
  help: 'Set the fields each failed check names (the message lists them), or run the workload in a namespace whose Pod Security level allows it.',
} satisfies RuleMeta;

const SEVERITY: Readonly<Record<ModeVerdict['mode'], Severity>> = { enforce: 'error', warn: 'warning', audit: 'info' };

/** Which Pods a workload's template becomes. */
function podsOf(kind: WorkloadObject['kind']): string {
  if (kind === 'CronJob') return 'the Pods of the Jobs it creates';
  if (kind === 'PodTemplate') return 'Pods made from it';
  return 'the Pods it creates';
}

/** Which namespace was assumed and where its policy comes from, when the manifest does not say both. */
function whereText(namespace: NamespacePodSecurity, assumed: boolean): string {
  const parts: string[] = [];
  if (assumed) parts.push(`in namespace "${namespace.name}", assumed: the manifest names none, and --namespace sets the run's default`);
  if (namespace.manifest === undefined) parts.push(`${assumed ? 'it' : `namespace "${namespace.name}"`} has no Namespace manifest in the run, so the PodSecurity configuration's defaults apply`);
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}

function helpFor(mode: ModeVerdict, pod: boolean, kind: string): string {
  if (mode.mode === 'enforce' && pod) {
    return 'The API server rejects this Pod with this message. Set the fields each failed check names, or create the Pod in a namespace whose enforce level allows it; a runtimeClassName or namespace listed in the exemptions of the PodSecurity admission configuration is not checked.';
  }
  if (mode.mode === 'enforce') {
    return `kubectl apply succeeds, with at most a warning, and then every Pod of this ${kind} is rejected with this message: the rollout stalls, and only the controller's events (Error creating: pods … is forbidden) say why. Set the fields each failed check names in the pod template.`;
  }
  if (mode.mode === 'warn') {
    return `Nothing is rejected: kubectl prints this warning on apply. The namespace warns about ${mode.level} (often the level it will enforce next): set the fields each failed check names.`;
  }
  return `Nothing is rejected and nobody is told: the API server records the violation in the audit log (annotation pod-security.kubernetes.io/audit-violations). Set the fields each failed check names before the namespace enforces ${mode.level}.`;
}

export const rule = defineObjectRule({
  meta,
  create(run) {
    return {
      workload(workload: WorkloadObject): Violation<MessageId>[] {
        const verdict = workloadVerdict(run, workload);
        if (verdict === undefined || verdict.notChecked !== undefined || verdict.template === undefined) return [];
        // No Namespace manifest of that name was read, and one may be in a document the run could
        // not read: its labels, and so the levels, are not known.
        if (verdict.namespace.manifest === undefined && unreadableMayHoldNaming(run, 'Namespace', verdict.namespace.name)) return [];
        const template = verdict.template;
        const pod = verdict.entry.enforced;
        const where = whereText(verdict.namespace, workloadNamespace(workload, run.podSecurity).assumed);
        const object = `${workload.kind} ${workload.name === undefined ? '(no name)' : `"${workload.name}"`}`;
        // The strongest mode it violates: a Pod that enforce rejects gets no warning (PSA adds none
        // to a rejected request), and what warn reports is not said again as audited.
        const failed = verdict.modes.find((mode) => !mode.result.allowed);
        if (failed === undefined) return [];
        const { level, version, result } = failed;
        const data: Record<string, string> = { object, where, pods: podsOf(workload.kind) };
        let messageId: MessageId;
        if (failed.mode === 'enforce' && pod) {
          messageId = 'podRejected';
          data.forbidden = podForbiddenMessage(workload.name ?? '', level, version, result.failures);
        } else if (failed.mode === 'enforce') {
          messageId = 'podsRejected';
          data.violates = violatesMessage(level, version, result.failures);
        } else {
          messageId = failed.mode === 'warn' ? 'warned' : 'audited';
          data.wouldViolate = wouldViolateMessage(level, version, result.failures);
        }
        const first = result.failures[0]!;
        return [
          {
            messageId,
            data,
            path: objectPathOf(template, first.path),
            severity: SEVERITY[failed.mode],
            help: `${helpFor(failed, pod, workload.kind)} (Pod Security ${modeText(failed)}, checks of v1.${failed.minor}.)`,
          },
        ];
      },
    };
  },
});
