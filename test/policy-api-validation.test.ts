/**
 * Admission policies and bindings: the decode checks (`schema`), the API server's create-time
 * validation (`api-validation`, pkg/apis/admissionregistration/validation/validation.go) and
 * the served-version check (`removed-api-version`), end to end through the lint pipeline (so
 * the objects are defaulted as the API server defaults them), with the messages kubectl prints.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRun } from '../src/engine/lint.js';
import { formatFieldPath } from '../src/field-path.js';
import { celCompileError } from '../src/cel/compile.js';
import { prepareCel } from '../src/cel/library.js';
import { formatFieldError, type FieldError } from '../src/validate/field-error.js';
import { validateAdmissionPolicyObject } from '../src/validate/policy-api.js';
import { lintText } from './helpers.js';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** The API server's errors for the (defaulted) objects of the text, in its order. */
function validate(text: string): FieldError[] {
  const run = loadRun(['-'], () => new TextEncoder().encode(text));
  return run.policies.flatMap((object) => validateAdmissionPolicyObject(object.kind, object.effective));
}

/** api-validation: the API server's messages in its order; other rules: the findings' messages. */
async function messages(text: string, rule = 'api-validation', kubeVersion?: string): Promise<string[]> {
  if (rule === 'api-validation') {
    // Through the rule too, so the pipeline (decoding, the CEL library) is exercised.
    const findings = await lintText(text, { only: [rule] });
    const errors = validate(text).map(formatFieldError);
    expect([...findings.map((f) => f.message)].sort()).toEqual([...errors].sort());
    return errors;
  }
  const findings = await lintText(text, { only: [rule], ...(kubeVersion ? { kubeVersion } : {}) });
  return findings.map((f) => f.message);
}

async function fieldPaths(text: string): Promise<string[]> {
  return validate(text).map((error) => formatFieldPath(error.path));
}

/** A valid policy whose spec lines (indented under `spec:`) are replaced. */
function vap(spec: string, name = 'demo.example.com'): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ${name}
spec:
${spec}`;
}

const RULES = `  matchConstraints:
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["CREATE", "UPDATE"]
        resources: ["deployments"]
`;

function map(spec: string, apiVersion = 'v1'): string {
  return `apiVersion: admissionregistration.k8s.io/${apiVersion}
kind: MutatingAdmissionPolicy
metadata:
  name: sidecar.example.com
spec:
${spec}`;
}

const MAP_RULES = `  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["CREATE"]
        resources: ["pods"]
  reinvocationPolicy: Never
`;

function binding(spec: string, kind = 'ValidatingAdmissionPolicyBinding'): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}
metadata:
  name: demo-binding
spec:
${spec}`;
}

beforeAll(async () => {
  await prepareCel();
});

describe('ValidatingAdmissionPolicy: accepted policies', () => {
  it.each([
    ['a minimal policy', `${RULES}  validations:\n    - expression: "object.spec.replicas <= 5"\n`],
    ['auditAnnotations alone', `${RULES}  auditAnnotations:\n    - key: replicas\n      valueExpression: "string(object.spec.replicas)"\n`],
    [
      'params, variables, messageExpression, namespaceObject and authorizer',
      `  paramKind:
    apiVersion: rules.example.com/v1
    kind: ReplicaLimit
${RULES}  matchConditions:
    - name: not-system
      expression: "!request.userInfo.username.startsWith('system:') && params != null"
  variables:
    - name: replicas
      expression: "object.spec.?replicas.orValue(1)"
    - name: tooMany
      expression: "variables.replicas > params.maxReplicas"
    - name: team
      expression: "'team' in namespaceObject.metadata.labels ? namespaceObject.metadata.labels['team'] : ''"
  validations:
    - expression: "!variables.tooMany || authorizer.group('apps').resource('deployments').namespace(request.namespace).check('scale').allowed()"
      messageExpression: "'replicas ' + string(variables.replicas) + ' exceed ' + string(params.maxReplicas) + ' for ' + variables.team"
      reason: Forbidden
    - expression: |
        object.spec.template.spec.containers.all(c,
          c.image.startsWith('registry.example.com/') &&
          cel.bind(tag, c.image.split(':'), size(tag) > 1))
      message: "images must come from registry.example.com"
  auditAnnotations:
    - key: high-replicas
      valueExpression: "variables.tooMany ? 'replicas: ' + string(variables.replicas) : null"
`,
    ],
    ['a null valueExpression result', `${RULES}  auditAnnotations:\n    - key: none\n      valueExpression: "null"\n`],
    ['resourceNames, excludeResourceRules, subresources and selectors', `  matchConstraints:
    namespaceSelector:
      matchExpressions:
        - key: kubernetes.io/metadata.name
          operator: NotIn
          values: ["kube-system"]
    objectSelector:
      matchLabels:
        app: web
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["*"]
        resources: ["deployments", "deployments/scale"]
        resourceNames: ["web", "api"]
    excludeResourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["DELETE"]
        resources: ["deployments"]
        scope: Namespaced
    matchPolicy: Exact
  failurePolicy: Ignore
  validations:
    - expression: "true"
`],
  ])('%s', async (_name, spec) => {
    expect(await messages(vap(spec))).toEqual([]);
    expect(await messages(vap(spec), 'schema')).toEqual([]);
  });

  it('generateName alone is accepted without auditAnnotations', async () => {
    const text = vap(`${RULES}  validations:\n    - expression: "true"\n`).replace('  name: demo.example.com', '  generateName: demo-');
    expect(await messages(text)).toEqual([]);
  });
});

describe('ValidatingAdmissionPolicy: rejected fields', () => {
  it('failurePolicy, paramKind, a missing matchConstraints and missing validations', async () => {
    expect(
      await messages(
        vap(`  failurePolicy: Fial
  paramKind:
    apiVersion: example.com/v1/extra
    kind: Replica_Limit
`),
      ),
    ).toEqual([
      'spec.failurePolicy: Unsupported value: "Fial": supported values: "Fail", "Ignore"',
      'spec.paramKind.apiVersion: Invalid value: "example.com/v1/extra": unexpected GroupVersion string: example.com/v1/extra',
      `spec.paramKind.kind: Invalid value: "Replica_Limit": may have mixed case, but should otherwise match: ${DNS1035}`,
      'spec.matchConstraints: Required value',
      // Reported once; the API server repeats it for spec.auditAnnotations.
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    ]);
  });

  it('paramKind group, version and kind parts', async () => {
    const spec = (apiVersion: string, kind: string) => `  paramKind:\n    apiVersion: "${apiVersion}"\n    kind: "${kind}"\n${RULES}  validations:\n    - expression: "true"\n`;
    expect(await messages(vap(spec('Example.com/v1', 'ReplicaLimit')))).toEqual([`spec.paramKind.apiVersion: Invalid value: "Example.com": ${SUBDOMAIN}`]);
    expect(await messages(vap(spec('example.com/', 'ReplicaLimit')))).toEqual(['spec.paramKind.apiVersion: Invalid value: "example.com/": version must be specified']);
    expect(await messages(vap(spec('example.com/V1', 'ReplicaLimit')))).toEqual([`spec.paramKind.apiVersion: Invalid value: "V1": ${DNS1035}`]);
    expect(await messages(vap(spec('v1', 'ConfigMap')))).toEqual([]);
    expect(await fieldPaths(vap(spec('', '')))).toEqual(['spec.paramKind.apiVersion', 'spec.paramKind.kind']);
  });

  it('matchConstraints without resourceRules, and rule checks shared with webhooks', async () => {
    expect(await messages(vap(`  matchConstraints:\n    matchPolicy: Similar\n  validations:\n    - expression: "true"\n`))).toEqual([
      'spec.matchConstraints.matchPolicy: Unsupported value: "Similar": supported values: "Equivalent", "Exact"',
      'spec.matchConstraints.resourceRules: Required value',
    ]);
    expect(
      await messages(
        vap(`  matchConstraints:
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["CREATE", "PATCH"]
        resources: ["deployments/*", "deployments/scale"]
        resourceNames: ["web", "a/b", "web", ".."]
        scope: Everywhere
    excludeResourceRules:
      - operations: ["*"]
  validations:
    - expression: "true"
`),
      ),
    ).toEqual([
      `spec.matchConstraints.resourceRules[0].resourceNames[1]: Invalid value: "a/b": may not contain '/'`,
      'spec.matchConstraints.resourceRules[0].resourceNames[2]: Duplicate value: "web"',
      `spec.matchConstraints.resourceRules[0].resourceNames[3]: Invalid value: "..": may not be '..'`,
      'spec.matchConstraints.resourceRules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      "spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: \"deployments/scale\": if 'deployments/*' is present, must not specify deployments/scale",
      'spec.matchConstraints.resourceRules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
      'spec.matchConstraints.excludeResourceRules[0].apiGroups: Required value',
      'spec.matchConstraints.excludeResourceRules[0].apiVersions: Required value',
      'spec.matchConstraints.excludeResourceRules[0].resources: Required value',
    ]);
  });

  it('label selectors are validated strictly', async () => {
    expect(
      await messages(
        vap(`  matchConstraints:
    namespaceSelector:
      matchExpressions:
        - key: team
          operator: In
    objectSelector:
      matchLabels:
        app: "web app"
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["CREATE"]
        resources: ["deployments"]
  validations:
    - expression: "true"
`),
      ),
    ).toEqual([
      "spec.matchConstraints.namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      expect.stringMatching(/^spec\.matchConstraints\.objectSelector\.matchLabels: Invalid value: "web app": a valid label must be/),
    ]);
  });

  it('validations: expression, message, messageExpression and reason', async () => {
    expect(
      await messages(
        vap(`${RULES}  validations:
    - expression: "  "
    - expression: "true"
      message: "  "
      messageExpression: " "
    - expression: "true"
      message: "line one\\nline two"
      reason: NotFound
`),
      ),
    ).toEqual([
      'spec.validations[0].expression: Required value: expression is not specified',
      'spec.validations[1].messageExpression: Invalid value: " ": must be non-empty if specified',
      'spec.validations[1].message: Invalid value: "  ": must be non-empty if specified',
      'spec.validations[2].message: Invalid value: "line one\\nline two": must not contain line breaks',
      'spec.validations[2].reason: Unsupported value: "NotFound": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
    ]);
  });

  it('CEL: params only with paramKind, no authorizer in messageExpression, results of the wrong type', async () => {
    expect(
      await messages(
        vap(`${RULES}  validations:
    - expression: "object.spec.replicas <= params.max"
      messageExpression: "authorizer.group('apps') + 'x'"
    - expression: "'not a bool'"
      messageExpression: "object.spec.replicas > 3"
  auditAnnotations:
    - key: count
      valueExpression: "  1  "
`),
      ),
    ).toEqual([
      "spec.validations[0].expression: Invalid value: \"object.spec.replicas <= params.max\": compilation failed: ERROR: <input>:1:25: undeclared reference to 'params' (in container '')\n | object.spec.replicas <= params.max\n | ........................^",
      // The type checker goes on after the undeclared variable (its type is an error, which any
      // overload accepts): group() resolves, and `+` has no overload for its result.
      "spec.validations[0].messageExpression: Invalid value: \"authorizer.group('apps') + 'x'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.group('apps') + 'x'\n | ^\nERROR: <input>:1:26: found no matching overload for '_+_' applied to '(kubernetes.authorization.GroupCheck, string)'\n | authorizer.group('apps') + 'x'\n | .........................^",
      'spec.validations[1].expression: Invalid value: "\'not a bool\'": must evaluate to bool but got string',
      'spec.validations[1].messageExpression: Invalid value: "object.spec.replicas > 3": must evaluate to string but got bool',
      // Compiled trimmed, shown as written.
      'spec.auditAnnotations[0].valueExpression: Invalid value: "  1  ": must evaluate to one of [string null_type] but got int',
    ]);
  });

  it('CEL: variables only with spec.variables, only declared names, never in matchConditions', async () => {
    expect(await messages(vap(`${RULES}  validations:\n    - expression: "variables.ok"\n`))).toEqual([
      "spec.validations[0].expression: Invalid value: \"variables.ok\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.ok\n | ^",
    ]);
    expect(
      await messages(
        vap(`${RULES}  matchConditions:
    - name: uses-variables
      expression: "variables.first"
  variables:
    - name: first
      expression: "variables.second + 1"
    - name: second
      expression: "1"
  validations:
    - expression: "variables.first > 0 && has(variables.third)"
`),
      ),
    ).toEqual([
      "spec.matchConditions[0].expression: Invalid value: \"variables.first\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.first\n | ^",
      // A variable sees only the ones before it.
      "spec.variables[0].expression: Invalid value: \"variables.second + 1\": compilation failed: ERROR: <input>:1:10: undefined field 'second'\n | variables.second + 1\n | .........^",
      "spec.validations[0].expression: Invalid value: \"variables.first > 0 && has(variables.third)\": compilation failed: ERROR: <input>:1:27: undefined field 'third'\n | variables.first > 0 && has(variables.third)\n | ..........................^",
    ]);
  });

  it('variables: names', async () => {
    expect(
      await messages(
        vap(`${RULES}  variables:
    - name: " "
      expression: "1"
    - name: "in"
      expression: "2"
    - name: "my-var"
      expression: " "
  validations:
    - expression: "true"
`),
      ),
    ).toEqual([
      'spec.variables[0].name: Required value: name is not specified',
      'spec.variables[1].name: Invalid value: "in": name is not a valid CEL identifier',
      'spec.variables[2].name: Invalid value: "my-var": name is not a valid CEL identifier',
      'spec.variables[2].expression: Required value: expression is not specified',
    ]);
  });

  it('matchConditions: names, duplicates, count', async () => {
    const conditions = Array.from({ length: 65 }, (_, i) => `    - name: c${i}\n      expression: "true"\n`).join('');
    expect(await messages(vap(`${RULES}  matchConditions:\n${conditions}  validations:\n    - expression: "true"\n`))).toEqual([
      'spec.matchConditions: Too many: 65: must have at most 64 items',
    ]);
    expect(
      await messages(
        vap(`${RULES}  matchConditions:
    - name: "-bad"
      expression: "object.x == params.y"
    - name: "-bad"
      expression: " "
  validations:
    - expression: "true"
`),
      ),
    ).toEqual([
      "spec.matchConditions[0].expression: Invalid value: \"object.x == params.y\": compilation failed: ERROR: <input>:1:13: undeclared reference to 'params' (in container '')\n | object.x == params.y\n | ............^",
      `spec.matchConditions[0].name: Invalid value: "-bad": ${NAME_PART}`,
      'spec.matchConditions[1].expression: Required value',
      `spec.matchConditions[1].name: Invalid value: "-bad": ${NAME_PART}`,
      'spec.matchConditions[1].name: Duplicate value: "-bad"',
    ]);
  });

  it('auditAnnotations: keys combined with the policy name, duplicates, length, count', async () => {
    expect(
      await messages(
        vap(`${RULES}  auditAnnotations:
    - key: "a/b"
      valueExpression: "'x'"
    - key: "a/b"
      valueExpression: "${'x'.repeat(5121)}"
    - key: ok
      valueExpression: " "
`),
      ),
    ).toEqual([
      "spec.auditAnnotations[0].key: Invalid value: \"demo.example.com/a/b\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      expect.stringMatching(/^spec\.auditAnnotations\[1\]\.key: Invalid value: "demo\.example\.com\/a\/b": a qualified name/),
      'spec.auditAnnotations[1].valueExpression: Required value: must not exceed 5120 bytes in length',
      'spec.auditAnnotations[1].key: Duplicate value: "a/b"',
      'spec.auditAnnotations[2].valueExpression: Required value: valueExpression is not specified',
    ]);
    const many = Array.from({ length: 21 }, (_, i) => `    - key: k${i}\n      valueExpression: "'v'"\n`).join('');
    const [first] = await messages(vap(`${RULES}  auditAnnotations:\n${many}`));
    expect(first).toMatch(/^spec\.auditAnnotations: Invalid value: \[\{"Key":"k0","ValueExpression":"'v'"\},.*\]: must not have more than 20 auditAnnotations$/);
  });

  it('auditAnnotations need metadata.name', async () => {
    const text = vap(`${RULES}  auditAnnotations:\n    - key: count\n      valueExpression: "'x'"\n`).replace('  name: demo.example.com', '  generateName: demo-');
    expect(await messages(text)).toEqual(['spec.auditAnnotations[0].key: Invalid value: "count": requires metadata.name be non-empty']);
  });

  it('metadata is validated as for webhook configurations', async () => {
    expect(await messages(vap(`${RULES}  validations:\n    - expression: "true"\n`, 'Demo_Policy'))).toEqual([`metadata.name: Invalid value: "Demo_Policy": ${SUBDOMAIN}`]);
  });
});

describe('MutatingAdmissionPolicy', () => {
  it.each([
    [
      'applyConfiguration with Object construction, params and variables',
      `  paramKind:\n    apiVersion: mutations.example.com/v1\n    kind: Sidecar\n${MAP_RULES}  variables:
    - name: image
      expression: "params.image"
  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration:
        expression: >
          Object{
            metadata: Object.metadata{labels: {"injected": "true"}},
            spec: Object.spec{
              initContainers: [
                Object.spec.initContainers{
                  name: "proxy",
                  image: variables.image,
                  ?restartPolicy: optional.of("Always"),
                  args: ["--port", string(params.port)]
                }
              ]
            }
          }
`,
    ],
    [
      'jsonPatch with JSONPatch construction and jsonpatch.escapeKey',
      `${MAP_RULES}  mutations:
    - patchType: JSONPatch
      jsonPatch:
        expression: >-
          (!has(object.metadata.annotations)
           ? [JSONPatch{op: 'add', path: '/metadata/annotations', value: {}}]
           : [])
          + [JSONPatch{
              op: "add",
              path: "/metadata/annotations/" + jsonpatch.escapeKey("example.com/owner"),
              value: "{not a brace} " + request.userInfo.username
            }]
`,
    ],
  ])('accepts %s', async (_name, spec) => {
    expect(await messages(map(spec))).toEqual([]);
    expect(await messages(map(spec), 'schema')).toEqual([]);
  });

  it('rejects DELETE, a missing reinvocationPolicy and mutations, and bad patch types', async () => {
    expect(
      await messages(
        map(`  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["CREATE", "DELETE", "PATCH"]
        resources: ["pods"]
`),
      ),
    ).toEqual([
      'spec.matchConstraints.resourceRules[0].operations[2]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      // Without the indexes, as the API server prints it (PATCH is not reported twice).
      'spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
      'spec.mutations: Required value: mutations must contain at least one item',
      'spec.reinvocationPolicy: Required value',
    ]);
    expect(
      await messages(
        map(`${MAP_RULES}  mutations:
    - patchType: JSONPatch
    - patchType: ApplyConfiguration
      applyConfiguration:
        expression: " "
      jsonPatch:
        expression: "[]"
    - patchType: Merge
    - applyConfiguration:
        expression: "Object{}"
`),
      ),
    ).toEqual([
      'spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch',
      'spec.mutations[1].applyConfiguration.expression: Required value',
      'spec.mutations[1].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration',
      'spec.mutations[2].patchType: Unsupported value: "Merge": supported values: "ApplyConfiguration", "JSONPatch"',
      'spec.mutations[3].patchType: Required value',
    ]);
  });

  it('compiles mutations with variables always declared and params only with paramKind', async () => {
    expect(
      await messages(
        map(`${MAP_RULES}  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration:
        expression: "Object{metadata: Object.metadata{labels: {'a': params.a}}}"
    - patchType: JSONPatch
      jsonPatch:
        expression: "[JSONPatch{op: 'add', path: '/x', value: variables.missing}]"
`),
      ),
    ).toEqual([
      "spec.mutations[0].applyConfiguration.expression: Invalid value: \"Object{metadata: Object.metadata{labels: {'a': params.a}}}\": compilation failed: ERROR: <input>:1:48: undeclared reference to 'params' (in container '')\n | Object{metadata: Object.metadata{labels: {'a': params.a}}}\n | ...............................................^",
      "spec.mutations[1].jsonPatch.expression: Invalid value: \"[JSONPatch{op: 'add', path: '/x', value: variables.missing}]\": compilation failed: ERROR: <input>:1:51: undefined field 'missing'\n | [JSONPatch{op: 'add', path: '/x', value: variables.missing}]\n | ..................................................^",
    ]);
  });

  it('binding operations exclude DELETE too', async () => {
    expect(
      await messages(
        binding(
          `  policyName: sidecar.example.com
  matchResources:
    resourceRules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["DELETE"]
        resources: ["pods"]
`,
          'MutatingAdmissionPolicyBinding',
        ),
      ),
    ).toEqual(['spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"']);
  });
});

describe('bindings', () => {
  it('accepts a binding with a paramRef selector and no matchResources', async () => {
    const text = binding(`  policyName: demo.example.com
  validationActions: [Deny, Audit]
  paramRef:
    selector:
      matchLabels:
        env: prod
    namespace: policies
    parameterNotFoundAction: Allow
`);
    expect(await messages(text)).toEqual([]);
    expect(await messages(text, 'schema')).toEqual([]);
  });

  it('policyName, paramRef and validationActions', async () => {
    expect(
      await messages(
        binding(`  policyName: Demo
  paramRef:
    name: "a/b"
    selector: {}
    parameterNotFoundAction: Ignore
  validationActions: [Deny, Warn, Deny, Block]
`),
      ),
    ).toEqual([
      `spec.policyName: Invalid value: "Demo": ${SUBDOMAIN}`,
      `spec.paramRef.name: Invalid value: "a/b": may not contain '/'`,
      // Reported once; the API server repeats it for spec.paramRef.selector.
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      // In the API server's order, not sorted.
      'spec.paramRef.parameterNotFoundAction: Unsupported value: "Ignore": supported values: "Deny", "Allow"',
      'spec.validationActions[2]: Duplicate value: "Deny"',
      'spec.validationActions[3]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions: Invalid value: ["Deny","Warn","Deny","Block"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
  });

  it('required fields', async () => {
    expect(await messages(binding(`  paramRef:\n    namespace: x\n`))).toEqual([
      'spec.policyName: Required value',
      'spec.paramRef: Required value: one of name or selector must be specified',
      'spec.paramRef.parameterNotFoundAction: Required value',
      'spec.validationActions: Required value: at least one validation action is required',
    ]);
    // v1alpha1 defaults parameterNotFoundAction to Deny.
    const alpha = binding(`  policyName: demo\n  validationActions: [Deny]\n  paramRef:\n    name: limits\n`).replace('admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1alpha1');
    expect(await messages(alpha)).toEqual([]);
  });

  it('reports matchResources at spec.matchResources (the early draft typo matchResouces is gone)', async () => {
    expect(
      await fieldPaths(
        binding(`  policyName: demo
  validationActions: [Deny]
  matchResources:
    matchPolicy: Loose
`),
      ),
    ).toEqual(['spec.matchResources.matchPolicy']);
  });
});

describe('schema', () => {
  it('reports wrong types, unknown fields and fields of the other kind', async () => {
    expect(
      await messages(
        vap(`${RULES}  validations:
    - expression: "true"
      severity: high
  reinvocationPolicy: Never
  variables: {name: x}
`),
        'schema',
      ),
    ).toEqual([
      'unknown field "spec.validations[0].severity": rejected (kubectl validates strictly) or dropped',
      'unknown field "spec.reinvocationPolicy" (only MutatingAdmissionPolicy has reinvocationPolicy): rejected (kubectl validates strictly) or dropped',
      'spec.variables must be a list, but is an object',
    ]);
    expect(await messages(binding(`  policyName: 7\n  validationActions: [Deny]\n  paramRef:\n    name: x\n    parameterNotFoundAction: Deny\n    labels: {}\n`), 'schema')).toEqual([
      'spec.policyName must be a string, but is the number 7: quote the value',
      'unknown field "spec.paramRef.labels": rejected (kubectl validates strictly) or dropped',
    ]);
  });

  it('accepts null everywhere and a status written by kubectl get', async () => {
    const text = `${vap(`${RULES}  paramKind: null\n  validations:\n    - expression: "true"\n      message: null\n`)}status:\n  observedGeneration: 1\n  typeChecking:\n    expressionWarnings: []\n  conditions: []\n`;
    expect(await messages(text, 'schema')).toEqual([]);
    expect(await messages(text)).toEqual([]);
  });

  it('reports an apiVersion that never had the policy kinds, and a type error stops api-validation', async () => {
    const text = vap(`${RULES}  validations:\n    - expression: "true"\n`).replace('admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v2');
    expect(await messages(text, 'schema')).toEqual(['no API serves ValidatingAdmissionPolicy in admissionregistration.k8s.io/v2: use admissionregistration.k8s.io/v1']);
    expect(await messages(text, 'removed-api-version')).toEqual([]);
    expect(await lintText(vap(`${RULES}  validations: "true"\n`), { only: ['api-validation'] })).toEqual([]);
  });
});

describe('removed-api-version', () => {
  const policy = (apiVersion: string) => vap(`${RULES}  validations:\n    - expression: "true"\n`).replace('admissionregistration.k8s.io/v1', `admissionregistration.k8s.io/${apiVersion}`);
  const mutating = (apiVersion: string) => map(`${MAP_RULES}  mutations:\n    - patchType: JSONPatch\n      jsonPatch:\n        expression: "[]"\n`, apiVersion);

  it('accepts the versions served by default', async () => {
    expect(await messages(policy('v1'), 'removed-api-version')).toEqual([]);
    expect(await messages(mutating('v1'), 'removed-api-version', '1.36')).toEqual([]);
  });

  it('flags v1 before it is served, and preview versions', async () => {
    // The message quotes the API server; the help says why and what to do.
    const findings = async (text: string, kubeVersion?: string) =>
      (await lintText(text, { only: ['removed-api-version'], ...(kubeVersion ? { kubeVersion } : {}) })).map((f) => `${f.message} | ${f.help?.replace(/\. Use admissionregistration\.k8s\.io\/v1 where .*$/, '')}`);
    expect(await findings(mutating('v1'))).toEqual([
      'not served by default in Kubernetes 1.35: no matches for kind "MutatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1" | MutatingAdmissionPolicy in admissionregistration.k8s.io/v1: v1 serves it from Kubernetes 1.36; Kubernetes 1.35 has it in admissionregistration.k8s.io/v1beta1, with --runtime-config=admissionregistration.k8s.io/v1beta1=true and the MutatingAdmissionPolicy feature gate on the API server',
    ]);
    // The newest version 1.35 has of the kind, off by default: no better choice (info).
    expect(await findings(mutating('v1beta1'))).toEqual([
      'admissionregistration.k8s.io/v1beta1 is the newest MutatingAdmissionPolicy version in Kubernetes 1.35: served only where the API server enables it | MutatingAdmissionPolicy in admissionregistration.k8s.io/v1beta1: it needs --runtime-config=admissionregistration.k8s.io/v1beta1=true and the MutatingAdmissionPolicy feature gate on the API server; admissionregistration.k8s.io/v1 serves it by default from Kubernetes 1.36',
    ]);
    expect(await findings(policy('v1beta1'))).toEqual([
      'not served by default in Kubernetes 1.35: no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1" | ValidatingAdmissionPolicy in admissionregistration.k8s.io/v1beta1: use admissionregistration.k8s.io/v1, served by default since Kubernetes 1.30',
    ]);
    expect(await findings(policy('v1'), '1.29')).toEqual([
      'not served by default in Kubernetes 1.29: no matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1" | ValidatingAdmissionPolicy in admissionregistration.k8s.io/v1: v1 serves it from Kubernetes 1.30; Kubernetes 1.29 has it in admissionregistration.k8s.io/v1beta1, with --runtime-config=admissionregistration.k8s.io/v1beta1=true and the ValidatingAdmissionPolicy feature gate on the API server',
    ]);
    expect(await findings(mutating('v1beta1'), '1.33')).toEqual([
      expect.stringMatching(/ \| MutatingAdmissionPolicy in admissionregistration\.k8s\.io\/v1beta1: admissionregistration\.k8s\.io\/v1beta1 has MutatingAdmissionPolicy from Kubernetes 1\.34 on$/),
    ]);
    expect(await findings(mutating('v1'), '1.31')).toEqual([
      expect.stringMatching(/ \| MutatingAdmissionPolicy in admissionregistration\.k8s\.io\/v1: Kubernetes 1\.31 has no MutatingAdmissionPolicy \(admissionregistration\.k8s\.io\/v1alpha1 has it from 1\.32, v1beta1 from 1\.34, v1 from 1\.36\)$/),
    ]);
  });
});

describe('CEL type checking in the environment of the target version (issue 16)', () => {
  /** The API server's messages for the policies of the text on a server of 1.<minor>. */
  const at = (minor: number, text: string): string[] => {
    const run = loadRun(['-'], () => new TextEncoder().encode(text));
    return run.policies.flatMap((object) => validateAdmissionPolicyObject(object.kind, object.effective, { major: 1, minor })).map(formatFieldError);
  };

  it('types variables by their expressions: a later expression that misuses one is rejected', () => {
    expect(
      at(
        35,
        vap(`${RULES}  variables:
    - name: count
      expression: "size(object.spec.template.spec.containers)"
    - name: enabled
      expression: "object.spec.paused"
  validations:
    - expression: "variables.count + 'a' == 'b'"
    - expression: "variables.enabled"
    - expression: "variables.count > 1"
      messageExpression: "variables.count"
`),
      ),
    ).toEqual([
      "spec.validations[0].expression: Invalid value: \"variables.count + 'a' == 'b'\": compilation failed: ERROR: <input>:1:17: found no matching overload for '_+_' applied to '(int, string)'\n | variables.count + 'a' == 'b'\n | ................^",
      'spec.validations[1].expression: Invalid value: "variables.enabled": must evaluate to bool but got dyn',
      'spec.validations[2].messageExpression: Invalid value: "variables.count": must evaluate to string but got int',
    ]);
  });

  it('says nothing about expressions that read a variable whose type the checker is not sure of', () => {
    expect(
      at(
        35,
        vap(`${RULES}  variables:
    - name: label
      expression: "object.metadata.name == 'a' ? 'x' : null"
  validations:
    - expression: "variables.label"
`),
      ),
    ).toEqual([]);
  });

  it('checks mutation result types and JSONPatch fields', () => {
    expect(
      at(
        35,
        map(`${MAP_RULES}  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration:
        expression: "'spec'"
    - patchType: JSONPatch
      jsonPatch:
        expression: "[JSONPatch{op: 1, path: '/a'}]"
    - patchType: ApplyConfiguration
      applyConfiguration:
        expression: "Object{spec: Object.spec{containers: [Object.spec.containers{name: 'a', image: string(1)}]}}"
`),
      ),
    ).toEqual([
      'spec.mutations[0].applyConfiguration.expression: Invalid value: "\'spec\'": must evaluate to Object but got string',
      "spec.mutations[1].jsonPatch.expression: Invalid value: \"[JSONPatch{op: 1, path: '/a'}]\": compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n | [JSONPatch{op: 1, path: '/a'}]\n | .............^",
    ]);
  });

  it('follows the target version, also through the api-validation rule', async () => {
    const policy = vap(`${RULES}  validations:
    - expression: "semver(object.metadata.annotations['v']).major() == 1"
`);
    expect(at(35, policy)).toEqual([]);
    expect(at(33, policy)).toEqual([
      expect.stringMatching(/^spec\.validations\[0\]\.expression: Invalid value: .*undeclared reference to 'semver' \(in container ''\)/),
    ]);
    const findings = await lintText(policy, { only: ['api-validation'], kubeVersion: '1.33' });
    expect(findings.map((f) => f.message)).toEqual(at(33, policy));
    expect(await lintText(policy, { only: ['api-validation'], kubeVersion: '1.35' })).toEqual([]);
  });
});

describe('celCompileError (the compile check policies use)', () => {
  const base = new Set(['object', 'oldObject', 'request', 'namespaceObject', 'authorizer']);
  it.each([
    ['comprehensions bind their variables', 'object.spec.containers.exists(c, c.name == "x") && object.items.all(k, v, v > 0)'],
    ['cel.bind, optionals and library namespaces', "cel.bind(x, object.?spec.?replicas.orValue(1), x > 0) && optional.none().hasValue() == false && sets.contains([1], [1])"],
    ['type names as values', 'type(object.spec) == map'],
    ['raw and triple-quoted strings', "r'\\d+'.size() > 0 && '''{'''.size() == 1"],
    ['optional entries and indexes (which cel-js cannot parse)', "size([?object.?a, 1]) > 0 && {?'k': object.?b}.size() >= 0 && object.items[?0].hasValue()"],
    ['comments', 'object.x > 1 // a comment\n && true'],
  ])('%s', (_name, expression) => {
    expect(celCompileError(expression, { variables: base, result: 'bool' })).toBeUndefined();
  });

  it('still checks the identifiers of an expression with optional entries', () => {
    expect(celCompileError('[?params.a]', { variables: base, result: 'any' })).toBe(
      "compilation failed: ERROR: <input>:1:3: undeclared reference to 'params' (in container '')\n | [?params.a]\n | ..^",
    );
  });

  it('does not guess at unparsable construction syntax', () => {
    expect(celCompileError('Object{spec: (}', { variables: base, composedVariables: new Set(), result: 'any', patchTypes: true })).toBeUndefined();
    // Without patch types a construction is a syntax error the parser reports.
    expect(celCompileError('Object{}', { variables: base, result: 'any' })).toMatch(/^compilation failed: ERROR: <input>:1:7: Syntax error/);
  });
});

describe('one cause, one finding: the same compile error in several expressions of a policy', () => {
  it('is reported once, at the first, naming the others; another cause is its own finding (hold-out 31)', async () => {
    const text = vap(`${RULES}  validations:
    - expression: "has(oldSelf) || object.spec.replicas > 0"
    - expression: "object.spec.replicas < 100"
    - expression: "!has(oldSelf) || object.spec == oldSelf.spec"
    - expression: "object.spec.template.spec.containers.toSet().size() > 0"
  variables:
    - name: ok
      expression: "has(oldSelf)"
`);
    // The API server lists each: three has() errors and one undeclared function.
    expect(validate(text).map((error) => formatFieldPath(error.path))).toEqual(['spec.variables[0].expression', 'spec.validations[0].expression', 'spec.validations[2].expression', 'spec.validations[3].expression']);
    const findings = await lintText(text, { only: ['api-validation'] });
    expect(findings.map((finding) => finding.message.split('\n')[0])).toEqual([
      "spec.validations[3].expression: Invalid value: \"object.spec.template.spec.containers.toSet().size() > 0\": compilation failed: ERROR: <input>:1:43: undeclared reference to 'toSet' (in container '')",
      'spec.variables[0].expression: Invalid value: "has(oldSelf)": compilation failed: ERROR: <input>:1:5: invalid argument to has() macro (the same in spec.validations[0].expression and spec.validations[2].expression)',
    ]);
    // (In file order.) The source line and caret cel-go prints under the first stay under it.
    expect(findings[1]!.message.split('\n').slice(1)).toEqual([' | has(oldSelf)', ' | ....^']);
    // It stands at each of them (attack s46b: a suppression or baseline entry of one does not hide the others).
    expect(findings[1]!.alsoAt).toEqual(['spec.validations[0].expression', 'spec.validations[2].expression']);
  });

  it('stays while a suppression covers only some of its places, and says which lines it leaves (attack s46b)', async () => {
    const text = vap(`${RULES}  validations:
    # admission-lint-disable-next-line api-validation -- the controller registers foo()
    - expression: "foo(object.spec.replicas)"
    - expression: "foo(object.spec.paused)"
`);
    const findings = await lintText(text, { only: ['api-validation', 'unused-suppression'] });
    expect(findings.map((finding) => `${finding.ruleId}@${finding.line} ${finding.message.split('\n')[0]}`)).toEqual([
      'unused-suppression@13 admission-lint-disable-next-line for api-validation suppresses nothing alone: its finding also stands on line 15; suppress it there too',
      "api-validation@14 spec.validations[0].expression: Invalid value: \"foo(object.spec.replicas)\": compilation failed: ERROR: <input>:1:4: undeclared reference to 'foo' (in container '') (the same in spec.validations[1].expression)",
    ]);
    const both = text.replace('    - expression: "foo(object.spec.paused)"', '    # admission-lint-disable-next-line api-validation -- the same\n    - expression: "foo(object.spec.paused)"');
    expect(await lintText(both, { only: ['api-validation', 'unused-suppression'] })).toEqual([]);
  });
});
