import { isAtLeast } from '../src/kube/version.js';
import type { NamespaceObject } from '../src/model/objects.js';
import { defineObjectRule, type RuleRun, type RuleMeta, type Violation } from '../src/rule.js';
import { closest } from '../src/text/closest.js';
import { formatFieldError, invalid } from '../src/validate/field-error.js';
import { isRecord } from '../src/json.js';
import { joinWords } from '../src/text/list.js';
import { namePatternMatcher } from '../src/text/glob.js';
import { kustomizeNamesOf } from '../src/match/kustomize-names.js';
import { streamOf } from '../src/match/namespaces.js';
import { patchesBuilding } from '../src/match/patched.js';

type MessageId = 'invalid' | 'notString' | 'unknownKey' | 'annotation' | 'noEnforce' | 'noEnforceVersion' | 'privileged' | 'systemEnforced';

/** k8s.io/pod-security-admission api/constants.go: the label keys and levels. */
export const PSA_PREFIX = 'pod-security.kubernetes.io/';
const MODES = ['enforce', 'audit', 'warn'] as const;
type Mode = (typeof MODES)[number];
const SUFFIXES: readonly string[] = [...MODES, ...MODES.map((mode) => `${mode}-version`)];
export const PSA_LEVELS = ['privileged', 'baseline', 'restricted'] as const;
/** api/helpers.go ParseVersion. */
const VERSION = /^v1\.(0|[1-9][0-9]*)$/;
const KUBE_SYSTEM = 'kube-system';

/** What PolicyToEvaluate uses for a pod when the label's value does not parse (facts §8). */
const FALLBACK: Record<string, string> = {
  enforce: 'pods here are checked against restricted (an unparsable enforce level fails closed)',
  audit: 'audit falls back to privileged (it fails open)',
  warn: 'warn falls back to privileged (it fails open)',
  version: 'that mode uses the latest version',
};

const meta = {
  id: 'pod-security-labels',
  title: 'Pod Security Admission labels on a Namespace are invalid, incomplete or privileged',
  severity: 'error',
  appliesTo: ['Namespace'],
  messages: {
    invalid: 'Namespace "{{namespace}}" is invalid: {{error}}',
    notString: 'label "{{key}}": json: cannot unmarshal {{type}} into Go struct field ObjectMeta.metadata.labels of type string',
    unknownKey: 'label "{{key}}" is not a Pod Security Admission label{{suggestion}}',
    annotation: '{{keys}} {{have}} no effect: Pod Security Admission reads labels, not annotations',
    noEnforce: 'Namespace "{{namespace}}" sets Pod Security {{modes}} but not enforce: pods that violate {{levels}} are only {{reported}}',
    noEnforceVersion: 'Namespace "{{namespace}}" enforces Pod Security level {{level}} without pod-security.kubernetes.io/enforce-version',
    privileged: 'Namespace "{{namespace}}" enforces the privileged Pod Security level',
    systemEnforced: 'Namespace "kube-system" enforces Pod Security level {{level}}: the system\'s privileged pods there (kube-proxy, network plugins) are rejected',
  },
  help: 'Use the levels privileged, baseline or restricted and the versions latest or v1.<minor> under the labels pod-security.kubernetes.io/{enforce,audit,warn}{,-version}.',
  options: {
    privilegedNamespaces: {
      type: 'string',
      default: '',
      namePatterns: true,
      description:
        'Comma-separated names of namespaces (`*` matches any characters) that may enforce privileged, for example node agents that need host access; kube-system always may',
    },
  },
} satisfies RuleMeta;



function mayBePrivileged(namespace: string, run: RuleRun<typeof meta.options>): boolean {
  if (namespace === KUBE_SYSTEM) return true;
  return namePatternMatcher(run.options.privilegedNamespaces)(namespace);
}

/**
 * Whether the cluster gets the Namespace as kube-system: so named where no kustomize build of the
 * run holds its file, else named so by one of those builds (a build's `namespace` renames the
 * Namespace objects it builds: attack s44b 3, a scaffold's `system` built with `namespace: kube-system`).
 */
function becomesKubeSystem(namespace: NamespaceObject, run: RuleRun<typeof meta.options>): boolean {
  const stream = streamOf(namespace.manifest.file);
  const builds = kustomizeNamesOf(run).topBuildsOf(stream);
  if (builds === undefined || builds.length === 0) return namespace.name === KUBE_SYSTEM;
  // A patch of the build may delete it or change its labels first (kustomize patches before it
  // renames): its labels in the cluster are not these (kustomize-patched says so; s44c 4).
  if (patchesBuilding({ kind: 'Namespace', name: namespace.name, file: namespace.manifest.file.path, written: namespace.written }, run, stream).length > 0) return false;
  return builds.some((build) => (build.namespace ?? namespace.name) === KUBE_SYSTEM);
}

function isLevel(value: string): boolean {
  return (PSA_LEVELS as readonly string[]).includes(value);
}

function isVersion(value: string): boolean {
  return value === 'latest' || VERSION.test(value);
}

function listed(items: readonly string[]): string {
  return joinWords(items);
}

export const rule = defineObjectRule({
  meta,
  create(run) {
    return {
      namespace(namespace: NamespaceObject): Violation<MessageId>[] {
        // The PodSecurity admission plugin is on by default from 1.23 (beta; GA in 1.25).
        if (!isAtLeast(run.kubeVersion, 1, 23)) return [];
        const metadata = isRecord(namespace.written) && isRecord(namespace.written.metadata) ? namespace.written.metadata : {};
        const written = isRecord(metadata.labels) ? metadata.labels : {};
        const violations: Violation<MessageId>[] = [];
        /** The PSA labels with string values, by suffix (enforce, audit-version, …), valid or not. */
        const values = new Map<string, string>();
        const valid = new Set<string>();
        /** Every PSA label written, whatever its value's type. */
        const present = new Set<string>();

        for (const [key, value] of Object.entries(written)) {
          if (!key.startsWith(PSA_PREFIX)) continue;
          const suffix = key.slice(PSA_PREFIX.length);
          const path = ['metadata', 'labels', key];
          if (!SUFFIXES.includes(suffix)) {
            const guess = closest(suffix, SUFFIXES);
            violations.push({
              messageId: 'unknownKey',
              data: { key, suggestion: guess ? ` (did you mean "${PSA_PREFIX}${guess}"?)` : '' },
              path,
              part: 'key',
              severity: 'warning',
              help: `Pod Security Admission reads only the enforce, audit and warn labels and their -version labels, and ignores this one: it sets no policy. Rename the label to one of ${SUFFIXES.map((s) => PSA_PREFIX + s).join(', ')}, or remove it.`,
            });
            continue;
          }
          present.add(suffix);
          if (typeof value === 'number' || typeof value === 'boolean') {
            violations.push({
              messageId: 'notString',
              data: { key, type: typeof value === 'number' ? 'number' : 'bool', value: String(value) },
              path,
              part: 'value',
              severity: 'error',
              help: `YAML reads the unquoted value as the ${typeof value === 'number' ? 'number' : 'bool'} ${String(value)}, and label values must be strings, so the Namespace cannot be decoded. Quote the value: ${key}: "${String(value)}"${suffix.endsWith('-version') && typeof value === 'number' ? ` (a version is written v1.<minor>, e.g. "v1.${run.kubeVersion.minor}")` : ''}.`,
            });
            continue;
          }
          // A null value: what the API server makes of it is not certain, so say nothing.
          if (typeof value !== 'string') continue;
          values.set(suffix, value);
          const version = suffix.endsWith('-version');
          const ok = version ? isVersion(value) : isLevel(value);
          if (ok) {
            valid.add(suffix);
            continue;
          }
          const detail = version ? 'must be "latest" or "v1.x"' : `must be one of ${PSA_LEVELS.join(', ')}`;
          violations.push({
            messageId: 'invalid',
            data: {
              namespace: namespace.name,
              error: formatFieldError(invalid(path, value, detail)),
              fallback: version ? FALLBACK.version! : FALLBACK[suffix]!,
            },
            path,
            severity: 'error',
            help: `The API server (Pod Security Admission) rejects the Namespace on create, and an update that introduces the value; where the label already exists, ${version ? FALLBACK.version! : FALLBACK[suffix]!}. Use the levels privileged, baseline or restricted and the versions latest or v1.<minor>.`,
          });
        }

        if (isRecord(metadata.annotations)) {
          // One cause, one finding: the keys written as annotations of one Namespace.
          const annotated = Object.keys(metadata.annotations).filter(
            (key) => key.startsWith(PSA_PREFIX) && SUFFIXES.includes(key.slice(PSA_PREFIX.length)) && !Object.prototype.hasOwnProperty.call(written, key),
          );
          if (annotated.length > 0) {
            const [first, ...others] = annotated;
            violations.push({
              messageId: 'annotation',
              data: { keys: `${annotated.length === 1 ? 'annotation' : 'annotations'} ${listed(annotated.map((key) => `"${key}"`))}`, have: annotated.length === 1 ? 'has' : 'have' },
              path: ['metadata', 'annotations', first!],
              ...(others.length > 0 ? { alsoAt: others.map((key) => ['metadata', 'annotations', key]) } : {}),
              severity: 'warning',
              help: `Pod Security Admission reads the Namespace's labels, not its annotations. Move ${annotated.length === 1 ? 'it' : 'them'} to metadata.labels.`,
            });
          }
        }

        const enforce = values.get('enforce');
        if (!present.has('enforce')) {
          // audit/warn alone: the namespace is watched, not protected.
          const watching = (['audit', 'warn'] as const).filter((mode: Mode) => valid.has(mode) && values.get(mode) !== 'privileged');
          if (watching.length > 0) {
            const reported = watching.length === 2 ? 'warned about and audited' : watching[0] === 'audit' ? 'recorded in the audit log' : 'warned about';
            violations.push({
              messageId: 'noEnforce',
              data: { namespace: namespace.name, modes: listed(watching), levels: listed([...new Set(watching.map((mode) => values.get(mode)!))]), reported },
              path: ['metadata', 'labels', PSA_PREFIX + watching[0]!],
              severity: 'info',
              help: `None is rejected: enforce is the cluster default, privileged unless the PodSecurity admission configuration sets another. Once the workloads pass, add ${PSA_PREFIX}enforce (and enforce-version) with the level you audit or warn about.`,
            });
          }
        } else if (valid.has('enforce') && enforce === 'privileged') {
          if (!mayBePrivileged(namespace.name, run)) {
            violations.push({
              messageId: 'privileged',
              data: { namespace: namespace.name },
              path: ['metadata', 'labels', `${PSA_PREFIX}enforce`],
              // An explicit privileged label is a written decision (node agents need it): info.
              severity: 'info',
              help: 'Pod Security admits any pod here: host namespaces, hostPath volumes and privileged containers, so unless another admission control restricts them, whoever can create a pod or workload in it can gain access to its node. Keep the namespace to the workloads that need it; list it in --rule-option pod-security-labels.privilegedNamespaces=<name> to record the decision.',
            });
          }
        } else if (valid.has('enforce') && becomesKubeSystem(namespace, run) && !run.podSecurity.config.exemptions.namespaces.includes(KUBE_SYSTEM)) {
          // The cluster's own add-ons run there with host namespaces and privileged containers
          // (kube-proxy, the network plugin's agents, storage node plugins), which baseline and
          // restricted forbid: their next pods (a node that joins, a rollout) are rejected. One
          // cause: the pinned version is beside the point (hold-out 27: a Namespace renamed into kube-system).
          violations.push({
            messageId: 'systemEnforced',
            data: { level: enforce! },
            path: ['metadata', 'labels', `${PSA_PREFIX}enforce`],
            severity: 'warning',
            help: `Pod Security checks kube-system's pods like any other namespace's unless the cluster's PodSecurity configuration exempts it (exemptions.namespaces): the DaemonSets that keep nodes networked, kube-proxy and the network plugin's agents, use host namespaces and privileged containers, so the pods a new node or a rollout needs are rejected while the pods already running stay. Leave kube-system at privileged (remove the label, or write ${PSA_PREFIX}enforce: privileged), or check that the cluster exempts it and pass that configuration with --pod-security-config.`,
          });
        } else if (valid.has('enforce') && !present.has('enforce-version')) {
          violations.push({
            messageId: 'noEnforceVersion',
            data: { namespace: namespace.name, level: enforce! },
            path: ['metadata', 'labels', `${PSA_PREFIX}enforce`],
            severity: 'info',
            help: `The checks follow the cluster's version (latest), so an upgrade that tightens ${enforce!} can start rejecting pods here. Pin the version the workloads are known to pass, e.g. ${PSA_PREFIX}enforce-version: v1.${run.kubeVersion.minor}, and raise it after checking them; or write enforce-version: latest to follow the cluster on purpose.`,
          });
        }
        return violations;
      },
    };
  },
});
