import { settingsApply } from '../src/match/reachability.js';
import { isDefaulted, webhooksOf, type WebhookEntry } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleMeta, type Severity, type Violation } from '../src/rule.js';
import { CLIENT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from '../src/model/types.js';
import { criticalForTimeout } from '../src/match/critical-targets.js';
import { reportedAsEverything } from '../src/match/intercepts-everything.js';
import { withKustomizeSelectors } from '../src/match/kustomize-selectors.js';
import { joinCapped } from '../src/text/list.js';

const meta = {
  id: 'long-timeout',
  title: 'The effective timeoutSeconds is above the threshold',
  aboutCalls: true,
  aboutSettings: true,
  severity: 'warning',
  appliesTo: ALL_WEBHOOK_KINDS,
  messages: {
    fail: '{{which}} {{has}} timeoutSeconds {{value}}{{defaulted}}, above {{threshold}}s, and failurePolicy Fail',
    ignore:
      '{{which}} {{has}} timeoutSeconds {{value}}{{defaulted}}, above {{threshold}}s',
    clientTimeout:
      '{{which}} {{has}} timeoutSeconds {{value}}{{defaulted}} and failurePolicy Ignore: as long as the 30s request timeout many clients use',
  },
  help: 'While the webhook is slow or unreachable, every request it intercepts hangs that long, then is rejected (failurePolicy Fail) or let through (Ignore); a client that gives up after 30s has failed by then, despite Ignore. Set timeoutSeconds to a few seconds: a webhook should answer in milliseconds.',
  options: {
    thresholdSeconds: {
      type: 'number',
      default: 15,
      minimum: 1,
      // The API server accepts timeouts of 30 s at most (timeout-out-of-range): from 30 on, nothing is above.
      loosensAbove: { reportsNothingFrom: 30 },
      description: 'Report webhooks whose effective timeoutSeconds is above this many seconds.',
    },
  },
} satisfies RuleMeta;

/**
 * How sure the file is that the maintainer would change the value. A timeout nobody wrote (the
 * v1beta1 default 30 s, or a default above a lowered threshold) was never chosen: warning. A written
 * timeout is deliberate (info), except Ignore with a timeout a client gives up at: the request
 * that Ignore is meant to let through fails anyway (Gardener's line: Ignore above 15 s), so the
 * two settings contradict each other.
 */
function severityOf(defaulted: boolean, messageId: MessageId): Severity {
  if (defaulted || messageId === 'clientTimeout') return 'warning';
  return 'info';
}

type MessageId = keyof typeof meta.messages;

/** The rule that reports an Ignore webhook on the control plane's writes for its long timeout. */
const CRITICAL_RESOURCES = 'critical-resources';

export const rule = defineObjectRule({
  meta,
  create(run) {
    return {
      webhookConfiguration(object) {
        const threshold = run.options.thresholdSeconds;
        // One cause, one finding: the webhooks of a configuration with the same value and case, together.
        const groups = new Map<string, { messageId: MessageId; value: number; defaulted: boolean; entries: WebhookEntry[] }>();
        const patchedWebhooks = webhooksOf(withKustomizeSelectors(object, run).object);
        for (const entry of webhooksOf(object)) {
          const path = [...entry.path, 'timeoutSeconds'];
          const value = entry.webhook.timeoutSeconds;
          // Values outside 1–30 are timeout-out-of-range's: the API server rejects them.
          if (typeof value !== 'number' || value > MAX_TIMEOUT_SECONDS || !(value > threshold)) continue;
          if (!settingsApply(object, entry, run)) continue;
          // One cause, one finding: an Ignore webhook on the control plane's writes with a timeout
          // above 15 s is critical-resources' finding, which names what waits.
          // critical-resources judges the webhook with the selectors its kustomize patch gives it (s37b A-5a).
          const judged = patchedWebhooks.find((each) => each.index === entry.index)?.webhook ?? entry.webhook;
          if (run.runsAsDesigned(CRITICAL_RESOURCES) && !reportedAsEverything(judged, run) && criticalForTimeout(judged, run)) continue;
          const ignore = entry.webhook.failurePolicy === 'Ignore';
          const messageId: MessageId = !ignore ? 'fail' : value >= CLIENT_TIMEOUT_SECONDS ? 'clientTimeout' : 'ignore';
          const defaulted = isDefaulted(object, path);
          const key = `${messageId}/${value}/${defaulted}`;
          const group = groups.get(key) ?? { messageId, value, defaulted, entries: [] };
          group.entries.push(entry);
          groups.set(key, group);
        }
        return [...groups.values()].map(({ messageId, value, defaulted, entries }): Violation<MessageId> => {
          const which = entries.length === 1 ? `webhook "${entries[0]!.label}"` : `webhooks ${joinCapped(entries.map((entry) => `"${entry.label}"`), 2, { width: 50 })}`;
          return {
            messageId,
            data: { which, has: entries.length === 1 ? 'has' : 'have', value, threshold, defaulted: defaulted ? ' (the API default)' : '' },
            path: [...entries[0]!.path, 'timeoutSeconds'],
            alsoAt: entries.slice(1).map((entry) => [...entry.path, 'timeoutSeconds']),
            severity: severityOf(defaulted, messageId),
          };
        });
      },
    };
  },
});
