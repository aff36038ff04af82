/**
 * The rule contract. A rule is metadata plus a pure check: it reads the defaulted model and the
 * run's context and returns violations. It never prints, reads files, computes positions, or
 * throws on user input; the engine turns violations into findings.
 */
import type { FieldPath } from './field-path.js';
import type { Discovery } from './kube/discovery/discovery.js';
import type { KubeVersion } from './kube/version.js';
import type { NamespaceObject, PolicyObject, WebhookConfigurationObject } from './model/objects.js';
import type { ObjectKind } from './model/types.js';
import type { ParsedFile, Span } from './parse/yaml.js';

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

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
  /** Settings the user may change (`--rule-option <id>.<name>=<value>`), with their defaults. */
  readonly options?: Readonly<Record<string, RuleOption>>;
}

export interface RuleOption {
  readonly type: 'number' | 'string';
  readonly default: number | string;
  readonly description: string;
  /** For numbers: the smallest allowed value. */
  readonly minimum?: number;
}

export interface Violation<MessageId extends string = string> {
  readonly messageId: MessageId;
  readonly data?: Readonly<Record<string, string | number>>;
  /** The field this is about, in the object (API notation when printed). */
  readonly path: FieldPath;
  /** Point at another place in the file than `path` (e.g. a key under matchLabels). */
  readonly locateAt?: FieldPath;
  /** Which part of the field to point at; default: key start to value end. */
  readonly part?: 'pair' | 'key' | 'value';
  /** For rules whose severity depends on the case (e.g. Fail vs Ignore). */
  readonly severity?: Severity;
  readonly help?: string;
}

export interface RuleContext {
  readonly webhookConfigurations: readonly WebhookConfigurationObject[];
  readonly namespaces: readonly NamespaceObject[];
  /** Admission policies and their bindings. */
  readonly policies: readonly PolicyObject[];
  readonly kubeVersion: KubeVersion;
  /** Namespace label keys the user trusts not to be editable by namespace owners. */
  readonly trustedNamespaceLabels: readonly string[];
  /** The built-in APIs of the target version plus the CRDs of the run. */
  readonly discovery: Discovery;
  /**
   * Whether a rule runs in this run (not turned off). Where two rules could report one cause at
   * one place, the one that defers asks whether the other runs, so the cause is said once.
   */
  isEnabled(ruleId: string): boolean;
  /** The value of one of the rule's options (its default unless the user set it). */
  option(meta: RuleMeta, name: string): number | string;
}

/**
 * A rule about objects. It implements the checks for the kinds in `appliesTo`: `check` for
 * webhook configurations, `checkPolicy` for admission policies and bindings, `checkNamespace`
 * for Namespaces. Violation paths are relative to the object checked.
 */
export interface ObjectRule<MessageId extends string = string> {
  readonly scope: 'object';
  readonly meta: RuleMeta<MessageId>;
  check?(object: WebhookConfigurationObject, context: RuleContext): Violation<MessageId>[];
  checkPolicy?(object: PolicyObject, context: RuleContext): Violation<MessageId>[];
  checkNamespace?(namespace: NamespaceObject, context: RuleContext): Violation<MessageId>[];
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

export function defineObjectRule<M extends string>(rule: Omit<ObjectRule<M>, 'scope'>): ObjectRule<M> {
  return { scope: 'object', ...rule };
}

export function defineFileRule<M extends string>(rule: Omit<FileRule<M>, 'scope'>): FileRule<M> {
  return { scope: 'file', ...rule };
}

export const ALL_WEBHOOK_KINDS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] as const;
