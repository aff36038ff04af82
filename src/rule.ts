/**
 * The rule contract. A rule is metadata plus `create(run)`, which returns pure checks: they read
 * the defaulted model and the run and return violations. It never prints, reads files, computes positions, or
 * throws on user input; the engine turns violations into findings.
 */
import type { FieldPath } from './field-path.js';
import type { NamespaceObject, PolicyObject, WebhookConfigurationObject, WorkloadObject } from './model/objects.js';
import type { ObjectKind } from './model/types.js';
import type { ParsedFile, Span } from './parse/yaml.js';
import type { RunScope } from './run-scope.js';

import type { Severity } from './severity.js';

export { SEVERITIES, type Severity } from './severity.js';

export interface RuleMeta<MessageId extends string = string> {
  /** kebab-case; equals the file name in rules/. */
  readonly id: string;
  /** One line, for `admission-lint rules`. */
  readonly title: string;
  readonly severity: Severity;
  readonly appliesTo: readonly ObjectKind[];
  /** Message templates; `{{name}}` is replaced by `data.name`. */
  readonly messages: Readonly<Record<MessageId, string>>;
  /** One sentence on how to fix it, shown with every finding. */
  readonly help: string;
  /** Whether the rule needs an object whose field types are right (almost all do). */
  readonly needsDecodableObject?: boolean;
  /**
   * The rule reports what happens when a webhook is called (its timeout, failure policy,
   * reinvocation, whom it intercepts). The engine drops such findings on a webhook that no
   * request reaches (no rules, or every rule unreachable: src/match/reachability.ts).
   */
  readonly aboutCalls?: boolean;
  /**
   * With `aboutCalls`: the findings are about the webhook's own settings (review versions,
   * failure policy, timeout), not about what its rules intercept. They still apply to a webhook
   * shipped with no `rules` (a controller fills them in at run time); they are dropped only
   * where the file shows the webhook is never called (`rules: []`, or every rule unreachable).
   */
  readonly aboutSettings?: boolean;
  /** Settings the user may change (`--rule-option <id>.<name>=<value>`), with their defaults. */
  readonly options?: Readonly<Record<string, RuleOption>>;
}

export interface RuleOption {
  readonly type: 'number' | 'string';
  readonly default: number | string;
  readonly description: string;
  /** For numbers: the smallest allowed value. */
  readonly minimum?: number;
  /**
   * For numbers whose larger values report less (a threshold, a budget): a value above the
   * default loosens the gate, and the run's gate says so. `reportsNothingFrom` is the value from
   * which the rule can report nothing at all (a threshold past what the API server accepts).
   */
  readonly loosensAbove?: { readonly reportsNothingFrom?: number };
  /**
   * For strings: a comma-separated list of name patterns (`*` matches any characters), matched
   * by src/text/glob.ts. A pattern of stars alone matches every name: the run's gate says so.
   */
  readonly namePatterns?: true;
}

export interface Violation<MessageId extends string = string> {
  readonly messageId: MessageId;
  readonly data?: Readonly<Record<string, string | number>>;
  /** The field this is about, in the object (API notation when printed). */
  readonly path: FieldPath;
  /** Point at another place in the file than `path` (e.g. a key under matchLabels). */
  readonly locateAt?: FieldPath;
  /**
   * The same cause at other places of the object, reported in this one finding (the other
   * webhooks of a group). An inline suppression hides the finding only when it covers every
   * place: one written for the first webhook does not hide a sibling added later.
   */
  readonly alsoAt?: readonly FieldPath[];
  /** Which part of the field to point at; default: key start to value end. */
  readonly part?: 'pair' | 'key' | 'value';
  /** For rules whose severity depends on the case (e.g. Fail vs Ignore). */
  readonly severity?: Severity;
  readonly help?: string;
  /** What the finding's edit needs (`--fix`, src/fix/): the fixer reads this, never the message. */
  readonly fixHint?: FixHint;
  /**
   * One cause, one finding: another rule's findings on the same object that this one stands for
   * (matches-kube-system's "failurePolicy Fail (the API default)" is implicit-failure-policy's
   * omitted failurePolicy, with its consequence). The engine makes a finding of that rule whose
   * every place is covered by findings at least as severe an info.
   */
  readonly covers?: readonly Covered[];
}

/** A place where another rule's finding is covered (Violation.covers). */
export interface Covered {
  readonly ruleId: string;
  readonly path: FieldPath;
}

/**
 * Facts a rule attaches to a violation so that `--fix` can choose and make its edit without
 * reading the message (a reworded message must not change a fix). The formats never print it:
 * the JSON fields are design.md §4's.
 */
export type FixHint =
  /** The `resources` entry at the path matches nothing: no API of the target version serves it (or the subresource it names). */
  | { readonly kind: 'unserved-resource' }
  /**
   * The value at the path is a boolean where the API wants a string (YAML 1.1 read a plain `on`,
   * `yes`, … as one); `alsoAt`: the same in the other webhooks the finding counts.
   */
  | { readonly kind: 'boolean-for-string'; readonly alsoAt?: readonly FieldPath[] }
  /** The expression at the path selects `field`, a chain of field selections from object or oldObject, that an object may lack. */
  | { readonly kind: 'unguarded-field'; readonly field: string }
  /** The finding counts other webhooks of the object with the same cause: `alsoAt`, a path in each (as Violation.alsoAt). */
  | { readonly kind: 'webhooks'; readonly alsoAt: readonly FieldPath[] };

/** The values of a rule's options, typed from its declaration. */
export type OptionValues<Options> = {
  readonly [Name in keyof Options]: Options[Name] extends { readonly type: 'number' } ? number : string;
};

/**
 * What a rule's `create` receives, once per run: the run's objects and analyses (RunScope) plus
 * what the user configured.
 */
export interface RuleRun<Options = unknown> extends RunScope {
  /** Namespace label keys the user trusts not to be editable by namespace owners. */
  readonly trustedNamespaceLabels: readonly string[];
  /**
   * Whether a rule runs in this run (not turned off). Where two rules could report one cause at
   * one place, the one that defers asks whether the other runs, so the cause is said once.
   */
  isEnabled(ruleId: string): boolean;
  /**
   * Whether a rule runs with the severities it gives and the options it declares (turned on, its
   * severity not overridden and no option set by the user). A rule that defers a cause whose
   * severity matters asks this: a user who lowers the other rule, or moves its threshold, must
   * not lose the finding with it.
   */
  runsAsDesigned(ruleId: string): boolean;
  /** The rule's options: the user's values, else the declared defaults. */
  readonly options: OptionValues<Options>;
}

/** The checks a rule returns from `create`, one per kind of object; paths are relative to the object. */
export interface ObjectChecks<MessageId extends string = string> {
  webhookConfiguration?(object: WebhookConfigurationObject): Violation<MessageId>[];
  /** Admission policies and bindings. */
  policy?(object: PolicyObject): Violation<MessageId>[];
  namespace?(namespace: NamespaceObject): Violation<MessageId>[];
  /** Pods and workloads with pod templates (read only where a Pod Security level other than privileged can apply). */
  workload?(workload: WorkloadObject): Violation<MessageId>[];
}

/**
 * A rule about objects, in the manner of ESLint's `create(context)`: `create` is called once per
 * run, and per-run analyses are its locals or come from `run.memo`. The checks it returns cover
 * the kinds in `appliesTo`.
 */
export interface ObjectRule<MessageId extends string = string, Options = unknown> {
  readonly scope: 'object';
  readonly meta: RuleMeta<MessageId>;
  create(run: RuleRun<Options>): ObjectChecks<MessageId>;
}

export interface FileViolation<MessageId extends string = string> {
  readonly messageId: MessageId;
  readonly data?: Readonly<Record<string, string | number>>;
  readonly documentIndex: number;
  readonly span: Span;
  readonly severity?: Severity;
}

/** Rules about the file itself (syntax), before any object exists. */
export interface FileRule<MessageId extends string = string> {
  readonly scope: 'file';
  readonly meta: RuleMeta<MessageId>;
  checkFile(file: ParsedFile): FileViolation<MessageId>[];
}

export type Rule = ObjectRule | FileRule;

export function defineObjectRule<M extends string, const Options extends Readonly<Record<string, RuleOption>> = Readonly<Record<string, never>>>(rule: {
  readonly meta: RuleMeta<M> & { readonly options?: Options };
  create(run: RuleRun<Options>): ObjectChecks<M>;
}): ObjectRule<M> {
  return { scope: 'object', ...rule } as ObjectRule<M>;
}

export function defineFileRule<M extends string>(rule: Omit<FileRule<M>, 'scope'>): FileRule<M> {
  return { scope: 'file', ...rule };
}

export const ALL_WEBHOOK_KINDS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] as const;
