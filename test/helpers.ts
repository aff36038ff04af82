/** Lint YAML text in memory, the way the CLI lints stdin. */
import { rules as allRules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lint, type SeverityOverride } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION, parseKubeVersion } from '../src/kube/version.js';
import type { Rule } from '../src/rule.js';

export interface LintTextOptions {
  /** Only these rules run (default: all). */
  readonly only?: readonly string[];
  readonly kubeVersion?: string;
  readonly trustedNamespaceLabels?: readonly string[];
  readonly severityOverrides?: ReadonlyMap<string, SeverityOverride>;
  readonly ruleOptions?: ReadonlyMap<string, Readonly<Record<string, number | string>>>;
}

export function selectRules(only: readonly string[] | undefined): readonly Rule[] {
  if (only === undefined) return allRules;
  const selected = allRules.filter((rule) => only.includes(rule.meta.id));
  if (selected.length !== only.length) throw new Error(`unknown rule in ${only.join(', ')}`);
  return selected;
}

export async function lintText(text: string, options: LintTextOptions = {}): Promise<Finding[]> {
  const report = await lint({
    paths: ['-'],
    rules: selectRules(options.only),
    kubeVersion: options.kubeVersion ? parseKubeVersion(options.kubeVersion) : DEFAULT_KUBE_VERSION,
    trustedNamespaceLabels: options.trustedNamespaceLabels ?? [],
    severityOverrides: options.severityOverrides ?? new Map(),
    ruleOptions: options.ruleOptions ?? new Map(),
    toolVersion: 'test',
    readStdin: () => new TextEncoder().encode(text),
  });
  return [...report.findings];
}
