/**
 * The second half of the pipeline: run the rules over a loaded run (src/engine/load-run.ts),
 * place their violations in the files, drop what the configuration and the suppressions take
 * out, and count. Read top to bottom in `lintRun`:
 *   1. file rules (syntax) per file;
 *   2. each object rule's `create(run)` once, then its checks per object kind;
 *   3. findings about calls dropped on webhooks no request reaches (`meta.aboutCalls`);
 *   4. inline suppressions applied, and reported themselves;
 *   5. duplicates dropped, sorted, counted.
 * Every finding is made by `findingAt`.
 */
import { prepareCel } from '../cel/library.js';
import { InternalError } from '../errors.js';
import { formatFieldPath, type FieldPath } from '../field-path.js';
import { isAtLeast, type KubeVersion } from '../kube/version.js';
import { renderedAt } from '../load/helm.js';
import type { SourceFile } from '../load/sources.js';
import { settingsApply, webhookReachability } from '../match/reachability.js';
import type { WebhookConfigurationObject } from '../model/objects.js';
import type { PodSecuritySettings } from '../model/pod-security.js';
import { isWorkloadKind } from '../model/types.js';
import { isFragment, isV1beta1, webhooksOf } from '../model/webhooks.js';
import type { Span } from '../parse/yaml.js';
import type { ObjectRule, Rule, RuleMeta, RuleRun, Violation } from '../rule.js';
import type { Severity, SeverityOverride } from '../severity.js';
import { compareFindings, type Finding, type InternalErrorReport, type Inventory, type InventoryObject, type Report } from './finding.js';
import { loadRun, runScope, type LintRun, type LoadOptions } from './load-run.js';
import { applySuppressions } from './suppressions.js';
import { uncovered, type Coverage } from './covers.js';
import { unvaried } from './variants.js';
import { dirname, resolve } from 'node:path';
import { realPath } from '../parse/kustomize-patches.js';
import { kustomizeNamesOf } from '../match/kustomize-names.js';
import { runPatchesChanging } from '../match/patched.js';
import { streamOf } from '../match/namespaces.js';
import { DEFAULT_POD_SECURITY_SETTINGS } from '../psa/run-policy.js';

export type { SeverityOverride } from '../severity.js';
export { loadRun, runScope, type LintRun, type LoadOptions } from './load-run.js';

export interface LintOptions {
  readonly paths: readonly string[];
  /** Folders holding a kustomization that the caller's walk of the inputs found (LoadOptions). */
  readonly kustomizationFolders?: readonly string[];
  /** Kustomization files behind links out of the caller's walk (LoadOptions): not read. */
  readonly linkedKustomizations?: readonly string[];
  readonly rules: readonly Rule[];
  readonly kubeVersion: KubeVersion;
  /** true: kubeVersion is the default, not one the user chose (a rule may say the target may be wrong). */
  readonly kubeVersionDefaulted?: boolean;
  readonly trustedNamespaceLabels: readonly string[];
  /** Per rule id: a severity that replaces the rule's, or 'off'. */
  readonly severityOverrides: ReadonlyMap<string, SeverityOverride>;
  /** Per rule id: option values the user set (validated against the rule's options). */
  readonly ruleOptions?: ReadonlyMap<string, Readonly<Record<string, number | string>>>;
  readonly toolVersion: string;
  readonly readStdin?: () => Uint8Array;
  /** false: suppression comments and annotations are ignored (--no-inline-config). */
  readonly inlineConfig?: boolean;
  /** The cluster's PodSecurity configuration and the run's default namespace (`--pod-security-config`, `--namespace`). */
  readonly podSecurity?: PodSecuritySettings;
}

export async function lint(options: LintOptions): Promise<Report> {
  return lintRun(loadRun(options.paths, options.readStdin, loadOptions(options)), options);
}

/**
 * How to load a run for these options: workloads are read (where Pod Security Admission can
 * check them, src/engine/load-run.ts) only when a rule that checks them runs.
 */
export function loadOptions(options: Pick<LintOptions, 'rules' | 'severityOverrides' | 'kubeVersion' | 'podSecurity' | 'kustomizationFolders' | 'linkedKustomizations'>): LoadOptions {
  const readsWorkloads = options.rules.some((rule) => rule.scope === 'object' && options.severityOverrides.get(rule.meta.id) !== 'off' && rule.meta.appliesTo.some(isWorkloadKind));
  const folders = {
    ...(options.kustomizationFolders !== undefined ? { kustomizationFolders: options.kustomizationFolders } : {}),
    ...(options.linkedKustomizations !== undefined ? { linkedKustomizations: options.linkedKustomizations } : {}),
  };
  // The settings reach the rules either way (pod-security-labels reads the exemptions).
  if (!readsWorkloads) return { ...folders, ...(options.podSecurity !== undefined ? { podSecuritySettings: options.podSecurity } : {}) };
  return { ...folders, podSecurity: { settings: options.podSecurity ?? DEFAULT_POD_SECURITY_SETTINGS, kubeVersion: options.kubeVersion } };
}

/** Lints a run that is already loaded (`report` reads its inputs once: stdin cannot be read twice). */
export async function lintRun(run: LintRun, options: Omit<LintOptions, 'paths' | 'readStdin'>): Promise<Report> {
  // CEL is loaded only for runs with expressions to check: webhook matchConditions or policies.
  if (run.policies.length > 0 || run.webhookConfigurations.some(hasMatchConditions)) await prepareCel();
  const findings: Finding[] = [];
  /** The other places of findings that report one cause at several (Violation.alsoAt), for the suppressions. */
  const otherPlaces = new Map<Finding, readonly Span[]>();
  const internalErrors: InternalErrorReport[] = [];
  const severityOf = (meta: RuleMeta, violationSeverity?: Severity): SeverityOverride => options.severityOverrides.get(meta.id) ?? violationSeverity ?? meta.severity;
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
      findings.push(
        findingAt(meta.id, 'error', `internal error in rule ${meta.id}: ${message} (a bug in admission-lint; the other rules ran)`, 'Please report it, with the input that caused it.', {
          file,
          span,
          documentIndex: object?.manifest.documentIndex ?? 0,
          fieldPath: null,
          object: object ? objectRef(object) : null,
          webhook: null,
        }),
      );
      return [];
    }
  };
  /** Per finding of a webhook configuration: its object, rule and places, and what it covers (Violation.covers). */
  const coverage = new Map<Finding, Coverage<FindingObject>>();
  const onObject = (meta: RuleMeta, violation: Violation, object: FindingObject, webhook: string | null): Finding | undefined => {
    const severity = severityOf(meta, violation.severity);
    if (severity === 'off') return undefined;
    const span = object.manifest.locate(violation.locateAt ?? violation.path, violation.part);
    const finding = findingAt(meta.id, severity, messageOf(meta, violation.messageId, violation.data), violation.help ?? meta.help, {
      source: object.manifest.file,
      file: object.manifest.file.path,
      span,
      documentIndex: object.manifest.documentIndex,
      fieldPath: violation.path.length > 0 ? formatFieldPath(violation.path) : null,
      object: objectRef(object),
      webhook,
      ...(violation.fixHint ? { fixHint: violation.fixHint } : {}),
      ...(violation.alsoAt !== undefined && violation.alsoAt.length > 0 ? { alsoAt: violation.alsoAt.map((path) => placeOf(object, path)) } : {}),
    });
    findings.push(finding);
    if (violation.alsoAt !== undefined && violation.alsoAt.length > 0) {
      otherPlaces.set(finding, violation.alsoAt.map((path) => object.manifest.locate(path, violation.part)));
    }
    return finding;
  };
  const enabled = options.rules.filter((rule) => options.severityOverrides.get(rule.meta.id) !== 'off');
  const enabledIds = new Set(enabled.map((rule) => rule.meta.id));
  const scope = runScope(run, options.kubeVersion, options.kubeVersionDefaulted === true);

  // 1. File rules (syntax), per file.
  for (const rule of enabled) {
    if (rule.scope !== 'file') continue;
    for (const file of run.files) {
      for (const violation of guarded(rule.meta, file.source.path, undefined, () => rule.checkFile(file))) {
        const severity = severityOf(rule.meta, violation.severity);
        if (severity === 'off') continue;
        findings.push(
          findingAt(rule.meta.id, severity, messageOf(rule.meta, violation.messageId, violation.data), rule.meta.help, {
            source: file.source,
            file: file.source.path,
            span: violation.span,
            documentIndex: violation.documentIndex,
            fieldPath: null,
            object: null,
            webhook: null,
          }),
        );
      }
    }
  }

  // 2. Each object rule's create runs once per run; its checks then run per object.
  const objectRules = enabled
    .filter((rule): rule is ObjectRule => rule.scope === 'object')
    .map((rule) => {
      const ruleRun: RuleRun = {
        ...scope,
        trustedNamespaceLabels: options.trustedNamespaceLabels,
        isEnabled: (ruleId) => enabledIds.has(ruleId),
        runsAsDesigned: (ruleId) => enabledIds.has(ruleId) && !options.severityOverrides.has(ruleId) && Object.keys(options.ruleOptions?.get(ruleId) ?? {}).length === 0,
        options: optionValues(rule.meta, options.ruleOptions?.get(rule.meta.id)),
      };
      // A create that throws is a bug like a check that throws: reported on the run's first file.
      const checks = guarded(rule.meta, run.paths[0] ?? '-', undefined, () => [rule.create(ruleRun)])[0] ?? {};
      return { meta: rule.meta, checks };
    });
  for (const object of run.webhookConfigurations) {
    // 3. Findings about what a call does are not made on webhooks that no request reaches.
    // A webhook shipped without rules (a controller fills them in) is still called, with rules
    // the file cannot show: findings about its settings apply, findings about its rules cannot be judged.
    let reach: ReadonlyMap<number, { neverCalled: boolean; settingsApply: boolean }> | undefined;
    // A v1beta1 configuration is not served from 1.22 (removed-api-version): none of its webhooks is called.
    const unserved = isV1beta1(object) && isAtLeast(options.kubeVersion, 1, 22);
    const isNeverCalled = (path: FieldPath, meta: RuleMeta): boolean => {
      if (unserved) return true;
      if (path[0] !== 'webhooks' || typeof path[1] !== 'number' || !object.decodable) return false;
      reach ??= new Map(webhooksOf(object).map((entry) => [entry.index, { neverCalled: webhookReachability(entry.webhook, entry.path, entry.label, scope).neverCalled, settingsApply: settingsApply(object, entry, scope) }]));
      const webhook = reach.get(path[1]);
      if (webhook === undefined || !webhook.neverCalled) return false;
      return !(meta.aboutSettings === true && webhook.settingsApply);
    };
    // A patch fragment (src/model/webhooks.ts isFragment) is not what the API server sees: what its
    // calls do depends on settings its base has (its defaults here are made up). api-validation says
    // to lint the build.
    const fragment = object.decodable && isFragment(object);
    for (const { meta, checks } of objectRules) {
      const check = checks.webhookConfiguration;
      if (check === undefined || !meta.appliesTo.includes(object.kind)) continue;
      if (meta.needsDecodableObject !== false && !object.decodable) continue;
      if (meta.aboutCalls === true && fragment) continue;
      for (const violation of guarded(meta, object.manifest.file.path, object, () => check(object))) {
        if (meta.aboutCalls === true && isNeverCalled(violation.path, meta)) continue;
        const finding = onObject(meta, violation, object, webhookNameAt(object, violation.path));
        if (finding !== undefined) coverage.set(finding, { object, ruleId: meta.id, places: [violation.path, ...(violation.alsoAt ?? [])], covers: violation.covers ?? [] });
      }
    }
  }
  for (const object of run.policies) {
    for (const { meta, checks } of objectRules) {
      const check = checks.policy;
      if (check === undefined || !meta.appliesTo.includes(object.kind)) continue;
      if (meta.needsDecodableObject !== false && !object.decodable) continue;
      for (const violation of guarded(meta, object.manifest.file.path, object, () => check(object))) onObject(meta, violation, object, null);
    }
  }
  for (const object of run.workloads) {
    for (const { meta, checks } of objectRules) {
      const check = checks.workload;
      if (check === undefined || !meta.appliesTo.includes(object.kind)) continue;
      for (const violation of guarded(meta, object.manifest.file.path, object, () => check(object))) onObject(meta, violation, object, null);
    }
  }
  for (const namespace of run.namespaces) {
    const object = { manifest: namespace.manifest, apiVersion: 'v1', kind: 'Namespace', name: namespace.name };
    for (const { meta, checks } of objectRules) {
      const check = checks.namespace;
      if (check === undefined || !meta.appliesTo.includes('Namespace')) continue;
      for (const violation of guarded(meta, namespace.manifest.file.path, object, () => check(namespace))) onObject(meta, violation, object, null);
    }
  }

  // 4. Inline suppressions (src/engine/suppressions.ts): drop the findings they cover, then report
  // the suppressions themselves (no reason, unused, unknown rule ids).
  const suppression = applySuppressions({
    files: run.files,
    objects: [
      ...run.webhookConfigurations,
      ...run.policies,
      ...run.workloads,
      ...run.namespaces.map((namespace) => ({ manifest: namespace.manifest, apiVersion: 'v1', kind: 'Namespace', name: namespace.name, written: namespace.written })),
    ],
    findings,
    otherPlaces: (finding) => otherPlaces.get(finding),
    ranRules: enabledIds,
    knownRules: options.rules.map((rule) => rule.meta.id),
    inline: options.inlineConfig !== false,
  });
  // One cause, one finding (Violation.covers), among the findings that are reported: a covering
  // finding suppressed inline covers nothing.
  const overridden = (ruleId: string): boolean => options.severityOverrides.has(ruleId);
  // And across files: a variant of an object a build holds, kept beside it in the tree (src/engine/variants.ts).
  const listedIn = (file: string): string[] => scope.kustomizations.filter((listing) => listing.resources.includes(file)).map((listing) => dirname(realPath(resolve(listing.file))));
  const patched = (object: FindingObject): boolean =>
    runPatchesChanging(scope, { kind: object.kind, name: object.name, file: object.manifest.file.path, apiVersion: object.apiVersion }, streamOf(object.manifest.file)).some((patch) => patch.setsLabelsOrAnnotationsOnly !== true);
  const kept = unvaried(uncovered(suppression.kept, coverage, overridden), coverage, kustomizeNamesOf(scope), listedIn, streamOf, overridden, patched);
  for (const violation of suppression.violations) {
    const meta = enabled.find((rule) => rule.meta.id === violation.ruleId)?.meta;
    if (meta === undefined) continue;
    const severity = severityOf(meta);
    if (severity === 'off') continue;
    kept.push(
      findingAt(meta.id, severity, messageOf(meta, violation.messageId, violation.data), meta.help, {
        source: violation.source,
        file: violation.source.path,
        span: violation.span,
        documentIndex: violation.documentIndex,
        fieldPath: violation.fieldPath,
        object: violation.object,
        webhook: null,
      }),
    );
  }

  // 5. One finding per place and message, in file order.
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
      // Workloads read for Pod Security were counted with the other documents as they were read.
      skipped: Math.max(0, run.skipped - run.workloads.length - run.settledWorkloads),
      errors: unique.filter((f) => f.severity === 'error').length,
      warnings: unique.filter((f) => f.severity === 'warning').length,
      infos: unique.filter((f) => f.severity === 'info').length,
      suppressed: suppression.suppressed.length,
      ...(run.workloads.length + run.settledWorkloads > 0 ? { workloads: run.workloads.length + run.settledWorkloads } : {}),
      ...(run.privateKeysNotRead ? { privateKeysNotRead: true as const } : {}),
    },
  };
}

/** Where a finding is: its file (and the stream it was rendered from), span, document, field, object, webhook. */
interface Place {
  /** The file read, for rendered positions (src/load/helm.ts); absent for internal errors. */
  readonly source?: SourceFile;
  readonly file: string;
  readonly span: Span;
  readonly documentIndex: number;
  readonly fieldPath: string | null;
  readonly object: Finding['object'];
  readonly webhook: string | null;
  readonly fixHint?: Finding['fixHint'];
  readonly alsoAt?: Finding['alsoAt'];
}

/** The one way a finding is made (the JSON contract's field order). */
function findingAt(ruleId: string, severity: Severity, message: string, help: string | null, place: Place): Finding {
  const { span } = place;
  return {
    ruleId,
    severity,
    message,
    file: place.file,
    line: span.line,
    column: span.column,
    endLine: span.endLine,
    endColumn: span.endColumn,
    documentIndex: place.documentIndex,
    fieldPath: place.fieldPath,
    object: place.object,
    webhook: place.webhook,
    help,
    ...(place.source === undefined ? {} : renderedAt(place.source, span)),
    ...(place.fixHint ? { fixHint: place.fixHint } : {}),
    ...(place.alsoAt ? { alsoAt: place.alsoAt } : {}),
  };
}

/** What a finding needs of the object it is about. */
interface FindingObject {
  readonly manifest: WebhookConfigurationObject['manifest'];
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string | undefined;
}

function objectRef(object: FindingObject): NonNullable<Finding['object']> {
  return { apiVersion: object.manifest.apiVersion ?? object.apiVersion, kind: object.kind, name: object.name ?? null };
}

/** The rule's message template for the id, filled with the violation's data. */
function messageOf(meta: RuleMeta, messageId: string, data: Readonly<Record<string, string | number>> | undefined): string {
  const template = meta.messages[messageId];
  if (template === undefined) throw new InternalError(`rule ${meta.id} has no message "${messageId}"`);
  return template.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = data?.[key];
    if (value === undefined) throw new InternalError(`message placeholder {{${key}}} has no value`);
    return String(value);
  });
}

/**
 * One of the other places a finding stands for, as a baseline records it (Finding.alsoAt): its
 * field path, and the webhook's name where it is in one, as a finding's own fingerprint has both
 * (another webhook at the same index is another place).
 */
function placeOf(object: FindingObject, path: FieldPath): string {
  const webhooks = (object as Partial<WebhookConfigurationObject>).effective?.webhooks;
  const name = path[0] === 'webhooks' && typeof path[1] === 'number' && Array.isArray(webhooks) ? webhooks[path[1]]?.name : undefined;
  return typeof name === 'string' ? `${formatFieldPath(path)} (webhook "${name}")` : formatFieldPath(path);
}

function webhookNameAt(object: WebhookConfigurationObject, path: FieldPath): string | null {
  if (path[0] !== 'webhooks' || typeof path[1] !== 'number') return null;
  const name = object.effective.webhooks?.[path[1]]?.name;
  return typeof name === 'string' ? name : null;
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

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    // The file read too: a `# Source:` comment in one file must not make its findings another's.
    const key = [finding.ruleId, finding.rendered?.file ?? '', finding.file, finding.documentIndex, finding.line, finding.column, finding.fieldPath, finding.message].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
