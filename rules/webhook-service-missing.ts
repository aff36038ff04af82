/**
 * A webhook calls a Service that its own bundle does not define, although the bundle installs the
 * Service's namespace and other Services in it: a name that went out of step (a rename, a
 * kustomize namePrefix that reached the Service but not the reference). The API server finds no
 * such Service and every call fails. A warning, not an error: the Service may still be created
 * outside the bundle (by an operator at run time, or by another manifest), which a file cannot
 * rule out; but a bundle that installs the namespace and its Services is where it belongs.
 */
import { missingFromBundle } from '../src/match/services.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { elideMiddle, joinCapped } from '../src/text/list.js';

export const rule = defineObjectRule({
  meta: {
    id: 'webhook-service-missing',
    title: "A webhook calls a Service its bundle does not define, beside the bundle's other Services there",
    aboutCalls: true,
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      missing: 'webhook "{{webhook}}" calls Service {{service}}, not in this bundle (it has {{others}} there)',
    },
    help: "The API server finds no such Service, so every call fails: the requests are rejected under failurePolicy Fail, and the webhook silently never runs under Ignore. Name the bundle's Service in clientConfig.service (with kustomize, let a nameReference or replacement carry a namePrefix to it), or add the Service.",
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<'missing'>[] = [];
        for (const entry of webhooksOf(object)) {
          const found = missingFromBundle(run, object, entry.webhook);
          if (found === undefined) continue;
          violations.push({
            messageId: 'missing',
            data: {
              // 160 characters at most: 61 of text, the webhook 26, the Service 40 (its name tells the
              // mismatch, so the namespace is shortened first), the others 30 ("a, b and 9 more").
              webhook: elideMiddle(entry.label, 26),
              service: `${elideMiddle(found.reference.namespace, Math.max(8, 39 - Math.min(found.reference.name.length, 31)))}/${elideMiddle(found.reference.name, 31)}`,
              others: joinCapped(found.others.map((name) => elideMiddle(name, 18)), 2, { width: 18 }),
            },
            path: [...entry.path, 'clientConfig', 'service', 'name'],
          });
        }
        return violations;
      },
    };
  },
});
