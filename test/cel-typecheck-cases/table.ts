/**
 * Expressions the API server accepts or rejects, transcribed from Kubernetes' own tests (the file
 * is named per row; k8s.io/apiserver paths are at kubernetes/apiserver v0.35.0) and from issue 16.
 * Messages are the API server's: each issue as "compilation failed: ERROR: <input>:L:C: …" (the
 * first line of cel-go's display), or the compiler's "must evaluate to …".
 */
import type { ExpressionKind } from '../../src/cel/check/index.js';

export interface Row {
  /** Where the expression comes from. */
  readonly source: string;
  readonly kind: ExpressionKind;
  readonly expression: string;
  /** Kubernetes minor version of the server (1.35 when absent). */
  readonly minor?: number;
  readonly params?: boolean;
  /** Composed variables with the types their expressions compile to, by type signature. */
  readonly variables?: Readonly<Record<string, string>>;
  /** For accepted rows: the result type, when the source states it. */
  readonly type?: string;
  /** For rejected rows: the messages, in the API server's order. */
  readonly errors?: readonly string[];
}

const COMPILE_TEST = 'k8s.io/apiserver pkg/admission/plugin/cel/compile_test.go';
const QUANTITY_TEST = 'k8s.io/apiserver pkg/cel/library/quantity_test.go';
const IP_TEST = 'k8s.io/apiserver pkg/cel/library/ip_test.go';
const CIDR_TEST = 'k8s.io/apiserver pkg/cel/library/cidr_test.go';
const FORMAT_TEST = 'k8s.io/apiserver pkg/cel/library/format_test.go';
const SEMVER_TEST = 'k8s.io/apiserver pkg/cel/library/semver_test.go';
const MUTATING_TEST = 'k8s.io/apiserver pkg/admission/plugin/policy/mutating/compilation_test.go';
const ISSUE = 'issue 16';

const cf = (position: string, message: string): string => `compilation failed: ERROR: <input>:${position}: ${message}`;
const undeclared = (position: string, name: string): string => cf(position, `undeclared reference to '${name}' (in container '')`);

export const ACCEPTED: readonly Row[] = [
  // compile_test.go TestCompileValidatingPolicyExpression
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'object.foo < params.x', params: true },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "namespaceObject.metadata.name.startsWith('test')", params: true },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'object.foo == oldObject.foo' },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'object == null || oldObject == null || object.foo == oldObject.foo' },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "object.spec.string.matches('[0-9]+')" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "object.spec.string.findAll('[0-9]+').size() > 0" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'object.spec.list.isSorted()' },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "url(object.spec.endpoint).getHostname() in ['ok1', 'ok2']" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.kind.group == 'example.com' && request.kind.version == 'v1' && request.kind.kind == 'Fake'" },
  {
    source: COMPILE_TEST,
    kind: 'validating.validation',
    expression: "request.resource.group == 'example.com' && request.resource.version == 'v1' && request.resource.resource == 'fake' && request.subResource == 'scale'",
  },
  {
    source: COMPILE_TEST,
    kind: 'validating.validation',
    expression:
      "request.requestResource.group == 'example.com' && request.requestResource.version == 'v1' && request.requestResource.resource == 'fake' && request.requestSubResource == 'scale'",
  },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.name == 'fake-name'" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.operation == 'CREATE'" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.userInfo.groups == ['system:authenticated', 'my-admin-group']" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.userInfo.extra == {'some-key': ['some-value1', 'some-value2']}" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'request.dryRun == false' },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.options == {'whatever': 'you want'}" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "authorizer.group('') != null" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'namespaceObject.metadata != null' },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "'test' in namespaceObject.metadata.labels" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'type(namespaceObject.metadata.creationTimestamp) == google.protobuf.Timestamp' },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'namespaceObject.metadata.deletionGracePeriodSeconds == 5' },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "namespaceObject.metadata.finalizers[0] == 'testEnv'" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "namespaceObject.status.conditions[0].type == 'NamespaceDeletionDiscoveryFailure'" },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'type(namespaceObject.status.conditions[0].lastTransitionTime) == google.protobuf.Timestamp' },
  // The same expressions as audit annotation values, as compile_test.go wraps them.
  { source: COMPILE_TEST, kind: 'validating.auditAnnotation', expression: "string(request.userInfo.groups == ['system:authenticated', 'my-admin-group'])", type: 'string' },
  { source: COMPILE_TEST, kind: 'validating.auditAnnotation', expression: 'string(object.foo == oldObject.foo)', type: 'string' },
  // Library tests: the expressions compiled on their own (any result type, as a variable).
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'quantity("12Mi")', type: 'kubernetes.Quantity' },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'isQuantity("20Mi")', type: 'bool' },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', type: 'bool' },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'quantity("50M").isLessThan(quantity("50Mi"))', type: 'bool' },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'quantity("200M").compareTo(quantity("0.2G"))', type: 'int' },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'quantity("50k").add(20).isLessThan(quantity("50020"))', type: 'bool' },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', type: 'int' },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'quantity("50.703k").asApproximateFloat()', type: 'double' },
  { source: IP_TEST, kind: 'validating.variable', expression: 'ip("192.168.0.1")', type: 'net.IP' },
  { source: IP_TEST, kind: 'validating.variable', expression: 'ip.isCanonical("127.0.0.1")', type: 'bool' },
  { source: IP_TEST, kind: 'validating.variable', expression: 'ip("192.168.0.1").family()', type: 'int' },
  { source: IP_TEST, kind: 'validating.variable', expression: 'ip("169.254.169.254").isLinkLocalUnicast()', type: 'bool' },
  { source: IP_TEST, kind: 'validating.variable', expression: 'string(ip("192.168.0.1"))', type: 'string' },
  { source: IP_TEST, kind: 'validating.validation', expression: 'type(ip("192.168.0.1")) == net.IP' },
  { source: CIDR_TEST, kind: 'validating.variable', expression: 'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', type: 'bool' },
  { source: CIDR_TEST, kind: 'validating.variable', expression: 'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', type: 'bool' },
  { source: CIDR_TEST, kind: 'validating.variable', expression: 'cidr("192.168.0.0/24").ip()', type: 'net.IP' },
  { source: CIDR_TEST, kind: 'validating.variable', expression: 'cidr("192.168.0.1/24").masked()', type: 'net.CIDR' },
  { source: CIDR_TEST, kind: 'validating.variable', expression: 'cidr("2001:db8::/32").prefixLength()', type: 'int' },
  { source: FORMAT_TEST, kind: 'validating.variable', expression: 'format.dns1123Label().validate("my-label-name")', type: 'optional_type(list(string))' },
  { source: FORMAT_TEST, kind: 'validating.variable', expression: 'format.named("dns1123Label").value().validate("my-label-name")', type: 'optional_type(list(string))' },
  { source: FORMAT_TEST, kind: 'validating.variable', expression: 'format.datetime().validate("2021-01-01T00:00:00Z")', type: 'optional_type(list(string))' },
  { source: SEMVER_TEST, kind: 'validating.variable', expression: 'semver("1.2.3")', type: 'kubernetes.Semver' },
  { source: SEMVER_TEST, kind: 'validating.variable', expression: 'isSemver(" 1.0.0", true)', type: 'bool' },
  { source: SEMVER_TEST, kind: 'validating.variable', expression: 'semver("1.2.3").isGreaterThan(semver("1.0.0"))', type: 'bool' },
  // compilation_test.go (MutatingAdmissionPolicy)
  { source: MUTATING_TEST, kind: 'mutating.applyConfiguration', expression: 'Object{\n  spec: Object.spec{\n    replicas: object.spec.replicas + 100\n  }\n}', type: 'Object' },
  { source: MUTATING_TEST, kind: 'mutating.jsonPatch', expression: '[\n  JSONPatch{op: "replace", path: "/spec/replicas", value: object.spec.replicas + 10}\n]', type: 'list(JSONPatch)' },
  { source: MUTATING_TEST, kind: 'mutating.jsonPatch', expression: '[\n  JSONPatch{op: "replace", path: "/spec/replicas", value: variables.desired + 1},\n]', variables: { desired: 'int' } },
  { source: MUTATING_TEST, kind: 'mutating.applyConfiguration', expression: "Object{spec: Object.spec{replicas: int(params.data['k1'])}}", params: true },
  {
    source: MUTATING_TEST,
    kind: 'mutating.jsonPatch',
    expression: "[JSONPatch{op: \"replace\", path: \"/spec/replicas\", value: authorizer.group('').resource('endpoints').check('create').allowed() ? 10 : 0}]",
  },
  {
    source: MUTATING_TEST,
    kind: 'mutating.jsonPatch',
    expression: '[JSONPatch{op: "replace", path: "/spec/replicas", value: variables.list.all(x1, variables.list.all(x2, "0123456789" == "0123456789")) ? 1 : 0}]',
    variables: { list: 'list(int)' },
  },
  { source: MUTATING_TEST, kind: 'mutating.jsonPatch', expression: "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('a/b'), value: 'x'}]" },
  // issue 16: valid expressions the linter used to reject.
  { source: ISSUE, kind: 'validating.validation', expression: "{'a': 1, 'b': 2}.exists_one(k, v, v == 1)" },
  { source: ISSUE, kind: 'webhook.matchCondition', expression: 'object.metadata.labels.exists_one(k, v, k == "app" && v == "web")' },
  { source: ISSUE, kind: 'validating.validation', expression: 'object.?spec.?replicas.optMap(r, r + 1).orValue(0) > 0' },
  { source: ISSUE, kind: 'webhook.matchCondition', expression: "ip(object.spec.clusterIP).family() == 4 && type(ip('::1')) == net.IP" },
  // Other forms from the CEL and Kubernetes docs.
  { source: 'k8s docs: ValidatingAdmissionPolicy', kind: 'validating.validation', expression: 'object.spec.replicas <= 5' },
  { source: 'k8s docs: ValidatingAdmissionPolicy', kind: 'validating.messageExpression', expression: "'object.x must be less than max ' + string(params.maxReplicas)", params: true, type: 'string' },
  { source: 'k8s docs: ValidatingAdmissionPolicy', kind: 'validating.validation', expression: "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))" },
  { source: 'k8s docs: ValidatingAdmissionPolicy', kind: 'validating.validation', expression: 'variables.foo == "bar"', variables: { foo: 'string' } },
  { source: 'k8s docs: ValidatingAdmissionPolicy', kind: 'validating.auditAnnotation', expression: 'null', type: 'null_type' },
  { source: 'k8s docs: ValidatingAdmissionPolicy', kind: 'validating.auditAnnotation', expression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)", type: 'string' },
  { source: 'k8s docs: matchConditions', kind: 'webhook.matchCondition', expression: "!(request.resource.group == 'rbac.authorization.k8s.io' && request.resource.resource.startsWith('cluster'))" },
  { source: 'k8s docs: matchConditions', kind: 'webhook.matchCondition', expression: "authorizer.requestResource.check('update').allowed()" },
  { source: 'k8s docs: matchConditions', kind: 'webhook.matchCondition', expression: "!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations').name('my-webhook.example.com').check('breakglass').allowed()" },
  { source: 'cel-spec: two-variable comprehensions', kind: 'validating.variable', expression: "{'a': 1}.transformMap(k, v, v + 1)", type: 'map(string, int)' },
  { source: 'cel-spec: two-variable comprehensions', kind: 'validating.variable', expression: '[1, 2].transformList(i, v, i * v)', type: 'list(int)' },
  { source: 'cel-go ext/lists.go', kind: 'validating.variable', expression: '[3, 1, 2].sortBy(x, -x)', type: 'list(int)' },
  { source: 'cel-go ext/strings.go', kind: 'validating.variable', expression: "'%d items, %s'.format([3, 'ok'])", type: 'string' },
];

export const REJECTED: readonly Row[] = [
  // compile_test.go TestCompileValidatingPolicyExpression
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "1 < 'asdf'", errors: [cf('1:3', "found no matching overload for '_<_' applied to '(int, string)'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "'asdf'.contains('x'", errors: [cf('1:20', "Syntax error: missing ')' at '<EOF>'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'object.foo < params.x', errors: [undeclared('1:14', 'params')] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'object.foo < invalid.x', errors: [undeclared('1:14', 'invalid')] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.foo1 == 'nope'", errors: [cf('1:8', "undefined field 'foo1'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.resource.foo2 == 'nope'", errors: [cf('1:17', "undefined field 'foo2'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.requestKind.foo3 == 'nope'", errors: [cf('1:20', "undefined field 'foo3'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.requestResource.foo4 == 'nope'", errors: [cf('1:24', "undefined field 'foo4'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "request.userInfo.foo5 == 'nope'", errors: [cf('1:17', "undefined field 'foo5'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "namespaceObject.foo1 == 'nope'", errors: [cf('1:16', "undefined field 'foo1'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "namespaceObject.metadata.foo2 == 'nope'", errors: [cf('1:25', "undefined field 'foo2'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: "namespaceObject.status.conditions[0].foo5 == 'nope'", errors: [cf('1:37', "undefined field 'foo5'")] },
  { source: COMPILE_TEST, kind: 'validating.validation', expression: 'test() == true', errors: [undeclared('1:5', 'test')] },
  // Library tests
  { source: IP_TEST, kind: 'validating.variable', expression: 'isIP(cidr("192.168.0.0/24"))', errors: [cf('1:5', "found no matching overload for 'isIP' applied to '(net.CIDR)'")] },
  { source: QUANTITY_TEST, kind: 'validating.variable', expression: 'isQuantity([1, 2, 3])', errors: [cf('1:11', "found no matching overload for 'isQuantity' applied to '(list(int))'")] },
  // issue 16: undeclared functions and members
  { source: ISSUE, kind: 'validating.validation', expression: "'abc'.startswith('a')", errors: [undeclared('1:17', 'startswith')] },
  { source: ISSUE, kind: 'webhook.matchCondition', expression: "object.metadata.name.startWith('x')", errors: [undeclared('1:31', 'startWith')] },
  { source: ISSUE, kind: 'validating.validation', expression: 'math.greatest(1, 2) == 2', errors: [undeclared('1:1', 'math'), undeclared('1:14', 'greatest')] },
  { source: ISSUE, kind: 'validating.validation', expression: 'cel.bind(x, 1, x == 1)', errors: [undeclared('1:1', 'cel'), undeclared('1:9', 'bind'), undeclared('1:10', 'x'), undeclared('1:16', 'x')] },
  { source: ISSUE, kind: 'validating.validation', expression: "base64.encode(b'hello') == 'aGVsbG8='", errors: [undeclared('1:1', 'base64'), undeclared('1:14', 'encode')] },
  { source: ISSUE, kind: 'validating.validation', expression: "'s'.reverse() == 's'", errors: [cf('1:12', "found no matching overload for 'reverse' applied to 'string.()'")] },
  { source: ISSUE, kind: 'webhook.matchCondition', expression: '[1].includes(1)', errors: [undeclared('1:13', 'includes')] },
  // issue 16: wrong overloads and types
  { source: ISSUE, kind: 'validating.validation', expression: 'isQuantity(1)', errors: [cf('1:11', "found no matching overload for 'isQuantity' applied to '(int)'")] },
  { source: ISSUE, kind: 'validating.validation', expression: "isIP(cidr('10.0.0.0/8'))", errors: [cf('1:5', "found no matching overload for 'isIP' applied to '(net.CIDR)'")] },
  { source: ISSUE, kind: 'validating.validation', expression: "variables.n + 'a' == 'b'", variables: { n: 'int' }, errors: [cf('1:13', "found no matching overload for '_+_' applied to '(int, string)'")] },
  { source: ISSUE, kind: 'validating.validation', expression: 'request.userInfo.groups', errors: ['must evaluate to bool but got list(string)'] },
  { source: ISSUE, kind: 'validating.validation', expression: "authorizer.group('').resource('pods').check('get')", errors: ['must evaluate to bool but got kubernetes.authorization.Decision'] },
  { source: ISSUE, kind: 'webhook.matchCondition', expression: 'object.spec.enabled', errors: ['must evaluate to bool but got dyn'] },
  { source: ISSUE, kind: 'validating.messageExpression', expression: 'size(object.spec.containers)', errors: ['must evaluate to string but got int'] },
  { source: ISSUE, kind: 'validating.auditAnnotation', expression: 'object.spec.replicas > 1', errors: ['must evaluate to one of [string null_type] but got bool'] },
  { source: ISSUE, kind: 'validating.validation', expression: "isURL('x', true)", errors: [cf('1:6', "found no matching overload for 'isURL' applied to '(string, bool)'")] },
  { source: ISSUE, kind: 'validating.validation', expression: "1 == '1'", errors: [cf('1:3', "found no matching overload for '_==_' applied to '(int, string)'")] },
  // issue 16: literals checked at compile time
  { source: ISSUE, kind: 'validating.validation', expression: "duration('1d') > duration('0s')", errors: [cf('1:10', 'invalid duration argument')] },
  { source: ISSUE, kind: 'validating.validation', expression: "timestamp('not a time') < timestamp('2023-01-01T00:00:00Z')", errors: [cf('1:11', 'invalid timestamp argument')] },
  { source: ISSUE, kind: 'validating.validation', expression: "'x'.matches('x++')", errors: [cf('1:13', 'invalid matches argument')] },
  { source: ISSUE, kind: 'validating.validation', expression: "[1, 'a'].size() == 2", errors: [cf('1:5', "expected type 'int' but found 'string'")] },
  { source: ISSUE, kind: 'validating.validation', expression: "{'a': 1, 'b': 'c'}.size() == 2", errors: [cf('1:15', "expected type 'int' but found 'string'")] },
  { source: ISSUE, kind: 'validating.validation', expression: "'%s %s'.format(['a']) == 'a'", errors: [cf('1:15', 'index 1 out of range')] },
  { source: ISSUE, kind: 'validating.validation', expression: "'%d'.format(['a']) == 'a'", errors: [cf('1:14', 'error during formatting: decimal clause can only be used on integers, was given string')] },
  // issue 16: mutation result types
  { source: ISSUE, kind: 'mutating.applyConfiguration', expression: "'spec'", errors: ['must evaluate to Object but got string'] },
  { source: ISSUE, kind: 'mutating.applyConfiguration', expression: 'Object.spec{replicas: 1}', errors: ['must evaluate to Object but got Object.spec'] },
  { source: ISSUE, kind: 'mutating.jsonPatch', expression: "[{'op': 'add', 'path': '/a'}]", errors: ['must evaluate to list(JSONPatch) but got list(map(string, string))'] },
  { source: ISSUE, kind: 'mutating.jsonPatch', expression: "[JSONPatch{op: 1, path: '/a'}]", errors: [cf('1:14', "expected type of field 'op' is 'string' but provided type is 'int'")] },
  { source: ISSUE, kind: 'validating.validation', expression: 'Object{}', errors: [undeclared('1:7', 'Object')] },
];

/**
 * Expressions that an older server rejects and the server of `minor` (which compiles new
 * expressions in the environment of minor - 1) accepts.
 */
export interface VersionedRow {
  readonly source: string;
  readonly kind: ExpressionKind;
  readonly expression: string;
  readonly minor: number;
  /** The messages of the server that rejects it. */
  readonly rejectedWith: readonly string[];
}

const BASE_GO = 'k8s.io/apiserver pkg/cel/environment/base.go';

export const VERSIONED: readonly VersionedRow[] = [
  { source: `${BASE_GO} (cel.OptionalTypes, 1.28)`, kind: 'validating.validation', expression: 'object.?spec.hasValue()', minor: 29, rejectedWith: [cf('1:7', "unsupported syntax '.?'")] },
  { source: `${BASE_GO} (cel.CrossTypeNumericComparisons, 1.28)`, kind: 'validating.validation', expression: '1 < 1.5', minor: 29, rejectedWith: [cf('1:3', "found no matching overload for '_<_' applied to '(int, double)'")] },
  { source: `${BASE_GO} (library.Quantity, 1.28)`, kind: 'validating.validation', expression: "quantity('1').isInteger()", minor: 29, rejectedWith: [undeclared('1:9', 'quantity'), undeclared('1:24', 'isInteger')] },
  { source: `${BASE_GO} (ext.Strings(2), 1.29)`, kind: 'validating.validation', expression: "['a', 'b'].join(',') == 'a,b'", minor: 30, rejectedWith: [undeclared('1:16', 'join')] },
  {
    source: `${BASE_GO} (ext.Sets, 1.29)`,
    kind: 'validating.validation',
    expression: 'sets.contains([1, 2], [1])',
    minor: 30,
    rejectedWith: [undeclared('1:1', 'sets'), cf('1:14', "found no matching overload for 'contains' applied to '!error!.(list(int), list(int))'")],
  },
  { source: `${BASE_GO} (library.IP, 1.30)`, kind: 'validating.validation', expression: "ip('1.2.3.4').family() == 4", minor: 31, rejectedWith: [undeclared('1:3', 'ip'), undeclared('1:21', 'family')] },
  { source: `${BASE_GO} (library.Format, 1.31)`, kind: 'validating.validation', expression: "format.dns1123Label().validate('x').hasValue()", minor: 32, rejectedWith: [undeclared('1:1', 'format'), undeclared('1:20', 'dns1123Label'), undeclared('1:31', 'validate')] },
  {
    source: `${BASE_GO} (library.AuthzSelectors, 1.31)`,
    kind: 'webhook.matchCondition',
    expression: "authorizer.requestResource.fieldSelector('a=b').check('list').allowed()",
    minor: 32,
    rejectedWith: [undeclared('1:41', 'fieldSelector')],
  },
  {
    source: `${BASE_GO} (ext.TwoVarComprehensions, 1.32)`,
    kind: 'validating.validation',
    expression: "{'a': 1}.exists_one(k, v, v == 1)",
    minor: 33,
    rejectedWith: [undeclared('1:20', 'exists_one'), undeclared('1:21', 'k'), undeclared('1:24', 'v'), undeclared('1:27', 'v')],
  },
  { source: `${BASE_GO} (library.SemverLib, 1.33)`, kind: 'validating.validation', expression: "semver('1.2.3').major() == 1", minor: 34, rejectedWith: [undeclared('1:7', 'semver'), undeclared('1:22', 'major')] },
  { source: `${BASE_GO} (ext.Lists(3), 1.34)`, kind: 'validating.validation', expression: '[3, 1, 2].sort() == [1, 2, 3]', minor: 35, rejectedWith: [undeclared('1:15', 'sort')] },
  { source: `${BASE_GO} (master: library.Lists(ListsVersion(1)), 1.37)`, kind: 'webhook.matchCondition', expression: '[1].includes(1)', minor: 38, rejectedWith: [undeclared('1:13', 'includes')] },
];

/**
 * Expressions a newer server rejects that the older one accepted: the AST validators came with the
 * 1.29 environment (so with 1.30 servers), the format-string validator with ext.Strings(2).
 */
export const TIGHTENED: readonly VersionedRow[] = [
  { source: `${BASE_GO} (ValidateDurationLiterals, 1.29)`, kind: 'validating.validation', expression: "duration('1d') > duration('0s')", minor: 30, rejectedWith: [cf('1:10', 'invalid duration argument')] },
  { source: `${BASE_GO} (ValidateRegexLiterals, 1.29)`, kind: 'validating.validation', expression: "'x'.matches('x++')", minor: 30, rejectedWith: [cf('1:13', 'invalid matches argument')] },
  { source: `${BASE_GO} (ValidateTimestampLiterals, 1.29)`, kind: 'validating.validation', expression: "timestamp('2023-02-30T00:00:00Z') < timestamp('2024-01-01T00:00:00Z')", minor: 30, rejectedWith: [cf('1:11', 'invalid timestamp argument')] },
];
