/**
 * The first half of the pipeline, read top to bottom in `loadRun`: expand the paths, read each
 * file (regular files only, bounded: src/load/sources.ts), skim it (documents whose text names no
 * kind we read are counted, never parsed: src/parse/prefilter.ts), parse the rest with positions
 * (src/parse/yaml.ts), split rendered streams per template (src/load/helm.ts), and recognise each
 * manifest (src/recognize/: default, decode-check, build the model). `lint`, `defaults`,
 * `simulate` and `report` all start here.
 */
import { Discovery } from '../kube/discovery/discovery.js';
import type { KubeVersion } from '../kube/version.js';
import { splitRendered } from '../load/helm.js';
import { decode, expandPaths, MAX_FILE_BYTES, readBytes, readStdinSync } from '../load/sources.js';
import type { CustomResourceDefinitionObject, NamespaceObject, PolicyObject, WebhookConfigurationObject } from '../model/objects.js';
import { KustomizePatches } from '../parse/kustomization.js';
import { skimBytes, SUPPRESSION_MARK } from '../parse/prefilter.js';
import { parseFile, unreadFile, type Manifest, type ParsedFile } from '../parse/yaml.js';
import { recognize } from '../recognize/recognize.js';
import { RunMemo, type RunScope } from '../run-scope.js';

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
