// Deterministic corpus generators for the benchmark (bench/run.mjs). Every byte written depends
// only on the seed, so two runs on two machines lint the same files.
//
// The manifests are modelled on fixtures/examples and on the shapes seen in the real-world corpus
// (install manifests of cert-manager, istio, kyverno, gatekeeper, knative, ...): webhook
// configurations with service clientConfigs, namespaceSelectors that exclude the system
// namespaces, matchConditions, several webhooks per configuration; admission policies with CEL
// validations, paramKinds and bindings. Nothing is copied from those files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** mulberry32: small, fast, good enough for choosing shapes. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    /** Picks by weight from [[value, weight], ...]. */
    weighted: (pairs) => {
      const total = pairs.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [value, w] of pairs) {
        r -= w;
        if (r < 0) return value;
      }
      return pairs[pairs.length - 1][0];
    },
  };
}

const TEAMS = ['payments', 'search', 'identity', 'checkout', 'catalog', 'billing', 'platform', 'data', 'ml', 'growth', 'risk', 'ops'];
const WORDS = ['api', 'worker', 'gateway', 'indexer', 'sync', 'scheduler', 'cache', 'proxy', 'ingest', 'report', 'auth', 'notify', 'export', 'router', 'audit'];
const IMAGES = ['nginx:1.27', 'ghcr.io/acme/app:v2.14.3', 'registry.k8s.io/pause:3.10', 'docker.io/library/redis:7.4', 'quay.io/prometheus/node-exporter:v1.8.2'];
const VENDORS = ['acme', 'policy', 'sidecar', 'secrets', 'certs', 'mesh', 'quota', 'backup', 'tenant', 'observe'];
const RESOURCES = [
  ['', 'pods'], ['', 'services'], ['', 'configmaps'], ['', 'secrets'], ['', 'namespaces'], ['', 'serviceaccounts'],
  ['apps', 'deployments'], ['apps', 'statefulsets'], ['apps', 'daemonsets'], ['batch', 'jobs'], ['batch', 'cronjobs'],
  ['networking.k8s.io', 'ingresses'], ['networking.k8s.io', 'networkpolicies'], ['policy', 'poddisruptionbudgets'],
];
const OPERATIONS = [['CREATE'], ['CREATE', 'UPDATE'], ['CREATE', 'UPDATE', 'DELETE'], ['UPDATE'], ['*']];
const CEL_VALIDATIONS = [
  ['object.spec.replicas <= params.maxReplicas', 'replicas must not exceed the team limit'],
  ["object.metadata.labels.exists(k, k == 'app.kubernetes.io/name')", 'workloads must carry app.kubernetes.io/name'],
  ["object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest'))", 'images must not use the latest tag'],
  ['object.spec.template.spec.containers.all(c, has(c.resources) && has(c.resources.limits))', 'containers must set resource limits'],
  ["!has(object.spec.hostNetwork) || object.spec.hostNetwork == false", 'host networking is not allowed'],
  ["object.metadata.name.size() <= 63 && object.metadata.name.matches('^[a-z0-9-]+$')", 'names must be DNS labels'],
];
const MATCH_CONDITIONS = [
  ['exclude-leases', "!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')"],
  ['exclude-kubelet-requests', "!('system:nodes' in request.userInfo.groups)"],
  ['only-labelled', "has(object.metadata.labels) && 'team' in object.metadata.labels"],
  ['not-dry-run', '!request.dryRun'],
];

const q = (s) => JSON.stringify(s);
const list = (items) => `[${items.map(q).join(', ')}]`;

function labels(rng, app, team, indent) {
  const pad = ' '.repeat(indent);
  let out = `${pad}app.kubernetes.io/name: ${app}\n${pad}app.kubernetes.io/part-of: ${team}\n`;
  if (rng.chance(0.6)) out += `${pad}app.kubernetes.io/version: "${rng.int(1, 9)}.${rng.int(0, 40)}.${rng.int(0, 9)}"\n`;
  if (rng.chance(0.4)) out += `${pad}team: ${team}\n`;
  return out;
}

function deployment(rng, app, team, ns) {
  const port = rng.pick([8080, 8443, 9090, 3000]);
  let env = '';
  for (let i = 0, n = rng.int(1, 6); i < n; i++) {
    env += rng.chance(0.3)
      ? `            - name: SECRET_${i}\n              valueFrom:\n                secretKeyRef:\n                  name: ${app}-secrets\n                  key: key-${i}\n`
      : `            - name: SETTING_${i}\n              value: ${q(`value-${rng.int(0, 9999)}`)}\n`;
  }
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}
  namespace: ${ns}
  labels:
${labels(rng, app, team, 4)}spec:
  replicas: ${rng.int(1, 12)}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      app.kubernetes.io/name: ${app}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
${labels(rng, app, team, 8)}      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "${port}"
    spec:
      serviceAccountName: ${app}
      securityContext:
        runAsNonRoot: true
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: ${app}
          image: ${rng.pick(IMAGES)}
          imagePullPolicy: IfNotPresent
          args: ["--port=${port}", "--log-level=${rng.pick(['info', 'debug', 'warn'])}"]
          ports:
            - name: http
              containerPort: ${port}
              protocol: TCP
          env:
${env}          resources:
            requests:
              cpu: ${rng.int(1, 20) * 50}m
              memory: ${rng.int(1, 16) * 64}Mi
            limits:
              memory: ${rng.int(8, 32) * 64}Mi
          readinessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
          livenessProbe:
            httpGet:
              path: /livez
              port: http
            initialDelaySeconds: 15
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: ["ALL"]
`;
}

function service(rng, app, team, ns) {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${app}
  namespace: ${ns}
  labels:
${labels(rng, app, team, 4)}spec:
  type: ${rng.pick(['ClusterIP', 'ClusterIP', 'ClusterIP', 'LoadBalancer'])}
  selector:
    app.kubernetes.io/name: ${app}
  ports:
    - name: http
      port: ${rng.pick([80, 443, 8080])}
      targetPort: http
      protocol: TCP
`;
}

function configMap(rng, app, team, ns) {
  let data = '';
  for (let i = 0, n = rng.int(2, 8); i < n; i++) {
    data += rng.chance(0.3)
      ? `  config-${i}.yaml: |\n    server:\n      port: ${rng.int(1000, 9999)}\n      timeout: ${rng.int(1, 60)}s\n    features: [${WORDS.slice(0, rng.int(1, 4)).join(', ')}]\n`
      : `  KEY_${i}: ${q(`${rng.pick(WORDS)}-${rng.int(0, 99999)}`)}\n`;
  }
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${app}-config
  namespace: ${ns}
  labels:
${labels(rng, app, team, 4)}data:
${data}`;
}

function namespace(rng, ns, team) {
  let extra = '';
  if (rng.chance(0.5)) extra += `    pod-security.kubernetes.io/enforce: ${rng.pick(['restricted', 'baseline'])}\n`;
  if (rng.chance(0.3)) extra += `    sidecar.example.com/inject: enabled\n`;
  return `apiVersion: v1
kind: Namespace
metadata:
  name: ${ns}
  labels:
    team: ${team}
${extra}`;
}

function webhookRules(rng, indent) {
  const pad = ' '.repeat(indent);
  let out = '';
  for (let i = 0, n = rng.int(1, 3); i < n; i++) {
    const [group, resource] = rng.pick(RESOURCES);
    out += `${pad}- operations: ${list(rng.pick(OPERATIONS))}\n${pad}  apiGroups: ${list([group])}\n${pad}  apiVersions: ["v1"]\n${pad}  resources: ${list([resource])}\n`;
    if (rng.chance(0.3)) out += `${pad}  scope: ${q(rng.pick(['Namespaced', '*']))}\n`;
  }
  return out;
}

function namespaceSelector(rng, vendorNs) {
  switch (rng.int(0, 3)) {
    case 0:
      return `    namespaceSelector:\n      matchExpressions:\n        - key: kubernetes.io/metadata.name\n          operator: NotIn\n          values: ["kube-system", ${q(vendorNs)}]\n`;
    case 1:
      return `    namespaceSelector:\n      matchLabels:\n        ${vendorNs}.example.com/inject: enabled\n`;
    case 2:
      return `    namespaceSelector:\n      matchExpressions:\n        - key: control-plane\n          operator: DoesNotExist\n`;
    default:
      return ''; // omitted: matches every namespace (a finding, as in many real installs)
  }
}

/** A ValidatingWebhookConfiguration or MutatingWebhookConfiguration with 1-4 webhooks. */
export function webhookConfiguration(rng, id) {
  const mutating = rng.chance(0.4);
  const vendor = rng.pick(VENDORS);
  const vendorNs = `${vendor}-system`;
  const name = `${vendor}-${mutating ? 'mutating' : 'validating'}-${id}`;
  let hooks = '';
  for (let i = 0, n = rng.int(1, 4); i < n; i++) {
    const path = `/${mutating ? 'mutate' : 'validate'}-${rng.pick(WORDS)}-${i}`;
    hooks += `  - name: ${rng.pick(WORDS)}-${i}.${name}.example.com
    admissionReviewVersions: ${rng.chance(0.8) ? '["v1"]' : '["v1", "v1beta1"]'}
    sideEffects: ${rng.pick(['None', 'None', 'NoneOnDryRun'])}
`;
    if (rng.chance(0.75)) hooks += `    failurePolicy: ${rng.pick(['Fail', 'Ignore'])}\n`;
    if (rng.chance(0.6)) hooks += `    timeoutSeconds: ${rng.pick([5, 10, 15, 30])}\n`;
    if (rng.chance(0.3)) hooks += `    matchPolicy: ${rng.pick(['Equivalent', 'Exact'])}\n`;
    if (mutating && rng.chance(0.5)) hooks += `    reinvocationPolicy: ${rng.pick(['Never', 'IfNeeded'])}\n`;
    hooks += `    clientConfig:\n      service:\n        namespace: ${vendorNs}\n        name: ${vendor}-webhook\n        path: ${path}\n`;
    if (rng.chance(0.5)) hooks += `        port: 443\n`;
    if (rng.chance(0.4)) hooks += `      caBundle: ${Buffer.from(`bench-ca-${id}-${i}`).toString('base64')}\n`;
    hooks += `    rules:\n${webhookRules(rng, 6)}`;
    hooks += namespaceSelector(rng, vendorNs);
    if (rng.chance(0.2)) hooks += `    objectSelector:\n      matchLabels:\n        ${vendor}.example.com/managed: "true"\n`;
    if (rng.chance(0.3)) {
      const [cname, expr] = rng.pick(MATCH_CONDITIONS);
      hooks += `    matchConditions:\n      - name: ${cname}\n        expression: ${q(expr)}\n`;
    }
  }
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ${mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration'}
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/name: ${vendor}
    app.kubernetes.io/component: webhook
  annotations:
    cert-manager.io/inject-ca-from: ${vendorNs}/${vendor}-serving-cert
webhooks:
${hooks}`;
}

export function validatingAdmissionPolicy(rng, id) {
  let validations = '';
  for (let i = 0, n = rng.int(1, 3); i < n; i++) {
    const [expr, message] = rng.pick(CEL_VALIDATIONS);
    validations += `    - expression: ${q(expr)}\n      message: ${q(message)}\n`;
  }
  const [group, resource] = rng.pick(RESOURCES.filter(([g]) => g === 'apps' || g === 'batch'));
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: policy-${id}
spec:
  failurePolicy: ${rng.pick(['Fail', 'Ignore'])}
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
      - apiGroups: ${list([group])}
        apiVersions: ["v1"]
        operations: ["CREATE", "UPDATE"]
        resources: ${list([resource])}
  validations:
${validations}`;
}

export function validatingAdmissionPolicyBinding(rng, id) {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: policy-${id}-binding
spec:
  policyName: policy-${id}
  validationActions: ${rng.pick(['["Deny"]', '["Audit", "Deny"]', '["Warn"]', '["Audit"]'])}
  paramRef:
    name: policy-${id}-params
    namespace: default
    parameterNotFoundAction: Deny
  matchResources:
    namespaceSelector:
      matchExpressions:
        - key: environment
          operator: In
          values: ["prod", "staging"]
`;
}

const join3 = (docs) => docs.map((d) => d.trimEnd()).join('\n---\n') + '\n';

/** Document counts per file: mean 2.75, so 2,000 files hold ~5,500 documents. */
const DOCS_PER_FILE = [[1, 25], [2, 20], [3, 20], [4, 25], [5, 10]];

/**
 * A monorepo of application manifests: Deployments, Services, ConfigMaps, some Namespaces;
 * ~2% of files hold webhook configurations (with the Deployment and Service of the webhook server).
 */
export function writeMonorepo(root, { files, seed }) {
  const rng = prng(seed);
  let documents = 0;
  let webhookFiles = 0;
  const webhookEvery = 50; // 2%
  for (let f = 0; f < files; f++) {
    const team = TEAMS[f % TEAMS.length];
    const app = `${rng.pick(WORDS)}-${f}`;
    const ns = `${team}-${rng.pick(['prod', 'staging', 'dev'])}`;
    const dir = join(root, 'teams', team, `svc-${Math.floor(f / 4)}`);
    mkdirSync(dir, { recursive: true });
    const docs = [];
    if (f % webhookEvery === 7) {
      webhookFiles++;
      docs.push(webhookConfiguration(rng, f));
      if (rng.chance(0.5)) docs.push(service(rng, app, team, ns));
      if (rng.chance(0.5)) docs.push(deployment(rng, app, team, ns));
    } else {
      const n = rng.weighted(DOCS_PER_FILE);
      for (let d = 0; d < n; d++) {
        const kind = d === 0 && f % 40 === 3 ? 'ns' : rng.weighted([['deploy', 40], ['svc', 30], ['cm', 30]]);
        if (kind === 'ns') docs.push(namespace(rng, ns, team));
        else if (kind === 'deploy') docs.push(deployment(rng, `${app}-${d}`, team, ns));
        else if (kind === 'svc') docs.push(service(rng, `${app}-${d}`, team, ns));
        else docs.push(configMap(rng, `${app}-${d}`, team, ns));
      }
    }
    documents += docs.length;
    writeFileSync(join(dir, `${app}.yaml`), join3(docs));
  }
  return { files, documents, webhookFiles };
}

/** The same size, every document an admission object (webhook configurations, policies, bindings). */
export function writeAdmissionHeavy(root, { files, seed }) {
  const rng = prng(seed);
  let documents = 0;
  let id = 0;
  for (let f = 0; f < files; f++) {
    const dir = join(root, 'admission', VENDORS[f % VENDORS.length], `set-${Math.floor(f / 8)}`);
    mkdirSync(dir, { recursive: true });
    const docs = [];
    const n = rng.weighted(DOCS_PER_FILE);
    while (docs.length < n) {
      id++;
      const kind = rng.weighted([['webhook', 60], ['policy', 40]]);
      if (kind === 'webhook' || docs.length === n - 1) docs.push(webhookConfiguration(rng, id));
      else docs.push(validatingAdmissionPolicy(rng, id), validatingAdmissionPolicyBinding(rng, id));
    }
    documents += docs.length;
    writeFileSync(join(dir, `admission-${f}.yaml`), join3(docs));
  }
  return { files, documents };
}

/** Cold start: one small file with one webhook configuration. */
export function writeSmall(root, { seed }) {
  mkdirSync(root, { recursive: true });
  const file = join(root, 'webhook.yaml');
  writeFileSync(file, webhookConfiguration(prng(seed), 1));
  return { files: 1, documents: 1, file };
}

/** A pod spec at one of three levels: passes restricted, passes baseline only, or privileged. */
function podSpec(rng, app, indent, level) {
  const pad = ' '.repeat(indent);
  const port = rng.pick([8080, 8443, 9090]);
  let spec = '';
  if (level === 'restricted') spec += `${pad}securityContext:\n${pad}  runAsNonRoot: true\n${pad}  seccompProfile:\n${pad}    type: RuntimeDefault\n`;
  if (level === 'privileged') spec += `${pad}hostNetwork: ${rng.chance(0.5)}\n${pad}hostPID: ${rng.chance(0.3)}\n`;
  spec += `${pad}serviceAccountName: ${app}\n${pad}containers:\n`;
  for (let c = 0, n = rng.int(1, 3); c < n; c++) {
    spec += `${pad}  - name: ${c === 0 ? app : `sidecar-${c}`}\n${pad}    image: ${rng.pick(IMAGES)}\n${pad}    ports:\n${pad}      - containerPort: ${port + c}\n`;
    spec += `${pad}    resources:\n${pad}      requests:\n${pad}        cpu: ${rng.int(1, 20) * 50}m\n${pad}        memory: ${rng.int(1, 16) * 64}Mi\n`;
    if (level === 'restricted') spec += `${pad}    securityContext:\n${pad}      allowPrivilegeEscalation: false\n${pad}      readOnlyRootFilesystem: true\n${pad}      capabilities:\n${pad}        drop: ["ALL"]\n`;
    else if (level === 'privileged') spec += `${pad}    securityContext:\n${pad}      privileged: true\n${pad}      capabilities:\n${pad}        add: ["SYS_ADMIN", "NET_ADMIN"]\n`;
  }
  if (level === 'privileged' && rng.chance(0.5)) spec += `${pad}volumes:\n${pad}  - name: host\n${pad}    hostPath:\n${pad}      path: /var/run\n`;
  return spec;
}

const WORKLOAD_KINDS = [['Deployment', 40], ['StatefulSet', 10], ['DaemonSet', 8], ['Job', 10], ['CronJob', 12], ['Pod', 20]];

/** One workload of a weighted kind, its pod spec at `level`. */
function workload(rng, app, team, ns, level) {
  const kind = rng.weighted(WORKLOAD_KINDS);
  const meta = `metadata:\n  name: ${app}\n  namespace: ${ns}\n  labels:\n${labels(rng, app, team, 4)}`;
  if (kind === 'Pod') return `apiVersion: v1\nkind: Pod\n${meta}spec:\n${podSpec(rng, app, 2, level)}`;
  const template = (indent) => `${' '.repeat(indent)}template:\n${' '.repeat(indent)}  metadata:\n${' '.repeat(indent)}    labels:\n${labels(rng, app, team, indent + 6)}${' '.repeat(indent)}  spec:\n${podSpec(rng, app, indent + 4, level)}`;
  if (kind === 'Job') return `apiVersion: batch/v1\nkind: Job\n${meta}spec:\n  backoffLimit: 3\n${template(2)}`;
  if (kind === 'CronJob') return `apiVersion: batch/v1\nkind: CronJob\n${meta}spec:\n  schedule: "${rng.int(0, 59)} ${rng.int(0, 23)} * * *"\n  jobTemplate:\n    spec:\n${template(6)}`;
  const selector = `  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${app}\n`;
  const extra = kind === 'StatefulSet' ? `  serviceName: ${app}\n` : kind === 'Deployment' ? `  replicas: ${rng.int(1, 6)}\n` : '';
  return `apiVersion: apps/v1\nkind: ${kind}\n${meta}spec:\n${extra}${selector}${template(2)}`;
}

/**
 * Workloads in namespaces with Pod Security labels: 36 Namespaces (enforce restricted, baseline
 * or no label; some warn and audit, pinned or latest versions), then files of Deployments,
 * StatefulSets, DaemonSets, Jobs, CronJobs and Pods (most pass restricted, some only baseline, a
 * few are privileged) with Services and ConfigMaps between them.
 */
export function writePodSecurity(root, { files, seed }) {
  const rng = prng(seed);
  let documents = 0;
  const namespaces = [];
  for (const team of TEAMS) for (const env of ['prod', 'staging', 'dev']) namespaces.push({ name: `${team}-${env}`, team });
  mkdirSync(join(root, 'namespaces'), { recursive: true });
  for (const { name, team } of namespaces) {
    const level = rng.weighted([['restricted', 45], ['baseline', 35], [null, 20]]);
    let labelLines = `    team: ${team}\n`;
    if (level) labelLines += `    pod-security.kubernetes.io/enforce: ${level}\n`;
    if (level && rng.chance(0.6)) labelLines += `    pod-security.kubernetes.io/enforce-version: ${rng.pick(['latest', 'v1.30', 'v1.33', 'v1.35'])}\n`;
    if (rng.chance(0.5)) labelLines += `    pod-security.kubernetes.io/warn: restricted\n`;
    if (rng.chance(0.3)) labelLines += `    pod-security.kubernetes.io/audit: restricted\n`;
    writeFileSync(join(root, 'namespaces', `${name}.yaml`), `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n  labels:\n${labelLines}`);
    documents++;
  }
  for (let f = namespaces.length; f < files; f++) {
    const { name: ns, team } = rng.pick(namespaces);
    const app = `${rng.pick(WORDS)}-${f}`;
    const dir = join(root, 'teams', team, `svc-${Math.floor(f / 4)}`);
    mkdirSync(dir, { recursive: true });
    const docs = [];
    for (let d = 0, n = rng.weighted(DOCS_PER_FILE); d < n; d++) {
      const kind = d === 0 ? 'workload' : rng.weighted([['workload', 50], ['svc', 25], ['cm', 25]]);
      const level = rng.weighted([['restricted', 70], ['baseline', 22], ['privileged', 8]]);
      if (kind === 'workload') docs.push(workload(rng, `${app}-${d}`, team, ns, level));
      else if (kind === 'svc') docs.push(service(rng, `${app}-${d}`, team, ns));
      else docs.push(configMap(rng, `${app}-${d}`, team, ns));
    }
    documents += docs.length;
    writeFileSync(join(dir, `${app}.yaml`), join3(docs));
  }
  return { files, documents, namespaces: namespaces.length };
}

// ---------------------------------------------------------------------------------------------
// The GitOps repository (issue 23): block-style YAML as `kustomize build` and `helm template`
// print it, written by a small emitter so that every file is well-formed.

/** A literal block scalar (`|`): `text` ends with a line break. */
class BlockScalar {
  constructor(text) {
    this.text = text;
  }
}
/** A flow collection written on one line (`{a: b, c: [d]}`). */
class FlowValue {
  constructor(value) {
    this.value = value;
  }
}
/** A double-quoted scalar broken over several lines (each break reads as one space). */
class FoldedQuoted {
  constructor(words) {
    this.words = words;
  }
}

const YAML11_WORDS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;
/** Strings written plain: those YAML reads back as the same string; everything else is quoted. */
function plainSafe(s) {
  return /^(?:--?)?[A-Za-z_/][\w/.:=@%+,-]*(?: [\w/.=@%+,-]+)*$/.test(s) && !YAML11_WORDS.test(s) && !/:(?: |$)/.test(s) && (!/^[-+]?[0-9]/.test(s.replace(/^--?/, '')) || /^[0-9]+(?:m|Mi|Gi|s)$/.test(s));
}

function scalarText(value) {
  if (typeof value === 'string') return plainSafe(value) ? value : JSON.stringify(value);
  return String(value);
}

function flowText(value) {
  if (Array.isArray(value)) return `[${value.map(flowText).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${scalarText(k)}: ${flowText(v)}`).join(', ')}}`;
  return scalarText(value);
}

/**
 * The text after `key:` or `- ` for a value that fits on that line, or undefined for a block
 * collection. `indent` is the column of the key or dash.
 */
function inlineText(value, indent) {
  if (value instanceof BlockScalar) {
    const pad = ' '.repeat(indent + 2);
    return ` |\n${value.text.replace(/\n$/, '').split('\n').map((line) => (line === '' ? '' : pad + line)).join('\n')}`;
  }
  if (value instanceof FlowValue) return ` ${flowText(value.value)}`;
  if (value instanceof FoldedQuoted) return ` "${value.words.join(`\n${' '.repeat(indent + 2)}`)}"`;
  if (Array.isArray(value)) return value.length === 0 ? ' []' : undefined;
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0 ? ' {}' : undefined;
  return ` ${scalarText(value)}`;
}

/** A block mapping at `indent`; `compact`: sequences at their key's indentation (kustomize). */
function emitMapping(object, indent, compact, first = true) {
  let out = '';
  let firstLine = first;
  for (const [key, value] of Object.entries(object)) {
    const pad = firstLine ? '' : ' '.repeat(indent);
    firstLine = false;
    const inline = inlineText(value, indent);
    if (inline !== undefined) {
      out += `${pad}${scalarText(key)}:${inline}\n`;
    } else if (Array.isArray(value)) {
      out += `${pad}${scalarText(key)}:\n${emitSequence(value, compact ? indent : indent + 2, compact)}`;
    } else {
      out += `${pad}${scalarText(key)}:\n${' '.repeat(indent + 2)}${emitMapping(value, indent + 2, compact)}`;
    }
  }
  return out;
}

function emitSequence(items, indent, compact) {
  let out = '';
  for (const item of items) {
    const pad = ' '.repeat(indent);
    const inline = inlineText(item, indent);
    if (inline !== undefined) out += `${pad}-${inline}\n`;
    else if (Array.isArray(item)) out += `${pad}-\n${emitSequence(item, indent + 2, compact)}`;
    else out += `${pad}- ${emitMapping(item, indent + 2, compact)}`;
  }
  return out;
}

/** Documents per application file: with the Namespaces, ~5,500 in 2,000 files. */
const GITOPS_DOCS_PER_FILE = [[1, 22], [2, 20], [3, 20], [4, 26], [5, 12]];
const SHELL = ['set -eu', 'echo "starting $(date)"', 'until nc -z ${DB_HOST} 5432; do sleep 2; done', 'exec /app/migrate --dir=/migrations up', 'cp -r /defaults/. /work/', 'chmod 0640 /work/*.conf'];
const ENVS = ['prod', 'staging', 'dev', 'qa', 'perf'];

/** A restricted (or, in a baseline namespace, sometimes baseline-only) pod spec that passes its namespace's level. */
function gitopsPodSpec(rng, app, level, port) {
  const restricted = level === 'restricted' || rng.chance(0.5);
  const containerSecurity = restricted
    ? { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'], ...(rng.chance(0.2) ? { add: ['NET_BIND_SERVICE'] } : {}) } }
    : { readOnlyRootFilesystem: rng.chance(0.5), ...(rng.chance(0.5) ? { capabilities: { add: [rng.pick(['NET_BIND_SERVICE', 'CHOWN', 'KILL'])] } } : {}) };
  const env = [];
  for (let i = 0, n = rng.int(6, 24); i < n; i++) {
    const r = rng.next();
    if (r < 0.25) env.push({ name: `SECRET_${i}`, valueFrom: { secretKeyRef: { name: `${app}-secrets`, key: `key-${i}` } } });
    else if (r < 0.35) env.push({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    else if (r < 0.45) env.push({ name: `JAVA_OPTS_${i}`, value: new FoldedQuoted(['-Xms256m -Xmx512m', '-XX:+UseG1GC -Dfile.encoding=UTF-8']) });
    else env.push({ name: `SETTING_${i}`, value: rng.chance(0.5) ? `value-${rng.int(0, 9999)}` : String(rng.int(0, 9999)) });
  }
  const args = [`--port=${port}`, `--metrics-bind-address=:${port + 1}`, `--log-level=${rng.pick(['info', 'debug', 'warn'])}`];
  if (rng.chance(0.5)) args.push('--leader-elect', `--config=/etc/${app}/config.yaml`);
  const container = {
    name: app,
    image: `${rng.pick(IMAGES)}`,
    imagePullPolicy: 'IfNotPresent',
    ...(rng.chance(0.3) ? { command: ['/app/server'] } : {}),
    args,
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }, { name: 'metrics', containerPort: port + 1, protocol: 'TCP' }],
    env,
    resources: { requests: { cpu: `${rng.int(1, 20) * 50}m`, memory: `${rng.int(1, 16) * 64}Mi` }, limits: { memory: `${rng.int(8, 32) * 64}Mi` } },
    readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 10 },
    livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 15, timeoutSeconds: 5 },
    ...(rng.chance(0.5) ? { startupProbe: { httpGet: { path: '/healthz', port: 'http' }, failureThreshold: 30, periodSeconds: 5 } } : {}),
    ...(rng.chance(0.3) ? { lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 10'] } } } } : {}),
    securityContext: containerSecurity,
    volumeMounts: [{ name: 'config', mountPath: `/etc/${app}`, readOnly: true }, { name: 'tmp', mountPath: '/tmp' }],
  };
  const spec = {
    serviceAccountName: app,
    ...(restricted ? { securityContext: { runAsNonRoot: true, runAsUser: 65532, fsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } } } : rng.chance(0.5) ? { securityContext: { fsGroup: 2000 } } : {}),
  };
  if (rng.chance(0.3)) {
    spec.initContainers = [{
      name: 'init',
      image: 'docker.io/library/busybox:1.36',
      command: ['/bin/sh', '-c'],
      args: [new BlockScalar(SHELL.slice(0, rng.int(2, SHELL.length)).join('\n') + '\n')],
      securityContext: containerSecurity,
    }];
  }
  spec.containers = [container];
  if (rng.chance(0.3)) spec.containers.push({ name: 'proxy', image: 'ghcr.io/acme/proxy:v1.4.0', args: ['--upstream=http://127.0.0.1:' + port, '--listen=:8443'], ports: [{ containerPort: 8443 }], securityContext: containerSecurity });
  if (rng.chance(0.4)) spec.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { 'app.kubernetes.io/name': app } } }];
  if (rng.chance(0.3)) spec.nodeSelector = new FlowValue({ 'kubernetes.io/os': 'linux' });
  if (rng.chance(0.2)) spec.tolerations = new FlowValue([{ key: 'dedicated', operator: 'Equal', value: 'apps', effect: 'NoSchedule' }]);
  if (rng.chance(0.3)) {
    spec.affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/name': app } } } }] } };
  }
  spec.volumes = [{ name: 'config', configMap: { name: `${app}-config` } }, { name: 'tmp', emptyDir: {} }];
  if (rng.chance(0.3)) spec.volumes.push({ name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600, audience: 'vault' } }] } });
  return spec;
}

function gitopsLabels(rng, app, team) {
  const out = { 'app.kubernetes.io/name': app, 'app.kubernetes.io/instance': app, 'app.kubernetes.io/part-of': team, 'app.kubernetes.io/managed-by': rng.pick(['Helm', 'kustomize']) };
  if (rng.chance(0.5)) out['helm.sh/chart'] = `${team}-${rng.int(0, 3)}.${rng.int(0, 20)}.${rng.int(0, 9)}`;
  return out;
}

function gitopsWorkload(rng, app, team, ns, level) {
  const kind = rng.weighted([['Deployment', 60], ['StatefulSet', 12], ['DaemonSet', 5], ['Job', 6], ['CronJob', 12], ['Pod', 5]]);
  const port = rng.pick([8080, 8443, 9090, 3000]);
  const metadata = { name: app, namespace: ns, labels: gitopsLabels(rng, app, team) };
  if (rng.chance(0.4)) metadata.annotations = { 'argocd.argoproj.io/sync-wave': String(rng.int(-2, 5)), description: new FoldedQuoted([`The ${app} service of the ${team} team,`, 'deployed by the GitOps controller.']) };
  const podSpec = gitopsPodSpec(rng, app, level, port);
  const template = { metadata: { labels: { 'app.kubernetes.io/name': app, 'app.kubernetes.io/instance': app }, annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port + 1) } }, spec: podSpec };
  const selector = { matchLabels: { 'app.kubernetes.io/name': app, 'app.kubernetes.io/instance': app } };
  let spec;
  if (kind === 'Pod') return { apiVersion: 'v1', kind, metadata, spec: podSpec };
  if (kind === 'Job') spec = { backoffLimit: 3, ttlSecondsAfterFinished: 600, template: { ...template, spec: { ...podSpec, restartPolicy: 'Never' } } };
  else if (kind === 'CronJob') spec = { schedule: `${rng.int(0, 59)} ${rng.int(0, 23)} * * *`, concurrencyPolicy: 'Forbid', jobTemplate: { spec: { template: { ...template, spec: { ...podSpec, restartPolicy: 'OnFailure' } } } } };
  else if (kind === 'StatefulSet') spec = { serviceName: app, replicas: rng.int(1, 5), selector, template, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: `${rng.int(1, 100)}Gi` } } } }] };
  else if (kind === 'DaemonSet') spec = { selector, updateStrategy: { type: 'RollingUpdate' }, template };
  else spec = { replicas: rng.int(1, 12), revisionHistoryLimit: 5, selector, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } }, template };
  return { apiVersion: kind === 'Deployment' || kind === 'StatefulSet' || kind === 'DaemonSet' ? 'apps/v1' : 'batch/v1', kind, metadata, spec };
}

function gitopsConfigMap(rng, app, team, ns) {
  const data = {};
  for (let i = 0, n = rng.int(1, 5); i < n; i++) {
    if (rng.chance(0.5)) {
      let text = `server:\n  port: ${rng.int(1000, 9999)}\n  timeout: ${rng.int(1, 60)}s\n  tls:\n    enabled: ${rng.chance(0.5)}\nfeatures:\n`;
      for (let j = 0, m = rng.int(6, 24); j < m; j++) text += `  - name: ${rng.pick(WORDS)}-${j}\n    enabled: ${rng.chance(0.5)}\n    rollout: ${rng.int(0, 100)}\n`;
      text += `logging:\n  level: info\n  format: json\n`;
      data[`config-${i}.yaml`] = new BlockScalar(text);
    } else data[`KEY_${i}`] = rng.chance(0.5) ? `${rng.pick(WORDS)}-${rng.int(0, 99999)}` : String(rng.int(0, 99999));
  }
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${app}-config`, namespace: ns, labels: gitopsLabels(rng, app, team) }, data };
}

function gitopsService(rng, app, team, ns) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: app, namespace: ns, labels: gitopsLabels(rng, app, team) },
    spec: { type: 'ClusterIP', selector: { 'app.kubernetes.io/name': app, 'app.kubernetes.io/instance': app }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }, { name: 'metrics', port: 9090, targetPort: 'metrics' }] },
  };
}

function gitopsOther(rng, app, team, ns) {
  const kind = rng.weighted([['ServiceAccount', 40], ['PodDisruptionBudget', 20], ['HorizontalPodAutoscaler', 20], ['Ingress', 20]]);
  const metadata = { name: app, namespace: ns, labels: gitopsLabels(rng, app, team) };
  if (kind === 'ServiceAccount') return { apiVersion: 'v1', kind, metadata, automountServiceAccountToken: false };
  if (kind === 'PodDisruptionBudget') return { apiVersion: 'policy/v1', kind, metadata, spec: { minAvailable: 1, selector: { matchLabels: { 'app.kubernetes.io/name': app } } } };
  if (kind === 'HorizontalPodAutoscaler') {
    return { apiVersion: 'autoscaling/v2', kind, metadata, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: app }, minReplicas: 2, maxReplicas: rng.int(3, 20), metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] } };
  }
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind,
    metadata: { ...metadata, annotations: { 'nginx.ingress.kubernetes.io/configuration-snippet': new BlockScalar('more_set_headers "X-Frame-Options: DENY";\nmore_set_headers "X-Content-Type-Options: nosniff";\n') } },
    spec: { ingressClassName: 'nginx', tls: [{ hosts: [`${app}.example.com`], secretName: `${app}-tls` }], rules: [{ host: `${app}.example.com`, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: app, port: { name: 'http' } } } }] } }] },
  };
}

/**
 * A GitOps repository rendered by `kustomize build` and `helm template` (issue 23): 2,000 files,
 * ~5,500 documents, ~16 MB. 286 Namespaces, each labelled `enforce: restricted` or `baseline`
 * (`labels: false`: the same repository with those labels left out, every other byte the same);
 * every workload passes its namespace's level. Half the Namespaces are in their applications'
 * files (before them), half in `platform/namespaces/` (read after them). Block style: sequences at
 * their key's indentation (kustomize) or indented (helm), `- --port=8080` args, `|` block scalars
 * in ConfigMaps, scripts and annotations, multi-line double-quoted scalars, flow collections.
 */
export function writeGitops(root, { files, seed, labels = true }) {
  const rng = prng(seed);
  let documents = 0;
  let workloads = 0;
  let bytes = 0;
  const namespaces = [];
  const seen = new Set();
  while (namespaces.length < 286) {
    const team = rng.pick(TEAMS);
    const name = `${team}-${rng.pick(WORDS)}-${rng.pick(ENVS)}`;
    if (seen.has(name)) continue;
    seen.add(name);
    namespaces.push({ name, team, level: rng.weighted([['restricted', 60], ['baseline', 40]]), inApps: rng.chance(0.5), written: false, pinned: rng.chance(0.4) });
  }
  const namespaceDoc = (ns) => {
    const nsLabels = { 'kubernetes.io/metadata.name': ns.name, team: ns.team };
    if (labels) {
      nsLabels['pod-security.kubernetes.io/enforce'] = ns.level;
      if (ns.pinned) nsLabels['pod-security.kubernetes.io/enforce-version'] = 'latest';
    }
    return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.name, labels: nsLabels } };
  };
  const write = (path, docs, helm) => {
    mkdirSync(join(path, '..'), { recursive: true });
    const text = docs.map((doc) => (helm ? `# Source: ${doc.kind.toLowerCase()}.yaml\n` : '') + emitMapping(doc, 0, !helm)).join('---\n');
    writeFileSync(path, helm ? `---\n${text}` : text);
    documents += docs.length;
    bytes += Buffer.byteLength(text);
  };
  const appFiles = files - namespaces.filter((ns) => !ns.inApps).length;
  for (let f = 0; f < appFiles; f++) {
    // Every Namespace has an application file; then they are picked at random.
    const ns = f < namespaces.length ? namespaces[f] : rng.pick(namespaces);
    const app = `${rng.pick(WORDS)}-${f}`;
    const helm = rng.chance(0.5);
    const docs = [];
    if (ns.inApps && !ns.written) {
      docs.push(namespaceDoc(ns));
      ns.written = true;
    }
    for (let d = 0, n = rng.weighted(GITOPS_DOCS_PER_FILE); d < n; d++) {
      const kind = d === 0 ? 'workload' : rng.weighted([['workload', 25], ['cm', 30], ['svc', 25], ['other', 20]]);
      if (kind === 'workload') {
        docs.push(gitopsWorkload(rng, `${app}-${d}`, ns.team, ns.name, ns.level));
        workloads++;
      } else if (kind === 'cm') docs.push(gitopsConfigMap(rng, `${app}-${d}`, ns.team, ns.name));
      else if (kind === 'svc') docs.push(gitopsService(rng, `${app}-${d}`, ns.team, ns.name));
      else docs.push(gitopsOther(rng, `${app}-${d}`, ns.team, ns.name));
    }
    write(join(root, 'apps', ns.team, ns.name, `${app}.yaml`), docs, helm);
  }
  for (const ns of namespaces) if (!ns.inApps) write(join(root, 'platform', 'namespaces', `${ns.name}.yaml`), [namespaceDoc(ns)], false);
  return { files, documents, workloads, namespaces: namespaces.length, bytes };
}
