/**
 * admissionReviewVersions is a preference list: the API server walks it in order and sends the
 * first of v1 and v1beta1 it finds (k8s.io/apiserver plugin/webhook/request/admissionreview.go,
 * facts §6). Lists the API server rejects (empty, no known version, duplicates, names that are
 * not DNS-1035 labels) are api-validation's; this rule looks at lists it accepts.
 */
import type { FieldPath } from '../src/field-path.js';
import { settingsApply } from '../src/match/reachability.js';
import { isDefaulted, isV1beta1, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { joinCapped } from '../src/text/list.js';

type MessageId = 'noV1' | 'noV1Default' | 'v1beta1First' | 'unknownFirst';

const KNOWN = new Set(['v1', 'v1beta1']);

/** The api-validation checks of the list (facts §2 rows 9-12): true when it would reject it. */
function rejectedByApiServer(versions: readonly string[]): boolean {
  if (versions.length === 0) return true;
  if (new Set(versions).size !== versions.length) return true;
  if (versions.some((version) => typeof version !== 'string' || !/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(version))) return true;
  return !versions.some((version) => KNOWN.has(version));
}

/** `webhook "a"`, or `webhooks "a", "b" and 3 more`. */
function which(entries: readonly WebhookEntry[]): { which: string } {
  if (entries.length === 1) return { which: `webhook "${entries[0]!.label}"` };
  return { which: `webhooks ${joinCapped(entries.map((entry) => `"${entry.label}"`), 2, { width: 50 })}` };
}

/** Once v1 is listed, v1beta1 first is a preference with no consequence if v1beta1 goes (the server then picks v1). */
const V1BETA1_FIRST_HELP =
  'The API server sends the first version of the list it knows, so this webhook gets admission.k8s.io/v1beta1 (deprecated since 1.19, no removal scheduled) and its responses are not checked for the request uid and apiVersion/kind. It also speaks v1, so nothing breaks if v1beta1 goes. List v1 first: admissionReviewVersions: ["v1", "v1beta1"].';

export const rule = defineObjectRule({
  meta: {
    id: 'admission-review-versions',
    title: 'admissionReviewVersions lacks v1 or lists unknown versions first',
    aboutCalls: true,
    aboutSettings: true,
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      noV1:
        '{{which}}: admissionReviewVersions has no v1, so the deprecated v1beta1 review is sent',
      noV1Default:
        '{{which}}: admissionReviewVersions omitted, the v1beta1 API default ["v1beta1"] sends the deprecated review',
      v1beta1First:
        '{{which}}: admissionReviewVersions lists v1beta1 before v1, so v1beta1 (deprecated since 1.19) is sent',
      unknownFirst:
        'webhook "{{webhook}}" lists {{versions}} before {{known}} in admissionReviewVersions: an API server that knows "{{version}}" sends it instead',
    },
    help: 'The API server sends the first version of the list it knows (a newer one may know more), and checks v1beta1 responses less than v1 ones (not for the request uid and apiVersion/kind); v1 configurations require the list. List the versions the webhook server understands, preferred first: admissionReviewVersions: ["v1"] (add "v1beta1" after v1 only for servers that still need it).',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<MessageId>[] = [];
        // One cause, one finding: the webhooks of a configuration with the same problem, together.
        const grouped = new Map<'noV1' | 'noV1Default' | 'v1beta1First', { entry: WebhookEntry; path: FieldPath }[]>();
        const add = (id: 'noV1' | 'noV1Default' | 'v1beta1First', entry: WebhookEntry, path: FieldPath): void => {
          // Only webhooks that are called (or filled in later): the engine drops the others' findings.
          if (settingsApply(object, entry, run)) grouped.set(id, [...(grouped.get(id) ?? []), { entry, path }]);
        };
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
            add(defaulted ? 'noV1Default' : 'noV1', entry, at);
          } else if (versions[firstKnown] === 'v1beta1') {
            add('v1beta1First', entry, [...at, firstKnown]);
          }
        }
        for (const [messageId, found] of grouped) {
          const data = which(found.map(({ entry }) => entry));
          violations.push({
            messageId,
            data,
            path: found[0]!.path,
            alsoAt: found.slice(1).map(({ path }) => path),
            ...(messageId === 'v1beta1First' ? { severity: 'info' as const, help: V1BETA1_FIRST_HELP } : {}),
          });
        }
        return violations;
      },
    };
  },
});
