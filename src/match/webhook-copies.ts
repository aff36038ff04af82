/**
 * One cause, one finding for webhooks that are copies: the webhooks of one configuration that
 * match alike (the same rules, selectors, matchConditions and matchPolicy: one server's features,
 * say) and get the same finding are reported once, at the first, naming the others (alsoAt, for
 * suppressions; a FixHint `webhooks` so that a suggestion edits each). Shared by the rules that
 * report per webhook what its matching causes (matches-kube-system, self-deadlock).
 */
import type { FieldPath } from '../field-path.js';
import type { Covered } from '../rule.js';
import type { Webhook } from '../model/types.js';
import type { Severity } from '../severity.js';
import { joinCapped } from '../text/list.js';

/** One webhook's finding before grouping. */
export interface WebhookFinding<MessageId extends string> {
  /** The webhook's label (its name, or its place). */
  readonly label: string;
  readonly webhook: Readonly<Webhook>;
  readonly messageId: MessageId;
  /** The message's data but the webhooks: `which` (`webhook "a"`, `webhooks "a" and "b"`), `intercepts` and `its` (agreeing with it) are added. */
  readonly data: Readonly<Record<string, string | number>>;
  readonly path: FieldPath;
  readonly severity?: Severity;
  readonly help?: string;
  /** Another rule's findings this one stands for (Violation.covers). */
  readonly covers?: readonly Covered[];
}

export interface GroupedFinding<MessageId extends string> {
  readonly messageId: MessageId;
  readonly data: Readonly<Record<string, string | number>>;
  readonly path: FieldPath;
  readonly severity?: Severity;
  readonly help?: string;
  readonly alsoAt?: readonly FieldPath[];
  readonly fixHint?: { readonly kind: 'webhooks'; readonly alsoAt: readonly FieldPath[] };
  readonly covers?: readonly Covered[];
}

/** What decides which requests reach a webhook. */
function matching(webhook: Readonly<Webhook>): string {
  const { rules, namespaceSelector, objectSelector, matchConditions, matchPolicy } = webhook;
  return JSON.stringify([rules, namespaceSelector, objectSelector, matchConditions, matchPolicy]);
}

/** The findings of one configuration's webhooks, copies together, in the order of their first. */
export function groupCopies<MessageId extends string>(found: readonly WebhookFinding<MessageId>[]): GroupedFinding<MessageId>[] {
  if (found.length < 2) return found.map((each) => grouped([each]));
  // A cheap key first; what the webhooks match is compared only among findings alike otherwise.
  const alike = new Map<string, WebhookFinding<MessageId>[]>();
  for (const each of found) {
    const key = [each.messageId, each.severity ?? '', each.help ?? '', ...Object.values(each.data)].join('\0');
    const group = alike.get(key);
    if (group === undefined) alike.set(key, [each]);
    else group.push(each);
  }
  const groups: WebhookFinding<MessageId>[][] = [];
  for (const group of alike.values()) {
    if (group.length === 1) {
      groups.push(group);
      continue;
    }
    const copies = new Map<string, WebhookFinding<MessageId>[]>();
    for (const each of group) {
      const key = matching(each.webhook);
      const copy = copies.get(key);
      if (copy === undefined) copies.set(key, [each]);
      else copy.push(each);
    }
    groups.push(...copies.values());
  }
  const order = new Map(found.map((each, index) => [each, index]));
  return groups.sort((a, b) => order.get(a[0]!)! - order.get(b[0]!)!).map(grouped);
}

function grouped<MessageId extends string>(group: readonly WebhookFinding<MessageId>[]): GroupedFinding<MessageId> {
  const [first, ...others] = group as [WebhookFinding<MessageId>, ...WebhookFinding<MessageId>[]];
  const which = others.length === 0 ? `webhook "${first.label}"` : `webhooks ${joinCapped(group.map((each) => `"${each.label}"`), 2, { width: 70 })}`;
  const alsoAt = others.map((other) => other.path);
  const covers = group.flatMap((each) => each.covers ?? []);
  return {
    messageId: first.messageId,
    data: { ...first.data, which, intercepts: others.length === 0 ? 'intercepts' : 'intercept', its: others.length === 0 ? 'its' : 'their' },
    path: first.path,
    ...(first.severity === undefined ? {} : { severity: first.severity }),
    ...(first.help === undefined ? {} : { help: first.help }),
    ...(alsoAt.length > 0 ? { alsoAt, fixHint: { kind: 'webhooks' as const, alsoAt } } : {}),
    ...(covers.length > 0 ? { covers } : {}),
  };
}
