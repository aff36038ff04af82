/**
 * admissionReviewVersions is a preference list: the API server walks it in order and sends the
 * first of v1 and v1beta1 it finds (k8s.io/apiserver plugin/webhook/request/admissionreview.go,
 * facts §6). Lists the API server rejects (empty, no known version, duplicates, names that are
 * not DNS-1035 labels) are api-validation's; this rule looks at lists it accepts.
 */
import { isDefaulted, isV1beta1, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';

type MessageId = 'noV1' | 'noV1Default' | 'v1beta1First' | 'unknownFirst';

const KNOWN = new Set(['v1', 'v1beta1']);

/** The api-validation checks of the list (facts §2 rows 9-12): true when it would reject it. */
function rejectedByApiServer(versions: readonly string[]): boolean {
  if (versions.length === 0) return true;
  if (new Set(versions).size !== versions.length) return true;
  if (versions.some((version) => typeof version !== 'string' || !/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(version))) return true;
  return !versions.some((version) => KNOWN.has(version));
}

export const rule = defineObjectRule({
  meta: {
    id: 'admission-review-versions',
    title: 'admissionReviewVersions lacks v1 or lists unknown versions first',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      noV1:
        'webhook "{{webhook}}" gets the deprecated v1beta1 AdmissionReview: admissionReviewVersions has no v1',
      noV1Default:
        'webhook "{{webhook}}" does not set admissionReviewVersions: the v1beta1 API default ["v1beta1"] sends the deprecated review',
      v1beta1First:
        'webhook "{{webhook}}" lists v1beta1 before v1 in admissionReviewVersions: it gets the deprecated v1beta1 review, never v1',
      unknownFirst:
        'webhook "{{webhook}}" lists {{versions}} before {{known}} in admissionReviewVersions: an API server that knows "{{version}}" sends it instead',
    },
    help: 'The API server sends the first version of the list it knows (a newer one may know more), and checks v1beta1 responses less than v1 ones (not for the request uid and apiVersion/kind); v1 configurations require the list. List the versions the webhook server understands, preferred first: admissionReviewVersions: ["v1"] (add "v1beta1" after v1 only for servers that still need it).',
  },
  create() {
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        for (const entry of webhooksOf(object)) {
          const versions = entry.webhook.admissionReviewVersions;
          if (!Array.isArray(versions) || rejectedByApiServer(versions)) continue;
          const at = [...entry.path, 'admissionReviewVersions'];
          const firstKnown = versions.findIndex((version) => KNOWN.has(version));
          // Versions before the first known one are skipped today.
          const unknown = versions.slice(0, firstKnown);
          if (unknown.length > 0) {
            violations.push({ messageId: 'unknownFirst', data: { webhook: entry.label, versions: unknown.map((version) => `"${version}"`).join(', '), version: unknown[0]!, known: versions[firstKnown]! }, path: [...at, 0] });
          }
          if (!versions.includes('v1')) {
            const defaulted = isV1beta1(object) && isDefaulted(object, at);
            violations.push({ messageId: defaulted ? 'noV1Default' : 'noV1', data: { webhook: entry.label }, path: at });
          } else if (versions[firstKnown] === 'v1beta1') {
            violations.push({ messageId: 'v1beta1First', data: { webhook: entry.label }, path: [...at, firstKnown] });
          }
        }
        return violations;
      },
    };
  },
});
