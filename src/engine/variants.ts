/**
 * One cause, one finding for the variants of an object that a kustomize tree keeps beside the one
 * it builds: a file in the folder of a kustomization of the run that no kustomization of the run
 * lists (a `.local.yaml` for a developer's cluster, a test copy), holding an object of the kind
 * and name of one that a build of that kustomization holds. Only one of the two can be in a
 * cluster under that name, and a finding the variant shares with the built object (the same rule
 * and message, at least as severe there) is the same cause: the variant's is made an info that
 * remembers what it was and the finding that stands for it (Finding.coveredBy), so that a baseline
 * hiding that finding makes it what it was again (restoreUncovered). The variant's other findings
 * stay as they are, and so does a file that kustomizations are not followed for. The variant must
 * sit beside the built file or in the folder of a kustomization that lists it, and the builds must
 * keep the name as written. Cluster-scoped
 * kinds only: a namespaced object of the same name may be another object.
 */
import { dirname, resolve } from 'node:path';
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
  topBuildsOf(file: string): readonly { readonly root: string; readonly prefix: string; readonly suffix: string; readonly namespace?: string }[] | undefined;
}

/** The folders of the kustomizations of the run that list a file (real paths). */
export type ListedIn = (file: string) => readonly string[];

export function unvaried<O extends VariantObject>(
  findings: Finding[],
  coverage: ReadonlyMap<Finding, Coverage<O>>,
  builds: FileBuilds,
  listedIn: ListedIn,
  streamOf: (file: SourceFile) => string,
  overridden: (ruleId: string) => boolean,
  patched: (object: O) => boolean,
): Finding[] {
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
    const streamPath = (finding: Finding): string => streamOf(coverage.get(finding)!.object.manifest.file);
    const buildsOf = (finding: Finding) => (coverage.get(finding)!.object.manifest.file.path === '<stdin>' ? undefined : builds.topBuildsOf(streamPath(finding)));
    // The twin: every build of it keeps the name as written (a namePrefix makes another object,
    // which the variant's `kubectl apply -f` does not replace: s47c 6; a Namespace moved by
    // `namespace:` is another name too); the variant sits beside its file or in the folder of a
    // kustomization that lists it (not any file of the tree: another project's manifests, s47c 7).
    const built = group.flatMap((finding) => {
      const found = buildsOf(finding);
      const object = coverage.get(finding)!.object;
      if (found === undefined || found.length === 0 || !found.every((build) => build.prefix === '' && build.suffix === '' && (object.kind !== 'Namespace' || build.namespace === undefined))) return [];
      // A patch of the run may rename it, or change what the findings judge (s47d 3a).
      if (patched(object)) return [];
      const file = realPath(resolve(streamPath(finding)));
      return [{ finding, folders: [dirname(file), ...listedIn(file)] }];
    });
    for (const finding of group) {
      if (buildsOf(finding)?.length !== 0) continue;
      const folder = dirname(realPath(resolve(streamPath(finding))));
      const copy = built.find((each) => severityAtLeast(each.finding.severity, finding.severity) && each.folders.includes(folder));
      if (copy !== undefined) covered.set(finding, copy.finding);
    }
  }
  if (covered.size === 0) return findings;
  return findings.map((finding) => {
    const by = covered.get(finding);
    return by === undefined ? finding : { ...finding, severity: 'info' as const, coveredBy: { severity: finding.severity, by: [coverKey(by)] } };
  });
}
