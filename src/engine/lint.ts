/**
 * The run: load → parse → recognise (default, decode-check) → rules → findings. Rules see
 * every object of the run at once, so cross-object checks (Namespaces against selectors) work
 * across files.
 */
import { InternalError } from '../errors.js';
import { Discovery } from '../kube/discovery/discovery.js';
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { renderedAt, splitRendered } from '../load/helm.js';
import { decode, expandPaths, MAX_FILE_BYTES, readBytes, readStdinSync } from '../load/sources.js';
import type { CustomResourceDefinitionObject, NamespaceObject, PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { recognize } from '../model/recognize.js';
import { isV1beta1, webhooksOf } from '../model/webhooks.js';
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import { webhookReachability } from '../match/reachability.js';
import { KustomizePatches } from '../parse/kustomization.js';
import { skimBytes, SUPPRESSION_MARK } from '../parse/prefilter.js';
import { parseFile, unreadFile, type Manifest, type ParsedFile } from '../parse/yaml.js';
import type { ObjectRule, Rule, RuleMeta, RuleRun, Severity, Violation } from '../rule.js';
import { RunMemo, type RunScope } from '../run-scope.js';
import { prepareCel } from '../cel/library.js';
import { compareFindings, type Finding, type InternalErrorReport, type Inventory, type InventoryObject, type Report } from './finding.js';
import { applySuppressions } from './suppressions.js';

export type SeverityOverride = Severity | 'off';

export interface LintOptions {
  readonly paths: readonly string[];
  readonly rules: readonly Rule[];
  readonly kubeVersion: KubeVersion;
  readonly trustedNamespaceLabels: readonly string[];
  /** Per rule id: a severity that replaces the rule's, or 'off'. */
  readonly severityOverrides: ReadonlyMap<string, SeverityOverride>;
  /** Per rule id: option values the user set (validated against the rule's options). */
  readonly ruleOptions?: ReadonlyMap<string, Readonly<Record<string, number | string>>>;
  readonly toolVersion: string;
  readonly readStdin?: () => Uint8Array;
  /** false: suppression comments and annotations are ignored (--no-inline-config). */
  readonly inlineConfig?: boolean;
}

export interface LintRun {
  /** The files that hold something the rules read: objects, syntax problems or suppression comments. */
  readonly files: readonly ParsedFile[];
  /** Every file read, in order, as findings name them (a rendered stream: one per template). */
  readonly paths: readonly string[];
  /** Inputs read: a rendered stream split per template (src/load/helm.ts) is still one. */
  readonly inputs: number;
  readonly webhookConfigurations: readonly WebhookConfigurationObject[];
  readonly namespaces: readonly NamespaceObject[];
  readonly customResourceDefinitions: readonly CustomResourceDefinitionObject[];
  readonly policies: readonly PolicyObject[];
  readonly documents: number;
  readonly skipped: number;
}

/**
 * Reads and recognises every input. Shared by `lint` and `defaults`. Files are read one at a
 * time, and only what the rules need is kept: a repository's other documents leave nothing
 * behind (most are never parsed, src/parse/prefilter.ts).
 */
export function loadRun(paths: readonly string[], readStdin: () => Uint8Array = readStdinSync): LintRun {
  const files: ParsedFile[] = [];
  const filePaths: string[] = [];
  const webhookConfigurations: WebhookConfigurationObject[] = [];
  const namespaces: NamespaceObject[] = [];
  const customResourceDefinitions: CustomResourceDefinitionObject[] = [];
  const policies: PolicyObject[] = [];
  let documents = 0;
  let skipped = 0;
  let inputs = 0;
  const kustomizePatches = new KustomizePatches();
  for (const path of expandPaths(paths)) {
    inputs++;
    const raw = readBytes(path, readStdin);
    if (raw.tooLarge !== undefined) {
      // Not read, and said so: a gate never passes a file it did not look at.
      filePaths.push(raw.path);
      files.push(unreadFile(raw.path, raw.tooLarge, MAX_FILE_BYTES));
      continue;
    }
    const skimmed = skimBytes(raw.bytes);
    if (skimmed !== undefined) {
      documents += skimmed.documents;
      skipped += skimmed.skipped;
      filePaths.push(raw.path);
      continue;
    }
    const whole = parseFile({ path: raw.path, text: decode(raw.bytes) });
    documents += whole.documentCount;
    skipped += whole.unparsed;
    if (whole.manifests.length === 0 && whole.problems.length === 0 && !hasDirectives(whole)) {
      filePaths.push(whole.source.path);
      continue;
    }
    // Rendered input (`helm template`) becomes one file per template (src/load/helm.ts).
    for (const parsed of splitRendered(whole)) {
      filePaths.push(parsed.source.path);
      // A kustomize patch holds partial objects, which are not linted; but a complete admission
      // object in it would be applied by anyone who applies the file, so it is linted.
      const patch = kustomizePatches.isPatch(path);
      const problems = [...parsed.problems];
      /** Only these keep their place in the file: the other manifests' documents are let go. */
      const read: Manifest[] = [];
      for (const manifest of parsed.manifests) {
        const recognized = recognize(manifest);
        if (patch && !((recognized.type === 'webhook-configuration' || recognized.type === 'admission-policy') && isComplete(recognized.object))) {
          skipped++;
          continue;
        }
        if (recognized.type === 'webhook-configuration') webhookConfigurations.push(recognized.object);
        else if (recognized.type === 'namespace') namespaces.push(recognized.object);
        else if (recognized.type === 'admission-policy') policies.push(recognized.object);
        else if (recognized.type === 'custom-resource-definition') {
          // Read for discovery, not linted: still one of the "other documents".
          customResourceDefinitions.push(recognized.object);
          skipped++;
          continue;
        } else if (recognized.type === 'unreadable') problems.push(recognized.problem);
        else {
          skipped++;
          continue;
        }
        read.push(manifest);
      }
      // A file of other kinds only (parsed because its text named one we read) is not kept.
      if (read.length === 0 && problems.length === 0 && !hasDirectives(parsed)) {
        // A patch file is kept for its suppression comments, as before.
        if (patch) files.push({ ...parsed, problems, manifests: read });
        continue;
      }
      files.push({ ...parsed, problems, manifests: read });
    }
  }
  return { files, paths: filePaths, inputs, webhookConfigurations, namespaces, customResourceDefinitions, policies, documents, skipped };
}

/**
 * An admission object that stands on its own, as opposed to a kustomize patch's partial object:
 * a webhook configuration whose every webhook has a clientConfig and rules, a policy with
 * validations or mutations, a binding that names its policy.
 */
function isComplete(object: WebhookConfigurationObject | PolicyObject): boolean {
  if (object.category === 'webhook-configuration') {
    const webhooks = object.effective.webhooks;
    return Array.isArray(webhooks) && webhooks.length > 0 && webhooks.every((webhook) => webhook !== null && typeof webhook === 'object' && webhook.clientConfig != null && webhook.rules != null);
  }
  const spec = (object.effective as { spec?: Record<string, unknown> }).spec;
  if (spec === undefined || spec === null || typeof spec !== 'object') return false;
  return ['validations', 'mutations', 'policyName'].some((key) => spec[key] != null);
}

/** Suppression comments are reported (unused, without a reason) even in a file with nothing else. */
function hasDirectives(file: ParsedFile): boolean {
  return file.source.text?.includes(SUPPRESSION_MARK) ?? false;
}

function fill(template: string, data: Readonly<Record<string, string | number>> | undefined): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = data?.[key];
    if (value === undefined) throw new InternalError(`message placeholder {{${key}}} has no value`);
    return String(value);
  });
}

function webhookNameAt(object: WebhookConfigurationObject, path: FieldPath): string | null {
  if (path[0] !== 'webhooks' || typeof path[1] !== 'number') return null;
  const name = object.effective.webhooks?.[path[1]]?.name;
  return typeof name === 'string' ? name : null;
}

function severityFor(meta: RuleMeta, violationSeverity: Severity | undefined, overrides: ReadonlyMap<string, SeverityOverride>): SeverityOverride {
  return overrides.get(meta.id) ?? violationSeverity ?? meta.severity;
}

export async function lint(options: LintOptions): Promise<Report> {
  return lintRun(loadRun(options.paths, options.readStdin), options);
}

/** Lints a run that is already loaded (`report` reads its inputs once: stdin cannot be read twice). */
export async function lintRun(run: LintRun, options: Omit<LintOptions, 'paths' | 'readStdin'>): Promise<Report> {
  // CEL is loaded only for runs with expressions to check: webhook matchConditions or policies.
  if (run.policies.length > 0 || run.webhookConfigurations.some(hasMatchConditions)) await prepareCel();
  const findings: Finding[] = [];
  const internalErrors: InternalErrorReport[] = [];
  /**
   * A rule that throws is a bug. It must not hide the other rules' findings: record it, report
   * it as an error finding on the object, and let the CLI exit 2.
   */
  const guarded = <T>(meta: RuleMeta, file: string, object: FindingObject | undefined, check: () => T[]): T[] => {
    try {
      return check();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      internalErrors.push({ ruleId: meta.id, file, object: object ? `${object.kind} ${object.name ?? '(no name)'}` : null, message, stack: error instanceof Error ? (error.stack ?? message) : message });
      const span = object ? object.manifest.locate([]) : { line: 1, column: 1, endLine: 1, endColumn: 1 };
      findings.push({
        ruleId: meta.id,
        severity: 'error',
        message: `internal error in rule ${meta.id}: ${message} (a bug in admission-lint; the other rules ran)`,
        file,
        line: span.line,
        column: span.column,
        endLine: span.endLine,
        endColumn: span.endColumn,
        documentIndex: object?.manifest.documentIndex ?? 0,
        fieldPath: null,
        object: object ? { apiVersion: object.manifest.apiVersion ?? object.apiVersion, kind: object.kind, name: object.name ?? null } : null,
        webhook: null,
        help: 'Please report it, with the input that caused it.',
      });
      return [];
    }
  };
  const push = (meta: RuleMeta, violation: Violation, object: FindingObject, webhook: string | null): void => {
    const finding = toFinding(meta, violation, object, webhook, options.severityOverrides);
    if (finding) findings.push(finding);
  };
  const enabled = options.rules.filter((rule) => options.severityOverrides.get(rule.meta.id) !== 'off');
  const enabledIds = new Set(enabled.map((rule) => rule.meta.id));
  const scope = runScope(run, options.kubeVersion);

  for (const rule of enabled) {
    if (rule.scope !== 'file') continue;
    for (const file of run.files) {
      for (const violation of guarded(rule.meta, file.source.path, undefined, () => rule.checkFile(file))) {
        const severity = severityFor(rule.meta, violation.severity, options.severityOverrides);
        if (severity === 'off') continue;
        findings.push({
          ruleId: rule.meta.id,
          severity,
          message: fill(rule.meta.messages[violation.messageId] ?? missingMessage(rule.meta, violation.messageId), violation.data),
          file: file.source.path,
          ...violation.span,
          documentIndex: violation.documentIndex,
          fieldPath: null,
          object: null,
          webhook: null,
          help: rule.meta.help,
          ...renderedAt(file.source, violation.span),
        });
      }
    }
  }

  // Each rule's create runs once per run; its checks then run per object.
  const objectRules = enabled
    .filter((rule): rule is ObjectRule => rule.scope === 'object')
    .map((rule) => {
      const ruleRun: RuleRun = {
        ...scope,
        trustedNamespaceLabels: options.trustedNamespaceLabels,
        isEnabled: (ruleId) => enabledIds.has(ruleId),
        options: optionValues(rule.meta, options.ruleOptions?.get(rule.meta.id)),
      };
      // A create that throws is a bug like a check that throws: reported on the run's first file.
      const checks = guarded(rule.meta, run.paths[0] ?? '-', undefined, () => [rule.create(ruleRun)])[0] ?? {};
      return { meta: rule.meta, checks };
    });
  for (const object of run.webhookConfigurations) {
    // Findings about what a call does are not made on webhooks that no request reaches.
    let neverCalled: readonly boolean[] | undefined;
    // A v1beta1 configuration is not served from 1.22 (removed-api-version): none of its webhooks is called.
    const unserved = isV1beta1(object) && isAtLeast(options.kubeVersion, 1, 22);
    const isNeverCalled = (path: FieldPath): boolean => {
      if (unserved) return true;
      if (path[0] !== 'webhooks' || typeof path[1] !== 'number' || !object.decodable) return false;
      neverCalled ??= webhooksOf(object).map((entry) => webhookReachability(entry.webhook, entry.path, entry.label, scope).neverCalled);
      return neverCalled[path[1]] ?? false;
    };
    for (const { meta, checks } of objectRules) {
      const check = checks.webhookConfiguration;
      if (check === undefined || !meta.appliesTo.includes(object.kind)) continue;
      if (meta.needsDecodableObject !== false && !object.decodable) continue;
      for (const violation of guarded(meta, object.manifest.file.path, object, () => check(object))) {
        if (meta.aboutCalls === true && isNeverCalled(violation.path)) continue;
        push(meta, violation, object, webhookNameAt(object, violation.path));
      }
    }
  }
  for (const object of run.policies) {
    for (const { meta, checks } of objectRules) {
      const check = checks.policy;
      if (check === undefined || !meta.appliesTo.includes(object.kind)) continue;
      if (meta.needsDecodableObject !== false && !object.decodable) continue;
      for (const violation of guarded(meta, object.manifest.file.path, object, () => check(object))) push(meta, violation, object, null);
    }
  }
  for (const namespace of run.namespaces) {
    const object = { manifest: namespace.manifest, apiVersion: 'v1', kind: 'Namespace', name: namespace.name };
    for (const { meta, checks } of objectRules) {
      const check = checks.namespace;
      if (check === undefined || !meta.appliesTo.includes('Namespace')) continue;
      for (const violation of guarded(meta, namespace.manifest.file.path, object, () => check(namespace))) push(meta, violation, object, null);
    }
  }

  // Inline suppressions (src/engine/suppressions.ts): drop the findings they cover, then report
  // the suppressions themselves (no reason, unused, unknown rule ids).
  const ranRules = new Set(enabled.map((rule) => rule.meta.id));
  const suppression = applySuppressions({
    files: run.files,
    objects: [
      ...run.webhookConfigurations,
      ...run.policies,
      ...run.namespaces.map((namespace) => ({ manifest: namespace.manifest, apiVersion: 'v1', kind: 'Namespace', name: namespace.name, written: namespace.written })),
    ],
    findings,
    ranRules,
    inline: options.inlineConfig !== false,
  });
  const kept = suppression.kept;
  for (const violation of suppression.violations) {
    if (!ranRules.has(violation.meta.id)) continue;
    const severity = severityFor(violation.meta, undefined, options.severityOverrides);
    if (severity === 'off') continue;
    kept.push({
      ruleId: violation.meta.id,
      severity,
      message: fill(violation.meta.messages[violation.messageId] ?? missingMessage(violation.meta, violation.messageId), violation.data),
      file: violation.source.path,
      ...violation.span,
      documentIndex: violation.documentIndex,
      fieldPath: violation.fieldPath,
      object: violation.object,
      webhook: null,
      help: violation.meta.help,
      ...renderedAt(violation.source, violation.span),
    });
  }

  const unique = dedupe(kept).sort(compareFindings);
  return {
    inventory: inventoryOf(run),
    internalErrors,
    toolVersion: options.toolVersion,
    findings: unique,
    suppressed: suppression.suppressed,
    summary: {
      files: run.inputs,
      documents: run.documents,
      objects: run.webhookConfigurations.length + run.policies.length,
      namespaces: run.namespaces.length,
      skipped: run.skipped,
      errors: unique.filter((f) => f.severity === 'error').length,
      warnings: unique.filter((f) => f.severity === 'warning').length,
      infos: unique.filter((f) => f.severity === 'info').length,
      suppressed: suppression.suppressed.length,
    },
  };
}

/** A loaded run as the analyses see it: its objects, discovery (built-in APIs plus its CRDs) and a fresh memo. */
export function runScope(run: LintRun, kubeVersion: KubeVersion): RunScope {
  const discovery = new Discovery(kubeVersion);
  for (const crd of run.customResourceDefinitions) discovery.addCustomResource(crd);
  return {
    webhookConfigurations: run.webhookConfigurations,
    namespaces: run.namespaces,
    policies: run.policies,
    kubeVersion,
    discovery,
    memo: new RunMemo(),
  };
}

/** What was linted, for formats that list passing objects too (JUnit). */
function inventoryOf(run: LintRun): Inventory {
  const files = new Map(run.paths.map((path) => [path, [] as InventoryObject[]]));
  const objects = [
    ...run.webhookConfigurations.map((object) => ({ manifest: object.manifest, kind: object.kind as string, name: object.name ?? null })),
    ...run.policies.map((object) => ({ manifest: object.manifest, kind: object.kind as string, name: object.name ?? null })),
    ...run.namespaces.map((object) => ({ manifest: object.manifest, kind: 'Namespace', name: object.name })),
  ].sort((a, b) => a.manifest.documentIndex - b.manifest.documentIndex);
  for (const { manifest, kind, name } of objects) files.get(manifest.file.path)?.push({ documentIndex: manifest.documentIndex, kind, name });
  return { files: [...files].map(([path, list]) => ({ path, objects: list })) };
}

function hasMatchConditions(object: WebhookConfigurationObject): boolean {
  return object.decodable && (object.effective.webhooks ?? []).some((webhook) => (webhook?.matchConditions ?? []).length > 0);
}

/** The rule's option values: what the user set (validated against the declaration), else the defaults. */
function optionValues(meta: RuleMeta, set: Readonly<Record<string, number | string>> | undefined): Readonly<Record<string, number | string>> {
  const values: Record<string, number | string> = {};
  for (const [name, declared] of Object.entries(meta.options ?? {})) values[name] = set?.[name] ?? declared.default;
  return values;
}

function missingMessage(meta: RuleMeta, messageId: string): never {
  throw new InternalError(`rule ${meta.id} has no message "${messageId}"`);
}


/** What a finding needs of the object it is about. */
interface FindingObject {
  readonly manifest: WebhookConfigurationObject['manifest'];
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string | undefined;
}

function toFinding(meta: RuleMeta, violation: Violation, object: FindingObject, webhook: string | null, overrides: ReadonlyMap<string, SeverityOverride>): Finding | undefined {
  const severity = severityFor(meta, violation.severity, overrides);
  if (severity === 'off') return undefined;
  const span = object.manifest.locate(violation.locateAt ?? violation.path, violation.part);
  return {
    ruleId: meta.id,
    severity,
    message: fill(meta.messages[violation.messageId] ?? missingMessage(meta, violation.messageId), violation.data),
    file: object.manifest.file.path,
    line: span.line,
    column: span.column,
    endLine: span.endLine,
    endColumn: span.endColumn,
    documentIndex: object.manifest.documentIndex,
    fieldPath: violation.path.length > 0 ? formatFieldPath(violation.path) : null,
    object: { apiVersion: object.manifest.apiVersion ?? object.apiVersion, kind: object.kind, name: object.name ?? null },
    webhook,
    help: violation.help ?? meta.help,
    ...renderedAt(object.manifest.file, span),
  };
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = [finding.ruleId, finding.file, finding.documentIndex, finding.line, finding.column, finding.fieldPath, finding.message].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
