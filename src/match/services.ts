/**
 * The Service a webhook's `clientConfig.service` names, as far as the run can tell, and whether
 * the API server can resolve the webhook's port on it.
 *
 * The run reads Services only from the inputs that also hold a webhook configuration
 * (src/engine/load-run.ts), so a Service that is not in the run may well exist: nothing here
 * concludes from absence. A Service is the webhook's only when its namespace is written and is
 * the reference's (a Service without one lands wherever it is applied: never assumed).
 *
 * How kube-apiserver resolves the reference (k8s.io/apiserver pkg/util/proxy/proxy.go, used by
 * the webhook client through the aggregator's service resolvers): `ResolveCluster` (the default)
 * refuses a headless Service (`clusterIP: None`), sends ExternalName Services' calls to
 * `externalName:port` without looking at their ports, and for ClusterIP, NodePort and
 * LoadBalancer Services looks the port up among `spec.ports[].port` (`findServicePort`, never
 * `targetPort`), failing with "no service port N found"; `ResolveEndpoints` (with
 * `--enable-aggregator-routing`) looks the port up first for every type, then accepts ClusterIP
 * (headless too), NodePort and LoadBalancer. `default/kubernetes` on 443 is the API server
 * itself (the loopback resolver), never looked up.
 */
import type { ServiceObject, WebhookConfigurationObject } from '../model/objects.js';
import type { SourceFile } from '../load/sources.js';
import { isPlaceholder } from '../text/placeholder.js';
import type { Webhook } from '../model/types.js';
import { runPatchesChanging } from './patched.js';
import { streamOf } from './namespaces.js';
import { memoKey, type RunScope } from '../run-scope.js';
import { unreadableMayHoldNaming } from './unreadable.js';

export type ServiceScope = Pick<RunScope, 'services' | 'unreadable' | 'kustomizePatches' | 'kustomizations' | 'memo'>;

/** What missingFromBundle reads besides the Services: the Namespaces, to see which ones a bundle defines. */
export type BundleScope = ServiceScope & Pick<RunScope, 'namespaces' | 'servicesOutsideBundles'>;

/** The run's Services by `namespace/name` (those without a namespace under `/name`), built once per run. */
const BY_NAME = memoKey<ReadonlyMap<string, readonly ServiceObject[]>>('Services by namespace and name');

function byName(scope: ServiceScope): ReadonlyMap<string, readonly ServiceObject[]> {
  return scope.memo.get(BY_NAME, () => {
    const built = new Map<string, ServiceObject[]>();
    for (const service of scope.services) {
      const key = `${service.namespace ?? ''}/${service.name}`;
      const list = built.get(key);
      if (list === undefined) built.set(key, [service]);
      else list.push(service);
    }
    return built;
  });
}

/** A webhook's service reference, with its port (defaulted to 443 where it is omitted). */
export interface WebhookServiceReference {
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
}

export function serviceReference(webhook: Readonly<Webhook>): WebhookServiceReference | undefined {
  const service = webhook.clientConfig?.service;
  if (service === undefined || service === null || typeof service !== 'object') return undefined;
  const { namespace, name, port } = service;
  if (typeof namespace !== 'string' || namespace === '' || typeof name !== 'string' || name === '') return undefined;
  return { namespace, name, port: typeof port === 'number' ? port : 443 };
}

/**
 * The Services of the run that are the one `namespace/name` names: every copy of that name
 * whose namespace is written as `namespace` (a run may hold several renderings). Undefined when
 * the run cannot tell: none is there; one of that name has no namespace (it may be applied
 * there instead); a kustomize patch in the run may change one; or a document the run could not
 * read may be one.
 */
export function servicesNamed(scope: ServiceScope, namespace: string, name: string): readonly ServiceObject[] | undefined {
  const index = byName(scope);
  const found = index.get(`${namespace}/${name}`);
  if (found === undefined || index.has(`/${name}`)) return undefined;
  if (found.some((service) => runPatchesChanging(scope, { kind: 'Service', name, file: service.manifest.file.path }, streamOf(service.manifest.file)).length > 0)) return undefined;
  if (unreadableMayHoldNaming(scope, 'Service', name)) return undefined;
  return found;
}

/** The Services of the run that a webhook's `clientConfig.service` names (see servicesNamed). */
export function webhookServices(scope: ServiceScope, webhook: Readonly<Webhook>): { readonly reference: WebhookServiceReference; readonly services: readonly ServiceObject[] } | undefined {
  const reference = serviceReference(webhook);
  if (reference === undefined) return undefined;
  const services = servicesNamed(scope, reference.namespace, reference.name);
  return services === undefined ? undefined : { reference, services };
}

/** The types whose calls go to a port of `spec.ports` (a headless ClusterIP one too). */
const PORTED_TYPES = new Set(['ClusterIP', 'NodePort', 'LoadBalancer']);

/**
 * Whether the API server cannot find `port` among the Service's ports: true for a ClusterIP
 * (headless too), NodePort or LoadBalancer Service whose every port is known and none is `port`.
 * False when it is there; undefined when the Service cannot tell (an ExternalName Service, whose
 * port is not looked up; a type the API server rejects; a port that is not an integer as written).
 */
export function lacksPort(service: ServiceObject, port: number): boolean | undefined {
  if (service.type === undefined || !PORTED_TYPES.has(service.type) || service.ports === undefined) return undefined;
  if (service.ports.some((entry) => entry.port === port)) return false;
  return service.ports.every((entry) => entry.port !== undefined) ? true : undefined;
}

/** `default/kubernetes` on 443: the API server calls itself (the loopback resolver), whatever the Service says. */
export function isApiServerItself(reference: WebhookServiceReference): boolean {
  return reference.namespace === 'default' && reference.name === 'kubernetes' && reference.port === 443;
}

/** The namespaces kube-apiserver creates itself (pkg/controlplane/controller/systemnamespaces), and `default`. */
const SYSTEM_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/** The input a document came from: a rendered stream's templates are one input (one bundle). */
function inputOf(file: SourceFile): string {
  return file.renderedFrom ?? file.path;
}

/**
 * The other Services of the webhook's namespace, when the configuration's own input is a bundle
 * that installs that namespace (its Namespace manifest and Services in it are there) but not the
 * Service the webhook calls, and no input of the run holds a Service of that name there (or one
 * without a namespace, which may land there), every input that may hold a Service having been read for them. Undefined when the run cannot tell: the reference
 * is a placeholder or the API server itself, or a document the run could not read may be it.
 */
export function missingFromBundle(scope: BundleScope, object: WebhookConfigurationObject, webhook: Readonly<Webhook>): { readonly reference: WebhookServiceReference; readonly others: readonly string[] } | undefined {
  // A Service in an input that was not read for Services could be the one.
  if (scope.servicesOutsideBundles) return undefined;
  const reference = serviceReference(webhook);
  if (reference === undefined || isApiServerItself(reference) || isPlaceholder(reference.namespace) || isPlaceholder(reference.name)) return undefined;
  // The namespaces the API server creates exist before any bundle: a Service there may too.
  if (SYSTEM_NAMESPACES.has(reference.namespace)) return undefined;
  const input = inputOf(object.manifest.file);
  if (!scope.namespaces.some((namespace) => namespace.name === reference.namespace && inputOf(namespace.manifest.file) === input)) return undefined;
  const bundled = scope.services.filter((service) => inputOf(service.manifest.file) === input);
  // An unrendered Service name or namespace may render to the one the webhook names.
  if (bundled.some((service) => isPlaceholder(service.name) || (service.namespace !== undefined && isPlaceholder(service.namespace)))) return undefined;
  // Those that expose the webhook's port first: the likelier intended one.
  const others = bundled
    .filter((service) => service.namespace === reference.namespace)
    .sort((a, b) => Number(lacksPort(a, reference.port) === true) - Number(lacksPort(b, reference.port) === true))
    .map((service) => service.name);
  if (others.length === 0) return undefined;
  if (scope.services.some((service) => service.name === reference.name && (service.namespace === reference.namespace || service.namespace === undefined))) return undefined;
  if (unreadableMayHoldNaming(scope, 'Service', reference.name)) return undefined;
  return { reference, others: [...new Set(others)] };
}
