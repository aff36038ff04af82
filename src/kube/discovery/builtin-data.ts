/**
 * The group versions and resources that kube-apiserver serves BY DEFAULT (no --runtime-config,
 * default feature gates), for Kubernetes 1.22 to 1.37, centred on 1.35.
 *
 * How to read it
 * --------------
 * - A group version is served for minor versions `since <= v < removed`; a resource inside it
 *   likewise, when it carries its own `since`/`removed`.
 * - The data is modelled for 1.22 and later. A `since` earlier than 1.22 records when the group
 *   version (or, where the deprecation guide says so, the resource) was first served; resources
 *   added to a group version before 1.22 carry a `since` only where the deprecation guide gives
 *   one. Versions before 1.22 are not otherwise modelled (e.g. the 1.16 removals of apps/v1beta1,
 *   apps/v1beta2 and most of extensions/v1beta1 are absent).
 * - The type has no per-subresource version range, so a subresource that exists only in part of
 *   the range is listed with its 1.35 state and a comment: pods/resize (1.33+, listed),
 *   networkpolicies/status (1.24–1.27 only, not listed).
 * - Alpha versions and beta versions that are off by default (every beta API introduced since
 *   1.24, KEP-3136) are NOT listed; the comments at the end of each group say which ones exist.
 *
 * Sources (in order of authority) and what was taken from each
 * ------------------------------------------------------------
 * 1. kubernetes/kubernetes discovery fixtures (read through the search tool's file index):
 *    - api/discovery/api__v1.json @ 7c554ea1d91eddac32fcd89f37d7ed0347e1f311: every core v1
 *      resource, kind, scope (namespaced) and subresource (a pre-1.33 revision: no pods/resize).
 *    - api/discovery/aggregated_v2.json @ 0b1dcaba0a3f1fdcfe5fbb6516d68ffc8e625d81 (a 1.33-era
 *      revision, ~60 KB): resources, kinds, scopes and subresources of every non-core group
 *      (apiregistration, apps, events, authentication, authorization, autoscaling v1/v2, batch,
 *      certificates, networking v1 incl. ipaddresses/servicecidrs, policy, rbac, storage v1 incl.
 *      csistoragecapacities, admissionregistration v1, apiextensions, scheduling, coordination,
 *      node, discovery, resource.k8s.io, flowcontrol v1). Also an older revision @
 *      0209a4cb57a359609b96779f044bcdff8e8df70d (authentication v1/v1beta1/v1alpha1 selfsubjectreviews).
 *    - api/discovery/apis__admissionregistration.k8s.io__v1.json @ 121460defea7874f50c64bb8de51018a86c6eef3:
 *      mutatingadmissionpolicies / mutatingadmissionpolicybindings in v1 (cluster-scoped, no subresources).
 *    - api/discovery/apis__resource.k8s.io__v1.json @ a6420fa0f8daa32666688164f2b912bfac93499f: resource.k8s.io/v1.
 *    - api/discovery/apis__storagemigration.k8s.io__v1.json @ e7cb4c40de91322e69c6a37abb14746f0a14d5f3:
 *      storageversionmigrations (+status) in v1.
 *    - api/discovery/apis.json @ c25b1ef662616855d1272108b87cdca6db03f551 lists v1alpha1/v1beta1 group
 *      versions too: the fixtures are generated with every API enabled, so they give the SHAPE of
 *      resources, never whether a version is on by default.
 * 2. kubernetes/kubernetes pkg/controlplane/instance.go @ 0138c8288042f10a191f349be6178aa9f64fb294
 *    (a 1.29/1.30 revision): stableAPIGroupVersionsEnabledByDefault (the v1 groups),
 *    legacyBetaEnabledByDefaultResources (flowcontrol v1beta3 flowschemas/prioritylevelconfigurations,
 *    "remove in 1.32") and betaAPIGroupVersionsDisabledByDefault (admissionregistration v1beta1,
 *    authentication v1beta1, storage v1beta1, flowcontrol v1beta1/2/3): default-ness.
 * 3. OpenAPI (api/openapi-spec/swagger.json) CONNECT operations, seen through clients generated
 *    from it (the swagger itself was not read): connectCoreV1{Get,Post,...}NamespacedPod{Attach,Exec,
 *    Portforward,Proxy}, ...NamespacedServiceProxy, ...NodeProxy. No other built-in path has a connect
 *    operation.
 * 4. kubernetes/website content/en/docs/reference/using-api/deprecation-guide.md @
 *    02afb71016ac558fc5836738711e78e77b1ad44a (the 1.22 and 1.25 removals and the "available since"
 *    releases of the replacements) and later copies of the same page (kubernetes.io mirrors) for the
 *    1.26 (flowcontrol v1beta1, autoscaling/v2beta2), 1.27 (storage v1beta1 CSIStorageCapacity),
 *    1.29 (flowcontrol v1beta2) and 1.32 (flowcontrol v1beta3) removals.
 * 5. kubernetes.io pages and KEPs:
 *    - docs/reference/access-authn-authz/mutating-admission-policy (v1.34 beta: feature gate off by
 *      default and --runtime-config=admissionregistration.k8s.io/v1beta1=true needed), and
 *      kubernetes/enhancements keps/sig-api-machinery/3962-mutating-admission-policies/kep.yaml
 *      (alpha 1.32, beta 1.34, stable 1.36) → admissionregistration v1 MAP since 1.36.
 *    - docs/concepts/cluster-administration/coordinated-leader-election (1.36: beta, disabled by
 *      default, needs coordination.k8s.io/v1beta1 runtime-config) → no leasecandidates by default.
 *    - KEP-3325 (SelfSubjectReview: beta 1.27, stable 1.28).
 *    - kubernetes/kubernetes PR #107963 (networkpolicies/status added, 1.24) and PR #115843
 *      (removed, 1.28).
 * 6. Third-party pages (not authoritative, used only where 1–5 were silent; marked UNSURE):
 *    setup guides stating that resource.k8s.io/v1beta2 and certificates.k8s.io/v1beta1 still need
 *    --runtime-config on 1.35/1.36/1.37, and docs stating StorageVersionMigration is GA
 *    (storagemigration.k8s.io/v1) in 1.37.
 */
import type { GroupVersionEntry } from './types.js';

export const BUILTIN_GROUP_VERSIONS: readonly GroupVersionEntry[] = [
  // ───────────────────────────── core ("") ─────────────────────────────
  {
    group: '',
    version: 'v1',
    since: '1.0',
    resources: [
      { name: 'bindings', kind: 'Binding', namespaced: true },
      { name: 'componentstatuses', kind: 'ComponentStatus', namespaced: false },
      { name: 'configmaps', kind: 'ConfigMap', namespaced: true },
      // Deprecated in favour of EndpointSlices since 1.33, still served.
      { name: 'endpoints', kind: 'Endpoints', namespaced: true },
      { name: 'events', kind: 'Event', namespaced: true },
      { name: 'limitranges', kind: 'LimitRange', namespaced: true },
      { name: 'namespaces', kind: 'Namespace', namespaced: false, subresources: ['finalize', 'status'] },
      { name: 'nodes', kind: 'Node', namespaced: false, subresources: ['proxy', 'status'], connect: ['proxy'] },
      { name: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, subresources: ['status'] },
      { name: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, subresources: ['status'] },
      {
        name: 'pods',
        kind: 'Pod',
        namespaced: true,
        // resize: served from 1.33 (InPlacePodVerticalScaling beta, on by default); listed for all
        // versions because the type has no per-subresource range.
        // UNSURE: whether pods/ephemeralcontainers was registered by default in 1.22 (EphemeralContainers
        // was alpha until 1.23); it is listed for all versions.
        subresources: ['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'resize', 'status'],
        connect: ['attach', 'exec', 'portforward', 'proxy'],
        // The log REST storage implements Getter only (pkg/registry/core/pod/rest/log.go).
        readOnly: ['log'],
      },
      { name: 'podtemplates', kind: 'PodTemplate', namespaced: true },
      { name: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true, subresources: ['scale', 'status'] },
      { name: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, subresources: ['status'] },
      { name: 'secrets', kind: 'Secret', namespaced: true },
      { name: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, subresources: ['token'] },
      { name: 'services', kind: 'Service', namespaced: true, subresources: ['proxy', 'status'], connect: ['proxy'] },
    ],
  },

  // ───────────────────────────── admissionregistration.k8s.io ─────────────────────────────
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    since: '1.16',
    resources: [
      { name: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false },
      { name: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false },
      { name: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false, subresources: ['status'], since: '1.30' },
      { name: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false, since: '1.30' },
      { name: 'mutatingadmissionpolicies', kind: 'MutatingAdmissionPolicy', namespaced: false, since: '1.36' },
      { name: 'mutatingadmissionpolicybindings', kind: 'MutatingAdmissionPolicyBinding', namespaced: false, since: '1.36' },
    ],
  },
  // The webhook configurations' v1beta1 (no longer served as of 1.22). The later v1beta1 resources
  // (validatingadmissionpolicies 1.28–, mutatingadmissionpolicies 1.34–) were never on by default:
  // admissionregistrationv1beta1 is in betaAPIGroupVersionsDisabledByDefault, and the 1.34 MAP docs
  // require --runtime-config=admissionregistration.k8s.io/v1beta1=true. v1alpha1 (1.26–) is alpha.
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1beta1',
    since: '1.9',
    removed: '1.22',
    resources: [
      { name: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false },
      { name: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false },
    ],
  },

  // ───────────────────────────── apiextensions.k8s.io ─────────────────────────────
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    since: '1.16',
    resources: [{ name: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, subresources: ['status'] }],
  },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1beta1',
    since: '1.7',
    removed: '1.22',
    resources: [{ name: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, subresources: ['status'] }],
  },

  // ───────────────────────────── apiregistration.k8s.io ─────────────────────────────
  {
    group: 'apiregistration.k8s.io',
    version: 'v1',
    since: '1.10',
    resources: [{ name: 'apiservices', kind: 'APIService', namespaced: false, subresources: ['status'] }],
  },
  {
    group: 'apiregistration.k8s.io',
    version: 'v1beta1',
    since: '1.7',
    removed: '1.22',
    resources: [{ name: 'apiservices', kind: 'APIService', namespaced: false, subresources: ['status'] }],
  },

  // ───────────────────────────── apps ─────────────────────────────
  {
    group: 'apps',
    version: 'v1',
    since: '1.9',
    resources: [
      { name: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true },
      { name: 'daemonsets', kind: 'DaemonSet', namespaced: true, subresources: ['status'] },
      { name: 'deployments', kind: 'Deployment', namespaced: true, subresources: ['scale', 'status'] },
      { name: 'replicasets', kind: 'ReplicaSet', namespaced: true, subresources: ['scale', 'status'] },
      { name: 'statefulsets', kind: 'StatefulSet', namespaced: true, subresources: ['scale', 'status'] },
    ],
  },

  // ───────────────────────────── authentication.k8s.io ─────────────────────────────
  {
    group: 'authentication.k8s.io',
    version: 'v1',
    since: '1.6',
    resources: [
      { name: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, since: '1.28' },
      { name: 'tokenreviews', kind: 'TokenReview', namespaced: false },
    ],
  },
  // tokenreviews v1beta1: no longer served as of 1.22. selfsubjectreviews came back in v1beta1 for
  // 1.27 only (v1alpha1 1.26–); authenticationv1beta1 is in betaAPIGroupVersionsDisabledByDefault in
  // the 1.29-era instance.go.
  // UNSURE: whether authentication.k8s.io/v1beta1 selfsubjectreviews was on by default in 1.27; it is
  // left out (treated as off, per KEP-3136).
  {
    group: 'authentication.k8s.io',
    version: 'v1beta1',
    since: '1.3',
    removed: '1.22',
    resources: [{ name: 'tokenreviews', kind: 'TokenReview', namespaced: false }],
  },

  // ───────────────────────────── authorization.k8s.io ─────────────────────────────
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    since: '1.6',
    resources: [
      { name: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true },
      { name: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false },
      { name: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false },
      { name: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false },
    ],
  },
  {
    group: 'authorization.k8s.io',
    version: 'v1beta1',
    since: '1.3',
    removed: '1.22',
    resources: [
      { name: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true },
      { name: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false },
      { name: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false },
      { name: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false },
    ],
  },

  // ───────────────────────────── autoscaling ─────────────────────────────
  {
    group: 'autoscaling',
    version: 'v1',
    since: '1.2',
    resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, subresources: ['status'] }],
  },
  {
    group: 'autoscaling',
    version: 'v2',
    since: '1.23',
    resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, subresources: ['status'] }],
  },
  {
    group: 'autoscaling',
    version: 'v2beta1',
    since: '1.8',
    removed: '1.25',
    resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, subresources: ['status'] }],
  },
  {
    group: 'autoscaling',
    version: 'v2beta2',
    since: '1.12',
    removed: '1.26',
    resources: [{ name: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, subresources: ['status'] }],
  },

  // ───────────────────────────── batch ─────────────────────────────
  {
    group: 'batch',
    version: 'v1',
    since: '1.2',
    resources: [
      { name: 'cronjobs', kind: 'CronJob', namespaced: true, subresources: ['status'], since: '1.21' },
      { name: 'jobs', kind: 'Job', namespaced: true, subresources: ['status'] },
    ],
  },
  {
    group: 'batch',
    version: 'v1beta1',
    since: '1.8',
    removed: '1.25',
    resources: [{ name: 'cronjobs', kind: 'CronJob', namespaced: true, subresources: ['status'] }],
  },

  // ───────────────────────────── certificates.k8s.io ─────────────────────────────
  // Not default anywhere in 1.22–1.37: clustertrustbundles (v1alpha1 1.27–, v1beta1 1.33–, still a
  // gated beta in 1.37) and podcertificaterequests (v1alpha1 1.34–, v1beta1 1.35–).
  // UNSURE: podcertificaterequests (+status, namespaced) is in certificates.k8s.io/v1 in the master
  // discovery fixture (apis__certificates.k8s.io__v1.json @ 32d5969f5a3daac1b1314f68e72b4ffc0ec0e4e7),
  // but 1.37 setup guides still enable it through certificates.k8s.io/v1beta1 and a feature gate, so
  // it is left out; it belongs here, with its release as `since`, once a release serves it by default.
  {
    group: 'certificates.k8s.io',
    version: 'v1',
    since: '1.19',
    resources: [{ name: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, subresources: ['approval', 'status'] }],
  },
  {
    group: 'certificates.k8s.io',
    version: 'v1beta1',
    since: '1.6',
    removed: '1.22',
    resources: [{ name: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, subresources: ['approval', 'status'] }],
  },

  // ───────────────────────────── coordination.k8s.io ─────────────────────────────
  // leasecandidates (v1alpha1 1.31, v1alpha2 1.32, v1beta1 1.33–) are off by default: the 1.36
  // coordinated-leader-election page still requires --runtime-config=coordination.k8s.io/v1beta1=true.
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    since: '1.14',
    resources: [{ name: 'leases', kind: 'Lease', namespaced: true }],
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1beta1',
    since: '1.12',
    removed: '1.22',
    resources: [{ name: 'leases', kind: 'Lease', namespaced: true }],
  },

  // ───────────────────────────── discovery.k8s.io ─────────────────────────────
  {
    group: 'discovery.k8s.io',
    version: 'v1',
    since: '1.21',
    resources: [{ name: 'endpointslices', kind: 'EndpointSlice', namespaced: true }],
  },
  {
    group: 'discovery.k8s.io',
    version: 'v1beta1',
    since: '1.17',
    removed: '1.25',
    resources: [{ name: 'endpointslices', kind: 'EndpointSlice', namespaced: true }],
  },

  // ───────────────────────────── events.k8s.io ─────────────────────────────
  {
    group: 'events.k8s.io',
    version: 'v1',
    since: '1.19',
    resources: [{ name: 'events', kind: 'Event', namespaced: true }],
  },
  {
    group: 'events.k8s.io',
    version: 'v1beta1',
    since: '1.8',
    removed: '1.25',
    resources: [{ name: 'events', kind: 'Event', namespaced: true }],
  },

  // ───────────────────────────── extensions ─────────────────────────────
  // Only Ingress was left in extensions/v1beta1 from 1.16 on; no longer served as of 1.22.
  {
    group: 'extensions',
    version: 'v1beta1',
    since: '1.2',
    removed: '1.22',
    resources: [{ name: 'ingresses', kind: 'Ingress', namespaced: true, subresources: ['status'] }],
  },

  // ───────────────────────────── flowcontrol.apiserver.k8s.io ─────────────────────────────
  // v1beta3 was on by default through legacyBetaEnabledByDefaultResources (it replaced betas that
  // were on before 1.24). v1alpha1 (–1.20) is alpha.
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    since: '1.29',
    resources: [
      { name: 'flowschemas', kind: 'FlowSchema', namespaced: false, subresources: ['status'] },
      { name: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, subresources: ['status'] },
    ],
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1beta1',
    since: '1.20',
    removed: '1.26',
    resources: [
      { name: 'flowschemas', kind: 'FlowSchema', namespaced: false, subresources: ['status'] },
      { name: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, subresources: ['status'] },
    ],
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1beta2',
    since: '1.23',
    removed: '1.29',
    resources: [
      { name: 'flowschemas', kind: 'FlowSchema', namespaced: false, subresources: ['status'] },
      { name: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, subresources: ['status'] },
    ],
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1beta3',
    since: '1.26',
    removed: '1.32',
    resources: [
      { name: 'flowschemas', kind: 'FlowSchema', namespaced: false, subresources: ['status'] },
      { name: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, subresources: ['status'] },
    ],
  },

  // ───────────────────────────── networking.k8s.io ─────────────────────────────
  // networkpolicies/status existed 1.24–1.27 only (PR #107963, removed by PR #115843); not listed.
  // v1alpha1 (1.27–) and v1beta1 (1.31–) ipaddresses/servicecidrs are off by default.
  {
    group: 'networking.k8s.io',
    version: 'v1',
    since: '1.8',
    resources: [
      { name: 'ingressclasses', kind: 'IngressClass', namespaced: false, since: '1.19' },
      { name: 'ingresses', kind: 'Ingress', namespaced: true, subresources: ['status'], since: '1.19' },
      { name: 'ipaddresses', kind: 'IPAddress', namespaced: false, since: '1.33' },
      { name: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true },
      { name: 'servicecidrs', kind: 'ServiceCIDR', namespaced: false, subresources: ['status'], since: '1.33' },
    ],
  },
  {
    group: 'networking.k8s.io',
    version: 'v1beta1',
    since: '1.14',
    removed: '1.22',
    resources: [
      { name: 'ingressclasses', kind: 'IngressClass', namespaced: false },
      { name: 'ingresses', kind: 'Ingress', namespaced: true, subresources: ['status'] },
    ],
  },

  // ───────────────────────────── node.k8s.io ─────────────────────────────
  {
    group: 'node.k8s.io',
    version: 'v1',
    since: '1.20',
    resources: [{ name: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false }],
  },
  {
    group: 'node.k8s.io',
    version: 'v1beta1',
    since: '1.14',
    removed: '1.25',
    resources: [{ name: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false }],
  },

  // ───────────────────────────── policy ─────────────────────────────
  {
    group: 'policy',
    version: 'v1',
    since: '1.21',
    resources: [{ name: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, subresources: ['status'] }],
  },
  {
    group: 'policy',
    version: 'v1beta1',
    since: '1.5',
    removed: '1.25',
    resources: [
      { name: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, subresources: ['status'] },
      { name: 'podsecuritypolicies', kind: 'PodSecurityPolicy', namespaced: false },
    ],
  },

  // ───────────────────────────── rbac.authorization.k8s.io ─────────────────────────────
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    since: '1.8',
    resources: [
      { name: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
      { name: 'clusterroles', kind: 'ClusterRole', namespaced: false },
      { name: 'rolebindings', kind: 'RoleBinding', namespaced: true },
      { name: 'roles', kind: 'Role', namespaced: true },
    ],
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1beta1',
    since: '1.6',
    removed: '1.22',
    resources: [
      { name: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
      { name: 'clusterroles', kind: 'ClusterRole', namespaced: false },
      { name: 'rolebindings', kind: 'RoleBinding', namespaced: true },
      { name: 'roles', kind: 'Role', namespaced: true },
    ],
  },

  // ───────────────────────────── resource.k8s.io ─────────────────────────────
  // Only v1 (DRA GA, 1.34) is on by default. v1alpha2 (1.26–1.30), v1alpha3 (1.31–), v1beta1 (1.32–)
  // and v1beta2 (1.33–) need --runtime-config; devicetaintrules (v1alpha3, then v1beta2) is not on by
  // default either.
  // UNSURE: that v1beta1/v1beta2 stay off by default in 1.34–1.37 rests on KEP-3136 and on setup guides
  // that enable resource.k8s.io/v1beta2 explicitly on 1.35/1.36; the 1.34+ instance.go was not read.
  {
    group: 'resource.k8s.io',
    version: 'v1',
    since: '1.34',
    resources: [
      { name: 'deviceclasses', kind: 'DeviceClass', namespaced: false },
      { name: 'resourceclaims', kind: 'ResourceClaim', namespaced: true, subresources: ['status'] },
      { name: 'resourceclaimtemplates', kind: 'ResourceClaimTemplate', namespaced: true },
      { name: 'resourceslices', kind: 'ResourceSlice', namespaced: false },
    ],
  },

  // ───────────────────────────── scheduling.k8s.io ─────────────────────────────
  {
    group: 'scheduling.k8s.io',
    version: 'v1',
    since: '1.14',
    resources: [{ name: 'priorityclasses', kind: 'PriorityClass', namespaced: false }],
  },
  {
    group: 'scheduling.k8s.io',
    version: 'v1beta1',
    since: '1.11',
    removed: '1.22',
    resources: [{ name: 'priorityclasses', kind: 'PriorityClass', namespaced: false }],
  },

  // ───────────────────────────── storage.k8s.io ─────────────────────────────
  // volumeattributesclasses v1alpha1 (1.29–) and v1beta1 (1.31–) are off by default.
  {
    group: 'storage.k8s.io',
    version: 'v1',
    since: '1.6',
    resources: [
      { name: 'csidrivers', kind: 'CSIDriver', namespaced: false, since: '1.19' },
      { name: 'csinodes', kind: 'CSINode', namespaced: false, since: '1.17' },
      { name: 'csistoragecapacities', kind: 'CSIStorageCapacity', namespaced: true, since: '1.24' },
      { name: 'storageclasses', kind: 'StorageClass', namespaced: false },
      { name: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false, subresources: ['status'], since: '1.13' },
      { name: 'volumeattributesclasses', kind: 'VolumeAttributesClass', namespaced: false, since: '1.34' },
    ],
  },
  // CSIDriver, CSINode, StorageClass and VolumeAttachment: no longer served as of 1.22;
  // CSIStorageCapacity (since 1.21) kept on by default until 1.27.
  {
    group: 'storage.k8s.io',
    version: 'v1beta1',
    since: '1.4',
    removed: '1.27',
    resources: [
      { name: 'csidrivers', kind: 'CSIDriver', namespaced: false, removed: '1.22' },
      { name: 'csinodes', kind: 'CSINode', namespaced: false, removed: '1.22' },
      { name: 'csistoragecapacities', kind: 'CSIStorageCapacity', namespaced: true, since: '1.21' },
      { name: 'storageclasses', kind: 'StorageClass', namespaced: false, removed: '1.22' },
      { name: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false, subresources: ['status'], removed: '1.22' },
    ],
  },

  // ───────────────────────────── storagemigration.k8s.io ─────────────────────────────
  // v1alpha1 (1.30–) and v1beta1 (1.35–) are off by default.
  // UNSURE: v1 as GA in 1.37 comes from third-party docs; the resource shape is from the master fixture.
  {
    group: 'storagemigration.k8s.io',
    version: 'v1',
    since: '1.37',
    resources: [{ name: 'storageversionmigrations', kind: 'StorageVersionMigration', namespaced: false, subresources: ['status'] }],
  },

  // Not listed at all: internal.apiserver.k8s.io/v1alpha1 (storageversions), scheduling.k8s.io
  // v1alpha1+ (workloads), and the other alpha groups (checkpoint.k8s.io, lifecycle.k8s.io): alpha,
  // never on by default.
];
