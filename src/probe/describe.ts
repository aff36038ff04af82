/** Shared wording of the probe outputs (input strings not yet escaped). */
import type { ProbeReport, VerdictKind } from './probe.js';

export const VERDICT_TITLES: Readonly<Record<VerdictKind, string>> = {
  admitted: 'admitted',
  'admitted-unchecked': 'admitted unchecked',
  'rejected-by-webhook': 'rejected by the webhook',
  'rejected-call-failed': 'rejected because the call failed',
  rejected: 'rejected by the API server',
  undetermined: 'undetermined',
};

export function describeWebhook(report: ProbeReport): string {
  const { webhook } = report;
  return `${webhook.name} (${webhook.mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration'} ${webhook.configuration}, ${webhook.file})`;
}

export function describeProbeRequest(report: ProbeReport): string {
  const { request } = report;
  const resource = `${request.resource}${request.subresource ? `/${request.subresource}` : ''}`;
  const gv = request.group === '' ? request.version : `${request.group}/${request.version}`;
  const where = request.namespace === null ? '' : ` in namespace ${request.namespace}`;
  const name = request.object?.name !== undefined ? ` "${request.object.name}"` : '';
  return `${request.operation} ${resource}${name} (${gv}, kind ${request.kind})${where}${request.dryRun ? ', dry run' : ''}`;
}

export function describeUser(report: ProbeReport): string {
  const { userInfo } = report;
  return `${userInfo.username || '(no username)'}${userInfo.groups.length > 0 ? ` (groups ${userInfo.groups.join(', ')})` : ''}${userInfo.uid !== '' ? `, uid ${userInfo.uid}` : ''}`;
}

export function describeSettings(report: ProbeReport): string {
  const { webhook } = report;
  return [`failurePolicy ${webhook.failurePolicy}`, `timeoutSeconds ${webhook.timeoutSeconds}`, ...(webhook.reinvocationPolicy !== null ? [`reinvocationPolicy ${webhook.reinvocationPolicy}`] : []), `sideEffects ${webhook.sideEffects ?? '(unset)'}`].join(', ');
}

export function expectationText(report: ProbeReport): string | null {
  if (report.expect === null) return null;
  return `expected ${report.expect}: ${report.expectationMet === true ? 'met' : 'NOT met'}`;
}

export function repeatLines(report: ProbeReport): string[] {
  const repeats = report.repeats;
  if (repeats === null) return [];
  const verdicts = Object.entries(repeats.verdicts).map(([kind, count]) => `${count} ${VERDICT_TITLES[kind as VerdictKind]}`).join(', ');
  const lines = [`${repeats.calls} calls, ${repeats.concurrency} at a time: ${verdicts}`, `latency p50 ${ms(repeats.p50Ms)}, p90 ${ms(repeats.p90Ms)}, p99 ${ms(repeats.p99Ms)}, max ${ms(repeats.maxMs)} (timeoutSeconds ${report.webhook.timeoutSeconds})`];
  for (const failure of repeats.failures) lines.push(`${failure.count} × ${failure.message}`);
  return lines;
}

export function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

/** What the probe sent and where. */
export function targetLines(report: ProbeReport): string[] {
  return [
    `connect to ${report.target.connect}, TLS server name ${report.target.serverName}, verified against ${report.target.roots}`,
    `POST ${report.target.url} (admission.k8s.io/${report.reviewVersion ?? '–'} AdmissionReview)`,
  ];
}
