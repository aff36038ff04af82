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
