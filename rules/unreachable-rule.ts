import { webhookReachability, type UnreachableReason } from '../src/match/reachability.js';
import { webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';

/**
 * Dead entries inside a rule that still matches (a CONNECT-only or read-only subresource listed
 * under CREATE/UPDATE, an entry that does not accept CONNECT in a CONNECT rule) change nothing
 * at run time: info. A whole rule, a whole webhook, or an entry the author listed for a request
 * the API server never sends it (scope, admission configuration objects, virtual reviews) is
 * something the author wanted and never gets: warning.
 */
const DEAD_ENTRIES: ReadonlySet<UnreachableReason> = new Set(['operationsEntry', 'connectEntry']);

/** The analysis lives in src/match/reachability.ts; the engine also uses it to skip never-called webhooks. */
export const rule = defineObjectRule({
  meta: {
    id: 'unreachable-rule',
    title: 'A rule can never match a request',
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      emptyRules: 'webhook "{{webhook}}" has an empty rules list, so it is never called',
      exempt: '"{{entry}}" names admission configuration objects: webhook "{{webhook}}" is never called for them',
      virtual: '"{{entry}}" names virtual reviews, not sent to webhooks in Kubernetes {{kube}}: webhook "{{webhook}}" is never called for them',
      scope: 'scope is {{scope}}, but {{resources}} {{is}} {{kind}}: webhook "{{webhook}}" is never called through this rule',
      scopeEntry: '"{{entry}}" is {{kind}}, so with scope {{scope}} webhook "{{webhook}}" is never called for it',
      connect: 'CONNECT is the rule\'s only operation, but {{resources}} {{does}} not accept it: webhook "{{webhook}}" is never called through this rule',
      connectEntry: '"{{entry}}" does not accept CONNECT: this CONNECT-only rule never calls webhook "{{webhook}}" for it',
      operations: 'operations {{operations}} never reach {{resources}}, which {{why}}: webhook "{{webhook}}" is never called through this rule',
      operationsEntry: '{{entries}} {{why}}: operations {{operations}} never call webhook "{{webhook}}" for them',
      objectSelector: 'webhook "{{webhook}}" has an objectSelector, but its rules only match CONNECT, which carries no object labels: it is never called',
      objectSelectorSome: 'webhook "{{webhook}}" has an objectSelector, which never matches CONNECT requests: its CONNECT-only {{rules}} {{call}} it',
    },
    help: 'Only the exec, attach, portforward and proxy subresources accept CONNECT, and CONNECT requests carry no object labels for an objectSelector; reads (pods/log) never reach admission; the other subresources are created (binding, eviction, token) or updated (status, scale, ephemeralcontainers), never deleted; the API server never sends admission configuration objects (webhook configurations, admission policies and their bindings) to webhooks, nor, from Kubernetes 1.37, the virtual authentication and authorization reviews. Remove what cannot match, or fix it: name resources that receive the operation, a scope that fits them, and no objectSelector on CONNECT rules.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const violations: Violation<UnreachableReason>[] = [];
        for (const entry of webhooksOf(object)) {
          const { unreachable } = webhookReachability(entry.webhook, entry.path, entry.label, run);
          for (const { reason, path, data } of unreachable) violations.push({ messageId: reason, path, data, ...(DEAD_ENTRIES.has(reason) ? { severity: 'info' as const } : {}) });
        }
        return violations;
      },
    };
  },
});
