import type { ResourceInfo } from '../src/kube/discovery/discovery.js';
import { isExemptRequest, matchingRule, type AdmissionRequest, type Operation } from '../src/match/request.js';
import type { RuleWithOperations, Webhook } from '../src/model/types.js';
import { isDefaulted, isV1beta1, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';
import { groupVersion } from '../src/match/targets.js';
import { joinCapped } from '../src/text/list.js';

type MessageId = 'exact';

/** The requests the API server can receive for a resource: CONNECT for its connect subresources, writes for the rest. */
function requestsFor(info: ResourceInfo): AdmissionRequest[] {
  const isNamespace = info.group === '' && info.resource === 'namespaces';
  const namespace = info.namespaced || isNamespace ? 'default' : null;
  const requests: AdmissionRequest[] = [];
  for (const subresource of ['', ...info.subresources]) {
    const operations: readonly Operation[] = info.connect.has(subresource) ? ['CONNECT'] : ['CREATE', 'UPDATE', 'DELETE'];
    for (const operation of operations) {
      requests.push({ operation, group: info.group, version: info.version, resource: info.resource, subresource, namespace });
    }
  }
  return requests;
}

const describe = (group: string, version: string, resource: string, subresource: string): string =>
  `${groupVersion(group, version)} ${resource}${subresource === '' ? '' : `/${subresource}`}`;

function joinList(items: readonly string[], limit = 2): string {
  return joinCapped(items, limit, { width: 60 });
}

/** A main resource in the list stands for its subresources too. */
function collapse(items: ReadonlyMap<string, { main: string; text: string }>): string[] {
  return [...items.values()].filter(({ main, text }) => text === main || !items.has(main)).map(({ text }) => text);
}

export const rule = defineObjectRule({
  meta: {
    id: 'match-policy-exact',
    title: 'matchPolicy Exact lets other versions of a matched resource bypass the webhook',
    aboutCalls: true,
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      exact:
        'webhook "{{webhook}}" has matchPolicy Exact{{defaulted}}: it misses the same objects through {{bypass}}',
    },
    help: 'Requests through another served version of the same objects (the versions it does not list) are not sent to the webhook. Remove matchPolicy (the v1 default is Equivalent) so that every version of the resource is intercepted, or list all served versions in apiVersions.',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const { discovery } = run;
        const webhooks = webhooksOf(object);
        // Every request the API server can receive (without the exempt kinds), by group and resource, once per run (discovery).
        const { requests, byResource } = discovery.derive('match-policy-exact.requests', () => {
          const all = discovery
            .allResources()
            .flatMap(requestsFor)
            .filter((request) => !isExemptRequest(request.group, request.resource));
          const index = new Map<string, number[]>();
          all.forEach((request, i) => {
            const key = `${request.group}\u0000${request.resource}`;
            const list = index.get(key);
            if (list === undefined) index.set(key, [i]);
            else list.push(i);
          });
          return { requests: all, byResource: index };
        });
        /** The requests a rule of these names the group and resource of (exactly or through another version, only those can match), in request order. */
        const named = (rules: readonly (RuleWithOperations | null)[] | undefined): readonly AdmissionRequest[] => {
          const picked = new Set<number>();
          for (const rule of rules ?? []) {
            if (rule === null || typeof rule !== 'object') continue;
            const groups = rule.apiGroups ?? [];
            for (const entry of rule.resources ?? []) {
              const slash = entry.indexOf('/');
              const resource = slash < 0 ? entry : entry.slice(0, slash);
              if (resource === '*' || groups.includes('*')) return requests;
              for (const group of groups) for (const i of byResource.get(`${group}\u0000${resource}`) ?? []) picked.add(i);
            }
          }
          return [...picked].sort((a, b) => a - b).map((i) => requests[i]!);
        };
        const violations: Violation<MessageId>[] = [];
        for (const entry of webhooks) {
          if (entry.webhook.matchPolicy !== 'Exact') continue;
          const equivalent: Readonly<Webhook> = { ...entry.webhook, matchPolicy: 'Equivalent' };
          // Another webhook of the configuration that intercepts the other version (one webhook per
          // CRD version, as code generators write them) closes the gap.
          const siblings = webhooks.filter((other) => other.index !== entry.index);
          const bypass = new Map<string, { main: string; text: string }>();
          const matched = new Map<string, { main: string; text: string }>();
          for (const request of named(equivalent.rules)) {
            const match = matchingRule(equivalent, request, discovery);
            if (match === undefined || match.equivalent === null) continue;
            if (siblings.some((other) => matchingRule(other.webhook, request, discovery) !== undefined)) continue;
            const text = describe(request.group, request.version, request.resource, request.subresource);
            bypass.set(text, { main: describe(request.group, request.version, request.resource, ''), text });
            const { group, version, resource } = match.equivalent;
            const matchedText = describe(group, version, resource, request.subresource);
            matched.set(matchedText, { main: describe(group, version, resource, ''), text: matchedText });
          }
          if (bypass.size === 0) continue;
          const path = [...entry.path, 'matchPolicy'];
          violations.push({
            messageId: 'exact',
            path,
            data: {
              webhook: entry.label,
              matched: joinList(collapse(matched)),
              bypass: joinList(collapse(bypass)),
              defaulted: isDefaulted(object, path) && isV1beta1(object) ? ' (the v1beta1 API default)' : '',
            },
          });
        }
        return violations;
      },
    };
  },
});
