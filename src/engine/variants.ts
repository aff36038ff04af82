/**
 * One cause, one finding for the variants of an object that a kustomize tree keeps beside the one
 * it builds: a file in the folder of a kustomization of the run that no kustomization of the run
 * lists (a `.local.yaml` for a developer's cluster, a test copy), holding an object of the kind
 * and name of one that a build of that kustomization holds. Only one of the two can be in a
 * cluster under that name, and a finding the variant shares with the built object (the same rule
 * and message, at least as severe there) is the same cause: the variant's is made an info that
 * remembers what it was and the finding that stands for it (Finding.coveredBy), so that a baseline
 * hiding that finding makes it what it was again (restoreUncovered). The variant's other findings
 * stay as they are, and so does a file that kustomizations are not followed for. Cluster-scoped
 * kinds only: a namespaced object of the same name may be another object.
 */
import { dirname, resolve, sep } from 'node:path';
import type { SourceFile } from '../load/sources.js';
import { realPath } from '../parse/kustomize-patches.js';
import { severityAtLeast, type Finding } from './finding.js';
import { coverKey, type Coverage } from './covers.js';

/** The kinds whose name alone is their identity in a cluster (a namespaced object's variant may be another object). */
const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
  'Namespace',
]);

/** What a finding's object must tell: its file, kind and name. */
interface VariantObject {
  readonly manifest: { readonly file: SourceFile };
  readonly kind: string;
  readonly name: string | undefined;
}

/** The top builds of the run that hold a file (src/match/kustomize-names.ts): none, or undefined when not followed. */
export interface FileBuilds {
  topBuildsOf(file: string): readonly { readonly root: string }[] | undefined;
}

export function unvaried<O extends VariantObject>(findings: Finding[], coverage: ReadonlyMap<Finding, Coverage<O>>, builds: FileBuilds, streamOf: (file: SourceFile) => string, overridden: (ruleId: string) => boolean): Finding[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const object = coverage.get(finding)?.object;
    if (object?.name === undefined || !CLUSTER_SCOPED.has(object.kind) || finding.severity === 'info' || overridden(finding.ruleId)) continue;
    const key = [finding.ruleId, finding.message, object.kind, object.name].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  const covered = new Map<Finding, Finding>();
  for (const group of groups.values()) {
    if (new Set(group.map((finding) => finding.file)).size < 2) continue;
    const builtIn = (finding: Finding): readonly string[] | undefined => {
      const file = coverage.get(finding)!.object.manifest.file;
      return file.path === '<stdin>' ? undefined : builds.topBuildsOf(streamOf(file))?.map((build) => dirname(realPath(resolve(build.root))));
    };
    const built = group.flatMap((finding) => {
      const folders = builtIn(finding) ?? [];
      return folders.length > 0 ? [{ finding, folders }] : [];
    });
    for (const finding of group) {
      if (builtIn(finding)?.length !== 0) continue;
      const path = realPath(resolve(streamOf(coverage.get(finding)!.object.manifest.file)));
      const copy = built.find((each) => severityAtLeast(each.finding.severity, finding.severity) && each.folders.some((folder) => path.startsWith(folder + sep)));
      if (copy !== undefined) covered.set(finding, copy.finding);
    }
  }
  if (covered.size === 0) return findings;
  return findings.map((finding) => {
    const by = covered.get(finding);
    return by === undefined ? finding : { ...finding, severity: 'info' as const, coveredBy: { severity: finding.severity, by: [coverKey(by)] } };
  });
}
