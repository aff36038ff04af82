import { dirname } from 'node:path';
import { GENERATED_CONFIGURATION_NAMES, SCAFFOLD_NAMESPACE } from '../src/match/generated-webhooks.js';
import { kustomizeNamesOf } from '../src/match/kustomize-names.js';
import { streamOf } from '../src/match/namespaces.js';
import { patchesBuilding } from '../src/match/patched.js';
import type { WebhookConfigurationObject } from '../src/model/objects.js';
import { isFragment, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type RuleRun, type Violation } from '../src/rule.js';
import { elideMiddle } from '../src/text/list.js';

/**
 * The names the cluster gets for the object, each with whether that build moves it (sets a
 * namespace): as written when no kustomize build of the run holds it, else as each top build
 * gives it; undefined when not known.
 */
function namesInCluster(object: WebhookConfigurationObject, run: RuleRun): readonly { readonly name: string; readonly moved: boolean; readonly root?: string }[] | undefined {
  const stream = streamOf(object.manifest.file);
  // A patch that may rename it (a JSON 6902 operation on /metadata/name, a replacement that may write the name, an unread patch, a kind change).
  const renaming = patchesBuilding({ ...object, file: object.manifest.file.path }, run, stream).some(
    (patch) => patch.unread === true || patch.changesKind === true || patch.renamesTo !== undefined || patch.replacesName === true,
  );
  if (renaming) return undefined;
  const builds = kustomizeNamesOf(run).topBuildsOf(stream);
  if (builds === undefined) return undefined;
  const name = object.name!;
  if (builds.length === 0) return [{ name, moved: false }];
  return builds.map((build) => ({ name: `${build.prefix}${name}${build.suffix}`, moved: build.moves, root: build.root }));
}

/**
 * How the cluster gets the object under controller-gen's name: as written (no build holds it), or
 * through the top build `root` names; undefined when it does not, or that is not known.
 */
function generatedName(object: WebhookConfigurationObject, run: RuleRun): { readonly root?: string } | undefined {
  const generated = GENERATED_CONFIGURATION_NAMES[object.kind];
  // A strategic-merge patch of the configuration names it as its base does, and a scaffold's
  // CA-injection patch has no webhooks at all: neither is a configuration of its own.
  if (generated === undefined || object.name !== generated || isFragment(object) || webhooksOf(object).length === 0) return undefined;
  // A base that still names the scaffold's Service namespace is renamed by the build that moves it:
  // only a build that moves it and keeps the name, or the object as written elsewhere, shows the name the cluster gets.
  const scaffold = webhooksOf(object).some((entry) => entry.webhook.clientConfig?.service?.namespace === SCAFFOLD_NAMESPACE);
  return namesInCluster(object, run)?.find((inCluster) => inCluster.name === generated && (inCluster.moved || !scaffold));
}

/** One cause, one finding: a file's configurations that keep the names are reported together, at the first. */
function check(object: WebhookConfigurationObject, run: RuleRun): Violation<'generic' | 'genericNames'>[] {
  const found = generatedName(object, run);
  if (found === undefined) return [];
  const stream = streamOf(object.manifest.file);
  const together = run.webhookConfigurations.filter((other) => other === object || (streamOf(other.manifest.file) === stream && generatedName(other, run) !== undefined));
  if (together[0] !== object) return [];
  // Said when a build gives the name: another build of the same files may give them a prefix.
  const by = (them: string): string => (found.root === undefined ? '' : ` as ${elideMiddle(dirname(found.root), 40)} builds ${them}`);
  if (together.length === 1) return [{ messageId: 'generic', data: { kind: object.kind, name: object.name!, by: by('it') }, path: ['metadata', 'name'] }];
  const names = [...new Set(together.map((other) => `"${other.name}"`))];
  return [{ messageId: 'genericNames', data: { names: `${names.slice(0, -1).join(', ')}${names.length > 1 ? ' and ' : ''}${names.at(-1)}`, by: by('them') }, path: ['metadata', 'name'] }];
}

export const rule = defineObjectRule({
  meta: {
    id: 'generic-configuration-name',
    title: "The configuration keeps controller-gen's default name, which other projects' configurations share",
    severity: 'warning',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      generic: '{{kind}} "{{name}}" has controller-gen\'s default name{{by}}: other projects use it too',
      genericNames: 'configurations {{names}} have controller-gen\'s default names{{by}}: other projects use them too',
    },
    help: 'Webhook configurations are cluster-scoped: a second project applied under the same name takes this object over. kubectl apply replaces the first project\'s webhooks with its own (they are deleted, and its checks stop without an error), server-side apply merges the two lists or conflicts, and deleting either project deletes the object with both projects\' webhooks; a CA-injection annotation then names one project\'s certificate for the other\'s webhooks. Give the configuration a name of its own: a namePrefix in the kustomization that builds it, or controller-gen\'s webhookconfiguration marker with a name.',
  },
  create(run) {
    return { webhookConfiguration: (object) => check(object, run) };
  },
});
