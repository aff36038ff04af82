/**
 * The API server's create-time validation of webhook configurations (facts §2, §2.1, §9), one
 * or more cases per row: first on the validator directly (exact FieldError list, formatted the
 * way kubectl prints it), then end to end through the `api-validation` rule for a few rows.
 *
 * Rows 30-32 (sideEffects, timeoutSeconds) are reported by the `side-effects` and
 * `timeout-out-of-range` rules, not here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultWebhookConfiguration } from '../src/defaults/webhooks.js';
import { formatFieldPath } from '../src/field-path.js';
import type { MatchCondition, RuleWithOperations, Webhook, WebhookConfiguration } from '../src/model/types.js';
import { prepareCel } from '../src/cel/library.js';
import { formatFieldError, type FieldError } from '../src/validate/field-error.js';
import { validateWebhookConfiguration } from '../src/validate/webhook-api.js';
import { lintText } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// The API server's message texts (k8s.io/apimachinery/pkg/util/validation), spelled out here so
// that a change in src/kube/names.ts shows up as a failing test.
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const FORM = '; desired format: https://host[/path]';

// ---------------------------------------------------------------------------------------------
// A minimal valid v1 ValidatingWebhookConfiguration, as written (not defaulted).

type Written = Omit<WebhookConfiguration, 'kind'> & { kind: WebhookConfiguration['kind']; webhooks: Webhook[] };

function writtenWebhook(name = 'pods.demo.example.com'): Webhook {
  return {
    name,
    clientConfig: { service: { namespace: 'webhooks', name: 'demo', path: '/validate' } },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
  };
}

function written(): Written {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'demo' },
    webhooks: [writtenWebhook()],
  };
}

/** Build, mutate, default (as the API server decodes), validate. */
function check(mutate: (config: Written) => void = () => {}): FieldError[] {
  const config = written();
  mutate(config);
  const { effective } = defaultWebhookConfiguration(config, config.apiVersion, config.kind);
  return validateWebhookConfiguration(effective as WebhookConfiguration);
}

const hook = (config: Written, i = 0): Webhook => config.webhooks[i]!;
const rule = (config: Written): RuleWithOperations => hook(config).rules![0]!;
const service = (config: Written) => hook(config).clientConfig!.service!;
const conditions = (config: Written, list: MatchCondition[]): void => {
  hook(config).matchConditions = list;
};

interface Expected {
  readonly type: FieldError['type'];
  readonly path: string;
  /** The full kubectl-style text, when it matters. */
  readonly text?: string;
}

function summary(errors: readonly FieldError[]): Expected[] {
  return errors.map((error) => ({ type: error.type, path: formatFieldPath(error.path) }));
}

interface Case {
  readonly name: string;
  readonly mutate: (config: Written) => void;
  /** Exact list, in the API server's order; [] = accepted. */
  readonly errors: readonly Expected[];
}

function runCases(cases: readonly Case[]): void {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const errors = check(c.mutate);
    expect(summary(errors)).toEqual(c.errors.map(({ type, path }) => ({ type, path })));
    c.errors.forEach((expected, i) => {
      if (expected.text !== undefined) expect(formatFieldError(errors[i]!)).toBe(expected.text);
    });
  });
}

const W = 'webhooks[0]';
const R = `${W}.rules[0]`;
const SVC = `${W}.clientConfig.service`;
const URL_PATH = `${W}.clientConfig.url`;
const MC = `${W}.matchConditions`;

beforeAll(async () => {
  await prepareCel();
});

describe('the factory object', () => {
  it('is valid, and the validator sees it defaulted (port 443, scope *)', () => {
    const config = written();
    const { effective } = defaultWebhookConfiguration(config, config.apiVersion, config.kind);
    const webhook = (effective as WebhookConfiguration).webhooks![0]!;
    expect(webhook.clientConfig?.service?.port).toBe(443);
    expect(webhook.rules?.[0]?.scope).toBe('*');
    expect(webhook.failurePolicy).toBe('Fail');
    expect(check()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('metadata (rows 1-4, ValidateObjectMeta)', () => {
  runCases([
    {
      name: 'row 1: missing metadata.name (no generateName) is Required',
      mutate: (c) => {
        c.metadata = {};
      },
      errors: [{ type: 'Required', path: 'metadata.name', text: 'metadata.name: Required value: name or generateName is required' }],
    },
    {
      name: 'row 1: missing metadata entirely is Required',
      mutate: (c) => {
        delete c.metadata;
      },
      errors: [{ type: 'Required', path: 'metadata.name', text: 'metadata.name: Required value: name or generateName is required' }],
    },
    {
      name: 'row 1: generateName without name is accepted (the server generates the name)',
      mutate: (c) => {
        c.metadata = { generateName: 'demo-' };
      },
      errors: [],
    },
    {
      name: 'row 2: metadata.name that is not a DNS-1123 subdomain is rejected',
      mutate: (c) => {
        c.metadata = { name: 'Demo_Hook' };
      },
      errors: [{ type: 'Invalid', path: 'metadata.name', text: `metadata.name: Invalid value: "Demo_Hook": ${SUBDOMAIN}` }],
    },
    {
      name: 'row 2: metadata.name longer than 253 characters is rejected',
      mutate: (c) => {
        c.metadata = { name: 'a'.repeat(254) };
      },
      errors: [{ type: 'Invalid', path: 'metadata.name', text: `metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters` }],
    },
    {
      name: 'row 2: a dotted lowercase metadata.name is accepted',
      mutate: (c) => {
        c.metadata = { name: 'policy.example.com' };
      },
      errors: [],
    },
    {
      name: 'row 2: generateName is checked with its trailing dash masked (uppercase rejected)',
      mutate: (c) => {
        c.metadata = { generateName: 'Demo-' };
      },
      errors: [{ type: 'Invalid', path: 'metadata.generateName', text: `metadata.generateName: Invalid value: "Demo-": ${SUBDOMAIN}` }],
    },
    {
      name: 'row 2: generateName mask drops two characters (`a..-` checks as `a.a`, accepted)',
      mutate: (c) => {
        c.metadata = { generateName: 'a..-' };
      },
      errors: [],
    },
    {
      name: 'row 3: metadata.namespace on the cluster-scoped kind gives no error',
      mutate: (c) => {
        c.metadata = { name: 'demo', namespace: 'default' };
      },
      errors: [],
    },
    {
      name: 'row 4: a name ending in .static.k8s.io gives no error in 1.35',
      mutate: (c) => {
        c.metadata = { name: 'demo.static.k8s.io' };
      },
      errors: [],
    },
    {
      name: 'metadata.labels: a key that is not a qualified name is Invalid at metadata.labels',
      mutate: (c) => {
        c.metadata = { name: 'demo', labels: { 'bad key': 'x' } };
      },
      errors: [{ type: 'Invalid', path: 'metadata.labels', text: `metadata.labels: Invalid value: "bad key": ${NAME_PART}` }],
    },
    {
      name: 'metadata.labels: an invalid label value is Invalid at metadata.labels',
      mutate: (c) => {
        c.metadata = { name: 'demo', labels: { team: '-payments' } };
      },
      errors: [{ type: 'Invalid', path: 'metadata.labels', text: `metadata.labels: Invalid value: "-payments": ${LABEL_VALUE}` }],
    },
    {
      name: 'metadata.labels: a prefixed key and an empty value are accepted',
      mutate: (c) => {
        c.metadata = { name: 'demo', labels: { 'app.kubernetes.io/name': 'demo', empty: '' } };
      },
      errors: [],
    },
    {
      name: 'metadata.labels: `example.com/` (empty name part) gets both name-part messages',
      mutate: (c) => {
        c.metadata = { name: 'demo', labels: { 'example.com/': 'x' } };
      },
      errors: [
        { type: 'Invalid', path: 'metadata.labels', text: 'metadata.labels: Invalid value: "example.com/": name part must be non-empty' },
        { type: 'Invalid', path: 'metadata.labels', text: `metadata.labels: Invalid value: "example.com/": ${NAME_PART}` },
      ],
    },
    {
      name: 'metadata.annotations: keys are checked lowercased (uppercase accepted)',
      mutate: (c) => {
        c.metadata = { name: 'demo', annotations: { 'Example.COM/Owner': 'Team A, with spaces' } };
      },
      errors: [],
    },
    {
      name: 'metadata.annotations: a key with a space is Invalid at metadata.annotations',
      mutate: (c) => {
        c.metadata = { name: 'demo', annotations: { 'owner team': 'a' } };
      },
      errors: [{ type: 'Invalid', path: 'metadata.annotations', text: `metadata.annotations: Invalid value: "owner team": ${NAME_PART}` }],
    },
    {
      name: 'metadata.annotations: more than 256 KiB in total is Too long',
      mutate: (c) => {
        c.metadata = { name: 'demo', annotations: { a: 'x'.repeat(256 * 1024) } };
      },
      errors: [{ type: 'TooLong', path: 'metadata.annotations', text: 'metadata.annotations: Too long: may not be more than 262144 bytes' }],
    },
    {
      name: 'metadata.annotations: exactly 256 KiB in total is accepted',
      mutate: (c) => {
        c.metadata = { name: 'demo', annotations: { a: 'x'.repeat(256 * 1024 - 1) } };
      },
      errors: [],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('webhook names (rows 5-8)', () => {
  runCases([
    {
      name: 'row 5: empty webhook name is Required',
      mutate: (c) => {
        hook(c).name = '';
      },
      errors: [{ type: 'Required', path: `${W}.name`, text: `${W}.name: Required value` }],
    },
    {
      name: 'row 5: missing webhook name is Required',
      mutate: (c) => {
        delete hook(c).name;
      },
      errors: [{ type: 'Required', path: `${W}.name`, text: `${W}.name: Required value` }],
    },
    {
      name: 'row 6: uppercase webhook name is Invalid (subdomain message)',
      mutate: (c) => {
        hook(c).name = 'Pods.Example.com';
      },
      errors: [{ type: 'Invalid', path: `${W}.name`, text: `${W}.name: Invalid value: "Pods.Example.com": ${SUBDOMAIN}` }],
    },
    {
      name: 'row 6: underscore in webhook name is Invalid',
      mutate: (c) => {
        hook(c).name = 'validate_pods.example.com';
      },
      errors: [{ type: 'Invalid', path: `${W}.name`, text: `${W}.name: Invalid value: "validate_pods.example.com": ${SUBDOMAIN}` }],
    },
    {
      name: 'row 6: a trailing dot is not stripped (IsFullyQualifiedName) and is Invalid',
      mutate: (c) => {
        hook(c).name = 'pods.example.com.';
      },
      errors: [{ type: 'Invalid', path: `${W}.name`, text: `${W}.name: Invalid value: "pods.example.com.": ${SUBDOMAIN}` }],
    },
    {
      name: 'row 6: too long and invalid: both messages joined with a comma',
      mutate: (c) => {
        hook(c).name = `A${'a'.repeat(250)}.b.c`;
      },
      errors: [{ type: 'Invalid', path: `${W}.name`, text: `${W}.name: Invalid value: "A${'a'.repeat(250)}.b.c": must be no more than 253 characters,${SUBDOMAIN}` }],
    },
    {
      name: 'row 7: a name with two segments is Invalid',
      mutate: (c) => {
        hook(c).name = 'example.com';
      },
      errors: [{ type: 'Invalid', path: `${W}.name`, text: `${W}.name: Invalid value: "example.com": should be a domain with at least three segments separated by dots` }],
    },
    {
      name: 'row 7: a name with three segments is accepted',
      mutate: (c) => {
        hook(c).name = 'a.b.c';
      },
      errors: [],
    },
    {
      name: 'row 8: a repeated webhook name is Duplicate on the later index',
      mutate: (c) => {
        c.webhooks.push(writtenWebhook());
      },
      errors: [{ type: 'Duplicate', path: 'webhooks[1].name', text: 'webhooks[1].name: Duplicate value: "pods.demo.example.com"' }],
    },
    {
      name: 'row 8: two empty names are two Required errors, not a Duplicate',
      mutate: (c) => {
        hook(c).name = '';
        c.webhooks.push(writtenWebhook(''));
      },
      errors: [
        { type: 'Required', path: `${W}.name` },
        { type: 'Required', path: 'webhooks[1].name' },
      ],
    },
    {
      name: 'row 8: distinct names are accepted',
      mutate: (c) => {
        c.webhooks.push(writtenWebhook('deployments.demo.example.com'));
      },
      errors: [],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('admissionReviewVersions (rows 9-12)', () => {
  const AV = `${W}.admissionReviewVersions`;
  runCases([
    {
      name: 'row 9: empty admissionReviewVersions is Required',
      mutate: (c) => {
        hook(c).admissionReviewVersions = [];
      },
      errors: [{ type: 'Required', path: AV, text: `${AV}: Required value: must specify one of v1, v1beta1` }],
    },
    {
      name: 'row 9: missing admissionReviewVersions is Required (no v1 default)',
      mutate: (c) => {
        delete hook(c).admissionReviewVersions;
      },
      errors: [{ type: 'Required', path: AV, text: `${AV}: Required value: must specify one of v1, v1beta1` }],
    },
    {
      name: 'row 10: a repeated version is Invalid "duplicate version"',
      mutate: (c) => {
        hook(c).admissionReviewVersions = ['v1', 'v1beta1', 'v1'];
      },
      errors: [{ type: 'Invalid', path: `${AV}[2]`, text: `${AV}[2]: Invalid value: "v1": duplicate version` }],
    },
    {
      name: 'row 10: the duplicate entry is not checked further',
      mutate: (c) => {
        hook(c).admissionReviewVersions = ['v1', 'V2', 'V2'];
      },
      errors: [
        { type: 'Invalid', path: `${AV}[1]`, text: `${AV}[1]: Invalid value: "V2": ${DNS1035}` },
        { type: 'Invalid', path: `${AV}[2]`, text: `${AV}[2]: Invalid value: "V2": duplicate version` },
      ],
    },
    {
      name: 'row 11: a version that is not a DNS-1035 label is Invalid',
      mutate: (c) => {
        hook(c).admissionReviewVersions = ['v1', 'V1beta1'];
      },
      errors: [{ type: 'Invalid', path: `${AV}[1]`, text: `${AV}[1]: Invalid value: "V1beta1": ${DNS1035}` }],
    },
    {
      name: 'row 12: no accepted version is Invalid on the whole list',
      mutate: (c) => {
        hook(c).admissionReviewVersions = ['v2'];
      },
      errors: [{ type: 'Invalid', path: AV, text: `${AV}: Invalid value: ["v2"]: must include at least one of v1, v1beta1` }],
    },
    {
      name: 'row 12: rows 11 and 12 together (label error first, then the list)',
      mutate: (c) => {
        hook(c).admissionReviewVersions = ['1'];
      },
      errors: [
        { type: 'Invalid', path: `${AV}[0]`, text: `${AV}[0]: Invalid value: "1": ${DNS1035}` },
        { type: 'Invalid', path: AV, text: `${AV}: Invalid value: ["1"]: must include at least one of v1, v1beta1` },
      ],
    },
    {
      name: 'row 12: an unknown version next to an accepted one is fine',
      mutate: (c) => {
        hook(c).admissionReviewVersions = ['v2', 'v1beta1'];
      },
      errors: [],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('rules: operations, groups, versions (rows 13-20)', () => {
  runCases([
    {
      name: 'row 13: empty operations is Required',
      mutate: (c) => {
        rule(c).operations = [];
      },
      errors: [{ type: 'Required', path: `${R}.operations`, text: `${R}.operations: Required value` }],
    },
    {
      name: "row 14: '*' with another operation is Invalid",
      mutate: (c) => {
        rule(c).operations = ['*', 'CREATE'];
      },
      errors: [{ type: 'Invalid', path: `${R}.operations`, text: `${R}.operations: Invalid value: ["*","CREATE"]: if '*' is present, must not specify other operations` }],
    },
    {
      name: "row 14: '*' alone is accepted",
      mutate: (c) => {
        rule(c).operations = ['*'];
      },
      errors: [],
    },
    {
      name: 'row 15: PATCH is NotSupported',
      mutate: (c) => {
        rule(c).operations = ['CREATE', 'PATCH'];
      },
      errors: [{ type: 'NotSupported', path: `${R}.operations[1]`, text: `${R}.operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"` }],
    },
    {
      name: 'row 15: operations are case-sensitive and "" is not one',
      mutate: (c) => {
        rule(c).operations = ['create', ''];
      },
      errors: [
        { type: 'NotSupported', path: `${R}.operations[0]`, text: `${R}.operations[0]: Unsupported value: "create": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"` },
        { type: 'NotSupported', path: `${R}.operations[1]` },
      ],
    },
    {
      name: 'row 15: all four operations are accepted',
      mutate: (c) => {
        rule(c).operations = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
      },
      errors: [],
    },
    {
      name: 'row 16: empty apiGroups is Required',
      mutate: (c) => {
        rule(c).apiGroups = [];
      },
      errors: [{ type: 'Required', path: `${R}.apiGroups`, text: `${R}.apiGroups: Required value` }],
    },
    {
      name: 'row 16: [""] (the core group) is accepted',
      mutate: (c) => {
        rule(c).apiGroups = [''];
      },
      errors: [],
    },
    {
      name: "row 17: '*' with another API group is Invalid",
      mutate: (c) => {
        rule(c).apiGroups = ['apps', '*'];
      },
      errors: [{ type: 'Invalid', path: `${R}.apiGroups`, text: `${R}.apiGroups: Invalid value: ["apps","*"]: if '*' is present, must not specify other API groups` }],
    },
    {
      name: 'row 18: empty apiVersions is Required',
      mutate: (c) => {
        delete rule(c).apiVersions;
      },
      errors: [{ type: 'Required', path: `${R}.apiVersions`, text: `${R}.apiVersions: Required value` }],
    },
    {
      name: "row 19: '*' with another API version is Invalid",
      mutate: (c) => {
        rule(c).apiVersions = ['*', 'v1'];
      },
      errors: [{ type: 'Invalid', path: `${R}.apiVersions`, text: `${R}.apiVersions: Invalid value: ["*","v1"]: if '*' is present, must not specify other API versions` }],
    },
    {
      name: 'row 20: an empty API version entry is Required',
      mutate: (c) => {
        rule(c).apiVersions = ['v1', ''];
      },
      errors: [{ type: 'Required', path: `${R}.apiVersions[1]`, text: `${R}.apiVersions[1]: Required value` }],
    },
    {
      name: 'rows 13+16+18+21: an empty rule reports each required list, in order',
      mutate: (c) => {
        hook(c).rules = [{}];
      },
      errors: [
        { type: 'Required', path: `${R}.operations` },
        { type: 'Required', path: `${R}.apiGroups` },
        { type: 'Required', path: `${R}.apiVersions` },
        { type: 'Required', path: `${R}.resources` },
      ],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('rules: resources (rows 21-26, order-dependent per facts §9.3) and scope (row 27)', () => {
  const RES = `${R}.resources`;
  const resources = (list: string[]) => (c: Written) => {
    rule(c).resources = list;
  };
  runCases([
    { name: 'row 21: empty resources is Required', mutate: resources([]), errors: [{ type: 'Required', path: RES, text: `${RES}: Required value` }] },
    {
      name: 'row 22: an empty resource entry is Required',
      mutate: resources(['pods', '']),
      errors: [{ type: 'Required', path: `${RES}[1]`, text: `${RES}[1]: Required value` }],
    },
    {
      name: 'row 23: x/y after x/* is rejected',
      mutate: resources(['pods/*', 'pods/log']),
      errors: [{ type: 'Invalid', path: `${RES}[1]`, text: `${RES}[1]: Invalid value: "pods/log": if 'pods/*' is present, must not specify pods/log` }],
    },
    { name: 'row 23: x/y before x/* is accepted', mutate: resources(['pods/log', 'pods/*']), errors: [] },
    {
      name: 'row 24: x/y after */y is rejected',
      mutate: resources(['*/scale', 'deployments/scale']),
      errors: [{ type: 'Invalid', path: `${RES}[1]`, text: `${RES}[1]: Invalid value: "deployments/scale": if '*/scale' is present, must not specify deployments/scale` }],
    },
    { name: 'row 24: x/y before */y is accepted', mutate: resources(['deployments/scale', '*/scale']), errors: [] },
    {
      name: "row 25: '*/*' first with another entry is rejected",
      mutate: resources(['*/*', 'pods']),
      errors: [{ type: 'Invalid', path: RES, text: `${RES}: Invalid value: ["*/*","pods"]: if '*/*' is present, must not specify other resources` }],
    },
    {
      name: "row 25: '*/*' last with another entry is rejected too",
      mutate: resources(['pods', '*/*']),
      errors: [{ type: 'Invalid', path: RES, text: `${RES}: Invalid value: ["pods","*/*"]: if '*/*' is present, must not specify other resources` }],
    },
    { name: "row 25: '*/*' alone is accepted", mutate: resources(['*/*']), errors: [] },
    {
      name: "row 26: '*' then a plain resource is rejected",
      mutate: resources(['*', 'pods']),
      errors: [{ type: 'Invalid', path: RES, text: `${RES}: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources` }],
    },
    { name: "row 26: a plain resource then '*' is accepted (the last plain entry decides)", mutate: resources(['pods', '*']), errors: [] },
    { name: "row 26: '*' with a subresource is accepted", mutate: resources(['*', 'pods/log']), errors: [] },
    {
      name: 'row 27: scope in the wrong case is NotSupported',
      mutate: (c) => {
        rule(c).scope = 'cluster';
      },
      errors: [{ type: 'NotSupported', path: `${R}.scope`, text: `${R}.scope: Unsupported value: "cluster": supported values: "*", "Cluster", "Namespaced"` }],
    },
    {
      name: 'row 27: Namespaced is accepted',
      mutate: (c) => {
        rule(c).scope = 'Namespaced';
      },
      errors: [],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('enums (rows 28, 29, 34)', () => {
  runCases([
    {
      name: 'row 28: failurePolicy in the wrong case is NotSupported',
      mutate: (c) => {
        hook(c).failurePolicy = 'ignore';
      },
      errors: [{ type: 'NotSupported', path: `${W}.failurePolicy`, text: `${W}.failurePolicy: Unsupported value: "ignore": supported values: "Fail", "Ignore"` }],
    },
    {
      name: 'row 28: failurePolicy Ignore is accepted',
      mutate: (c) => {
        hook(c).failurePolicy = 'Ignore';
      },
      errors: [],
    },
    {
      name: 'row 29: an unknown matchPolicy is NotSupported',
      mutate: (c) => {
        hook(c).matchPolicy = 'Exactly';
      },
      errors: [{ type: 'NotSupported', path: `${W}.matchPolicy`, text: `${W}.matchPolicy: Unsupported value: "Exactly": supported values: "Equivalent", "Exact"` }],
    },
    {
      name: 'row 29: matchPolicy Exact is accepted',
      mutate: (c) => {
        hook(c).matchPolicy = 'Exact';
      },
      errors: [],
    },
    {
      name: 'row 34: an unknown reinvocationPolicy on a mutating webhook is NotSupported',
      mutate: (c) => {
        c.kind = 'MutatingWebhookConfiguration';
        hook(c).reinvocationPolicy = 'Always';
      },
      errors: [{ type: 'NotSupported', path: `${W}.reinvocationPolicy`, text: `${W}.reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"` }],
    },
    {
      name: 'row 34: reinvocationPolicy IfNeeded on a mutating webhook is accepted',
      mutate: (c) => {
        c.kind = 'MutatingWebhookConfiguration';
        hook(c).reinvocationPolicy = 'IfNeeded';
      },
      errors: [],
    },
    {
      name: 'row 34: reinvocationPolicy is not validated on a validating webhook (no such field)',
      mutate: (c) => {
        hook(c).reinvocationPolicy = 'Always';
      },
      errors: [],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('clientConfig (row 35) and url (rows 36-41)', () => {
  const url = (value: string) => (c: Written) => {
    hook(c).clientConfig = { url: value };
  };
  runCases([
    {
      name: 'row 35: both url and service is Required (and the url is not checked)',
      mutate: (c) => {
        hook(c).clientConfig!.url = 'http://user@example.com/x?a#b';
      },
      errors: [{ type: 'Required', path: `${W}.clientConfig`, text: `${W}.clientConfig: Required value: exactly one of url or service is required` }],
    },
    {
      name: 'row 35: neither url nor service is Required',
      mutate: (c) => {
        hook(c).clientConfig = { caBundle: 'Cg==' };
      },
      errors: [{ type: 'Required', path: `${W}.clientConfig`, text: `${W}.clientConfig: Required value: exactly one of url or service is required` }],
    },
    {
      name: 'row 35: a missing clientConfig is Required',
      mutate: (c) => {
        delete hook(c).clientConfig;
      },
      errors: [{ type: 'Required', path: `${W}.clientConfig` }],
    },
    { name: 'row 35: a plain https url is accepted', mutate: url('https://webhook.example.com:8443/validate'), errors: [] },
    {
      name: 'row 36: an unparsable url (bad port) is Required, not Invalid',
      mutate: url('https://example.com:abc/x'),
      errors: [
        {
          type: 'Required',
          path: URL_PATH,
          text: `${URL_PATH}: Required value: url must be a valid URL: parse "https://example.com:abc/x": invalid port ":abc" after host${FORM}`,
        },
      ],
    },
    {
      name: 'row 36: a space in the host does not parse',
      mutate: url('https://exa mple.com/'),
      errors: [{ type: 'Required', path: URL_PATH, text: `${URL_PATH}: Required value: url must be a valid URL: parse "https://exa mple.com/": invalid character " " in host name${FORM}` }],
    },
    {
      name: 'row 36: a bad %-escape in the path does not parse (and names the escape)',
      mutate: url('https://example.com/%zz'),
      errors: [{ type: 'Required', path: URL_PATH, text: `${URL_PATH}: Required value: url must be a valid URL: parse "https://example.com/%zz": invalid URL escape "%zz"${FORM}` }],
    },
    {
      name: 'row 36: a missing scheme before "://" does not parse',
      mutate: url('://example.com/x'),
      errors: [{ type: 'Required', path: URL_PATH, text: `${URL_PATH}: Required value: url must be a valid URL: parse "://example.com/x": missing protocol scheme${FORM}` }],
    },
    {
      name: 'row 37: an http url is Invalid (value = scheme)',
      mutate: url('http://example.com/validate'),
      errors: [{ type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "http": 'https' is the only allowed URL scheme${FORM}` }],
    },
    {
      name: 'row 37: the scheme is lowercased (HTTPS is https)',
      mutate: url('HTTPS://example.com/validate'),
      errors: [],
    },
    {
      name: 'rows 37+38: an empty-string url gives two errors (scheme and host)',
      mutate: url(''),
      errors: [
        { type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "": 'https' is the only allowed URL scheme${FORM}` },
        { type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "": host must be specified${FORM}` },
      ],
    },
    {
      name: 'row 38: an empty host is Invalid',
      mutate: url('https:///validate'),
      errors: [{ type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "": host must be specified${FORM}` }],
    },
    {
      name: 'row 39: user information is Invalid',
      mutate: url('https://admin:secret@example.com/validate'),
      errors: [{ type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "admin:secret": user information is not permitted in the URL` }],
    },
    {
      name: 'row 40: a fragment is Invalid',
      mutate: url('https://example.com/validate#pods'),
      errors: [{ type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "pods": fragments are not permitted in the URL` }],
    },
    {
      name: 'row 41: a query is Invalid',
      mutate: url('https://example.com/validate?kind=pod'),
      errors: [{ type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "kind=pod": query parameters are not permitted in the URL` }],
    },
    { name: 'row 41: a bare trailing ? is accepted (empty RawQuery)', mutate: url('https://example.com/validate?'), errors: [] },
    { name: 'row 41: any path is fine in a url (no segment check)', mutate: url('https://example.com/Validate_Pods//x/'), errors: [] },
    {
      name: 'rows 39-41: user, fragment and query together, in the API server order',
      mutate: url('https://u@example.com/x?q=1#f'),
      errors: [
        { type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "u": user information is not permitted in the URL` },
        { type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "f": fragments are not permitted in the URL` },
        { type: 'Invalid', path: URL_PATH, text: `${URL_PATH}: Invalid value: "q=1": query parameters are not permitted in the URL` },
      ],
    },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('service (rows 42-48)', () => {
  const path = (value: string) => (c: Written) => {
    service(c).path = value;
  };
  const SP = `${SVC}.path`;
  runCases([
    {
      name: 'row 42: empty service.name is reported at service.name, quoting the swapped path the API server prints',
      mutate: (c) => {
        service(c).name = '';
      },
      errors: [
        {
          type: 'Required',
          path: `${SVC}.name`,
          text: `${SVC}.name: Required value: the service name is empty (the API server reports this as "${SVC}.namespace: Required value", kubernetes/kubernetes#141353)`,
        },
      ],
    },
    {
      name: 'row 42: missing service.name likewise',
      mutate: (c) => {
        delete service(c).name;
      },
      errors: [{ type: 'Required', path: `${SVC}.name` }],
    },
    {
      name: 'row 43: empty service.namespace is reported at service.namespace, quoting service.name',
      mutate: (c) => {
        service(c).namespace = '';
      },
      errors: [
        {
          type: 'Required',
          path: `${SVC}.namespace`,
          text: `${SVC}.namespace: Required value: the service namespace is empty (the API server reports this as "${SVC}.name: Required value", kubernetes/kubernetes#141353)`,
        },
      ],
    },
    {
      name: 'rows 42+43: both empty',
      mutate: (c) => {
        hook(c).clientConfig = { service: {} };
      },
      errors: [
        { type: 'Required', path: `${SVC}.name` },
        { type: 'Required', path: `${SVC}.namespace` },
      ],
    },
    {
      name: 'row 44: an explicit port 0 is Invalid (not defaulted)',
      mutate: (c) => {
        service(c).port = 0;
      },
      errors: [{ type: 'Invalid', path: `${SVC}.port`, text: `${SVC}.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive` }],
    },
    {
      name: 'row 44: port 65536 is Invalid',
      mutate: (c) => {
        service(c).port = 65536;
      },
      errors: [{ type: 'Invalid', path: `${SVC}.port`, text: `${SVC}.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive` }],
    },
    {
      name: 'row 44: port 65535 is accepted',
      mutate: (c) => {
        service(c).port = 65535;
      },
      errors: [],
    },
    {
      name: 'row 44: an omitted port is defaulted to 443 and accepted',
      mutate: (c) => {
        delete service(c).port;
      },
      errors: [],
    },
    { name: 'row 45: "//" is Invalid segment[0]', mutate: path('//'), errors: [{ type: 'Invalid', path: SP, text: `${SP}: Invalid value: "//": segment[0] may not be empty` }] },
    {
      name: 'row 46: a path without a leading / is Invalid',
      mutate: path('validate'),
      errors: [{ type: 'Invalid', path: SP, text: `${SP}: Invalid value: "validate": must start with a '/'` }],
    },
    {
      name: 'row 46: "a/b" gives the leading-slash error and an empty segment[0]',
      mutate: path('a/b'),
      errors: [
        { type: 'Invalid', path: SP, text: `${SP}: Invalid value: "a/b": must start with a '/'` },
        { type: 'Invalid', path: SP, text: `${SP}: Invalid value: "a/b": segment[0] may not be empty` },
      ],
    },
    { name: 'row 47: "/a//b" has an empty segment[1]', mutate: path('/a//b'), errors: [{ type: 'Invalid', path: SP, text: `${SP}: Invalid value: "/a//b": segment[1] may not be empty` }] },
    { name: 'row 47: one trailing slash is dropped ("/a/" accepted)', mutate: path('/a/'), errors: [] },
    { name: 'row 47: "/" is accepted', mutate: path('/'), errors: [] },
    { name: 'row 47: an empty path is accepted', mutate: path(''), errors: [] },
    {
      name: 'row 48: "/validate_pods" is rejected (segment not a DNS subdomain)',
      mutate: path('/validate_pods'),
      errors: [{ type: 'Invalid', path: SP, text: `${SP}: Invalid value: "/validate_pods": segment[0]: ${SUBDOMAIN}` }],
    },
    {
      name: 'row 48: "/Validate" is rejected (uppercase)',
      mutate: path('/Validate'),
      errors: [{ type: 'Invalid', path: SP, text: `${SP}: Invalid value: "/Validate": segment[0]: ${SUBDOMAIN}` }],
    },
    {
      name: 'row 48: the kubebuilder style "/mutate-apps-v1-Deployment" is rejected at its segment index',
      mutate: path('/webhooks/mutate-apps-v1-Deployment'),
      errors: [{ type: 'Invalid', path: SP, text: `${SP}: Invalid value: "/webhooks/mutate-apps-v1-Deployment": segment[1]: ${SUBDOMAIN}` }],
    },
    { name: 'row 48: dotted lowercase segments are accepted', mutate: path('/apis/v1.example.com/validate-pods'), errors: [] },
  ]);
});

// ---------------------------------------------------------------------------------------------
describe('matchConditions (rows 49-56)', () => {
  const one = (expression: string, name = 'rule') => (c: Written) => conditions(c, [{ name, expression }]);
  const E = `${MC}[0].expression`;
  const N = `${MC}[0].name`;
  runCases([
    {
      name: 'row 49: 65 conditions is TooMany',
      mutate: (c) => conditions(c, Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }))),
      errors: [{ type: 'TooMany', path: MC, text: `${MC}: Too many: 65: must have at most 64 items` }],
    },
    {
      name: 'row 49: 64 conditions is accepted',
      mutate: (c) => conditions(c, Array.from({ length: 64 }, (_, i) => ({ name: `c${i}`, expression: 'true' }))),
      errors: [],
    },
    { name: 'row 50: a whitespace-only expression is Required', mutate: one(' \n\t '), errors: [{ type: 'Required', path: E, text: `${E}: Required value` }] },
    {
      name: 'row 50: a missing expression is Required',
      mutate: (c) => conditions(c, [{ name: 'rule' }]),
      errors: [{ type: 'Required', path: E, text: `${E}: Required value` }],
    },
    {
      name: 'row 51: a CEL syntax error is Invalid, value = the trimmed expression',
      mutate: one('  object.metadata.name ==  '),
      errors: [{ type: 'Invalid', path: E }],
    },
    {
      name: "row 53: `params.x == 1` is an undeclared reference (params doesn't exist for webhooks)",
      mutate: one('params.x == 1'),
      errors: [
        {
          type: 'Invalid',
          path: E,
          text: `${E}: Invalid value: "params.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^`,
        },
      ],
    },
    {
      name: 'row 53: each undeclared reference is one cel-go issue, with the snippet of its own line',
      mutate: one("request.operation == 'CREATE' &&\n  variables.enabled"),
      errors: [
        {
          type: 'Invalid',
          path: E,
          text: `${E}: Invalid value: "request.operation == 'CREATE' &&\\n  variables.enabled": compilation failed: ERROR: <input>:2:3: undeclared reference to 'variables' (in container '')\n |   variables.enabled\n | ..^`,
        },
      ],
    },
    {
      name: 'row 53: two undeclared references are joined by a newline, one prefix',
      mutate: one('usr == 1 || grp == 2'),
      errors: [
        {
          type: 'Invalid',
          path: E,
          text:
            `${E}: Invalid value: "usr == 1 || grp == 2": compilation failed: ` +
            "ERROR: <input>:1:1: undeclared reference to 'usr' (in container '')\n | usr == 1 || grp == 2\n | ^\n" +
            "ERROR: <input>:1:13: undeclared reference to 'grp' (in container '')\n | usr == 1 || grp == 2\n | ............^",
        },
      ],
    },
    {
      name: 'row 53: namespaceObject is declared in the admission CEL environment (compiles, null at run time)',
      mutate: one("namespaceObject.metadata.name != 'kube-system'"),
      errors: [],
    },
    { name: 'row 52: `6` is not bool', mutate: one('6'), errors: [{ type: 'Invalid', path: E, text: `${E}: Invalid value: "6": must evaluate to bool but got int` }] },
    { name: 'row 52: a string literal is not bool', mutate: one("'yes'"), errors: [{ type: 'Invalid', path: E, text: `${E}: Invalid value: "'yes'": must evaluate to bool but got string` }] },
    { name: 'row 54: an empty name is Required', mutate: one('true', ''), errors: [{ type: 'Required', path: N, text: `${N}: Required value` }] },
    { name: 'row 55: "-hello" is not a qualified name', mutate: one('true', '-hello'), errors: [{ type: 'Invalid', path: N, text: `${N}: Invalid value: "-hello": ${NAME_PART}` }] },
    { name: 'row 55: "some name" is not a qualified name', mutate: one('true', 'some name'), errors: [{ type: 'Invalid', path: N, text: `${N}: Invalid value: "some name": ${NAME_PART}` }] },
    { name: 'row 55: ".io" is not a qualified name', mutate: one('true', '.io'), errors: [{ type: 'Invalid', path: N, text: `${N}: Invalid value: ".io": ${NAME_PART}` }] },
    {
      name: 'row 55: a bad prefix is reported as "prefix part …"',
      mutate: one('true', 'Example.com/skip'),
      errors: [{ type: 'Invalid', path: N, text: `${N}: Invalid value: "Example.com/skip": prefix part ${SUBDOMAIN}` }],
    },
    { name: 'row 55: a prefixed name with _ and uppercase is accepted', mutate: one('true', 'example.com/Exclude_Leases'), errors: [] },
    {
      name: 'row 56: the same name twice in one webhook is Duplicate',
      mutate: (c) =>
        conditions(c, [
          { name: 'skip', expression: 'true' },
          { name: 'skip', expression: 'false' },
        ]),
      errors: [{ type: 'Duplicate', path: `${MC}[1].name`, text: `${MC}[1].name: Duplicate value: "skip"` }],
    },
    {
      name: "row 56: the Duplicate comes after that condition's own errors",
      mutate: (c) =>
        conditions(c, [
          { name: 'skip', expression: 'true' },
          { name: 'skip', expression: '6' },
        ]),
      errors: [
        { type: 'Invalid', path: `${MC}[1].expression` },
        { type: 'Duplicate', path: `${MC}[1].name` },
      ],
    },
    {
      name: 'row 56: two empty names are Required twice, not a Duplicate',
      mutate: (c) =>
        conditions(c, [
          { name: '', expression: 'true' },
          { name: '', expression: 'true' },
        ]),
      errors: [
        { type: 'Required', path: `${MC}[0].name` },
        { type: 'Required', path: `${MC}[1].name` },
      ],
    },
    {
      name: 'row 56: the same name in two webhooks is accepted',
      mutate: (c) => {
        c.webhooks.push(writtenWebhook('deployments.demo.example.com'));
        hook(c, 0).matchConditions = [{ name: 'skip', expression: 'true' }];
        hook(c, 1).matchConditions = [{ name: 'skip', expression: 'true' }];
      },
      errors: [],
    },
  ]);

  it('row 51: the syntax error text has the cel-go shape and quotes the trimmed expression', () => {
    const errors = check(one('  object.metadata.name ==  '));
    expect(errors).toHaveLength(1);
    const text = formatFieldError(errors[0]!);
    expect(text.startsWith(`${E}: Invalid value: "object.metadata.name ==": compilation failed: ERROR: <input>:1:`)).toBe(true);
    expect(text).toContain(': Syntax error: ');
    expect(text).toContain('\n | object.metadata.name ==\n | ');
  });

  it.each([
    "request.userInfo.username != 'system:kube-scheduler'",
    "!('system:serviceaccounts:kube-system' in request.userInfo.groups)",
    "object.metadata.?labels.?team.orValue('') == 'a'",
    "authorizer.group('').resource('pods').check('create').allowed()",
    "object.spec.containers.all(c, c.image.startsWith('registry.k8s.io/'))",
    "authorizer.requestResource.check('get').allowed()",
    "has(object.metadata.labels) && object.metadata.labels.exists(k, k.startsWith('team'))",
    'object.metadata.labels.exists_one(k, v, k == "app" && v == "web")',
    "ip(object.spec.clusterIP).family() == 4 && type(ip('::1')) == net.IP",
    'object.?spec.?replicas.optMap(r, r + 1).orValue(0) > 0',
    "oldObject == null || oldObject.metadata.generation != object.metadata.generation",
    "request.operation in ['CREATE', 'UPDATE'] &&\n  size(object.spec.containers) > 0",
  ])('rows 51-53: the valid expression %j gives no error', (expression) => {
    expect(check(one(expression))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
describe('matchConditions: type-checked in the environment of the target version (issue 16)', () => {
  const E = `${MC}[0].expression`;
  /** The field errors of one matchCondition on a server of 1.<minor>, as kubectl prints them. */
  const at = (minor: number, expression: string): string[] => {
    const config = written();
    conditions(config, [{ name: 'rule', expression }]);
    const { effective } = defaultWebhookConfiguration(config, config.apiVersion, config.kind);
    return validateWebhookConfiguration(effective as WebhookConfiguration, { major: 1, minor }).map(formatFieldError);
  };

  it('reports an undeclared member function with the API server text, at the expression', () => {
    expect(at(35, "object.metadata.name.startWith('x')")).toEqual([
      `${E}: Invalid value: "object.metadata.name.startWith('x')": compilation failed: ERROR: <input>:1:31: undeclared reference to 'startWith' (in container '')\n | object.metadata.name.startWith('x')\n | ..............................^`,
    ]);
  });

  it('reports cel.bind, which no Kubernetes version declares (ext.Bindings is not in environment/base.go)', () => {
    const [text] = at(35, "cel.bind(ns, request.namespace, ns != 'kube-system')");
    expect(text).toMatch(/^webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: .*compilation failed: ERROR: <input>:1:1: undeclared reference to 'cel' \(in container ''\)/);
  });

  it('reports a dyn result where bool is required, and a wrong overload', () => {
    expect(at(35, 'object.spec.enabled')).toEqual([`${E}: Invalid value: "object.spec.enabled": must evaluate to bool but got dyn`]);
    expect(at(35, "request.userInfo.groups.size() > '1'")).toEqual([
      `${E}: Invalid value: "request.userInfo.groups.size() > '1'": compilation failed: ERROR: <input>:1:32: found no matching overload for '_>_' applied to '(int, string)'\n | request.userInfo.groups.size() > '1'\n | ...............................^`,
    ]);
  });

  it('follows the version: what base.go added at 1.N is accepted from 1.N+1 (new expressions compile in the previous minor)', () => {
    const sort = '[3, 1, 2].sort() == [1, 2, 3]';
    expect(at(34, sort)).toEqual([`${E}: Invalid value: "${sort}": compilation failed: ERROR: <input>:1:15: undeclared reference to 'sort' (in container '')\n | ${sort}\n | ..............^`]);
    expect(at(35, sort)).toEqual([]);
    // The literal validators came with the 1.29 environment: a 1.29 server accepts what a 1.30 one rejects.
    const duration = "duration('1d') > duration('0s')";
    expect(at(29, duration)).toEqual([]);
    expect(at(30, duration)[0]).toContain('invalid duration argument');
  });

  it('before 1.28 (no versioned environment) keeps to the untyped checks', () => {
    expect(at(27, "object.metadata.name.startWith('x')")).toEqual([]);
    expect(at(27, 'params.x == 1')[0]).toContain("undeclared reference to 'params'");
  });

  it.each([
    ["a null against a string in a ternary (the checker's nullability reading)", "(object.metadata.name == 'a' ? 'x' : null) == 'x'"],
    ['a function whose release the data cannot pin', "image(object.spec.containers[0].image).registry() == 'registry.k8s.io'"],
  ])('says nothing where the checker is not sure: %s', (_name, expression) => {
    expect(at(35, expression)).toEqual([]);
  });

  it('accepts what the untyped check used to reject: two-variable macros, optMap, net.IP as a value', () => {
    for (const expression of ['object.metadata.labels.exists_one(k, v, k == "app")', 'object.?spec.?replicas.optMap(r, r + 1).orValue(0) > 0', "type(ip('::1')) == net.IP"]) {
      expect(at(35, expression)).toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('selectors (row 33, facts §2.1)', () => {
  const NS = `${W}.namespaceSelector`;
  const OS = `${W}.objectSelector`;
  runCases([
    {
      name: '§2.1 matchLabels: an invalid key is Invalid at matchLabels (no key in the path)',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchLabels: { '-team': 'a' } };
      },
      errors: [{ type: 'Invalid', path: `${NS}.matchLabels`, text: `${NS}.matchLabels: Invalid value: "-team": ${NAME_PART}` }],
    },
    {
      name: '§2.1 matchLabels: an invalid value is Invalid at matchLabels',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchLabels: { team: 'a b' } };
      },
      errors: [{ type: 'Invalid', path: `${NS}.matchLabels`, text: `${NS}.matchLabels: Invalid value: "a b": ${LABEL_VALUE}` }],
    },
    {
      name: '§2.1 matchLabels: a value of 64 characters is too long',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchLabels: { team: 'a'.repeat(64) } };
      },
      errors: [{ type: 'Invalid', path: `${NS}.matchLabels`, text: `${NS}.matchLabels: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters` }],
    },
    {
      name: '§2.1 matchLabels: an empty value and a prefixed key are accepted',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': 'default', opt: '' } };
      },
      errors: [],
    },
    {
      name: '§2.1 matchExpressions: In without values is Required',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'In' }] };
      },
      errors: [{ type: 'Required', path: `${NS}.matchExpressions[0].values`, text: `${NS}.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'` }],
    },
    {
      name: '§2.1 matchExpressions: NotIn with an empty list is Required',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'NotIn', values: [] }] };
      },
      errors: [{ type: 'Required', path: `${NS}.matchExpressions[0].values` }],
    },
    {
      name: '§2.1 matchExpressions: Exists with values is Forbidden',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'Exists', values: ['a'] }] };
      },
      errors: [
        {
          type: 'Forbidden',
          path: `${NS}.matchExpressions[0].values`,
          text: `${NS}.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
        },
      ],
    },
    {
      name: '§2.1 matchExpressions: an operator in the wrong case is Invalid',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'in', values: ['a'] }] };
      },
      errors: [{ type: 'Invalid', path: `${NS}.matchExpressions[0].operator`, text: `${NS}.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator` }],
    },
    {
      name: '§2.1 matchExpressions: Equals is not an operator',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'Equals', values: ['a'] }] };
      },
      errors: [{ type: 'Invalid', path: `${NS}.matchExpressions[0].operator` }],
    },
    {
      name: '§2.1 matchExpressions: an invalid key is Invalid at key',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team name', operator: 'Exists' }] };
      },
      errors: [{ type: 'Invalid', path: `${NS}.matchExpressions[0].key`, text: `${NS}.matchExpressions[0].key: Invalid value: "team name": ${NAME_PART}` }],
    },
    {
      name: '§2.1 matchExpressions: an invalid value is Invalid at values[n]',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b/c'] }] };
      },
      errors: [{ type: 'Invalid', path: `${NS}.matchExpressions[0].values[1]`, text: `${NS}.matchExpressions[0].values[1]: Invalid value: "b/c": ${LABEL_VALUE}` }],
    },
    {
      name: '§2.1 order: operator, then key, then values within one requirement',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: '-k', operator: 'Is', values: ['-v'] }] };
      },
      errors: [
        { type: 'Invalid', path: `${NS}.matchExpressions[0].operator` },
        { type: 'Invalid', path: `${NS}.matchExpressions[0].key` },
        { type: 'Invalid', path: `${NS}.matchExpressions[0].values[0]` },
      ],
    },
    {
      name: '§2.1 order: matchLabels errors come before matchExpressions errors',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'In' }], matchLabels: { '-team': 'a' } };
      },
      errors: [
        { type: 'Invalid', path: `${NS}.matchLabels` },
        { type: 'Required', path: `${NS}.matchExpressions[0].values` },
      ],
    },
    {
      name: 'row 33: objectSelector is validated the same way, under its own path, after namespaceSelector',
      mutate: (c) => {
        hook(c).objectSelector = { matchExpressions: [{ key: 'app', operator: 'DoesNotExist', values: ['x'] }] };
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'team', operator: 'NotIn' }] };
      },
      errors: [
        { type: 'Required', path: `${NS}.matchExpressions[0].values` },
        { type: 'Forbidden', path: `${OS}.matchExpressions[0].values` },
      ],
    },
    {
      name: 'row 33: a typical kube-system exclusion is accepted',
      mutate: (c) => {
        hook(c).namespaceSelector = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'webhooks'] }] };
        hook(c).objectSelector = { matchLabels: { 'app.kubernetes.io/managed-by': 'demo' } };
      },
      errors: [],
    },
  ]);

  it('§2.1 matchLabels: the finding points at the offending key (locateAt), the API path stops at matchLabels', () => {
    const errors = check((c) => {
      hook(c).objectSelector = { matchLabels: { ok: 'a', 'bad key': 'a' } };
    });
    expect(errors).toHaveLength(1);
    expect(formatFieldPath(errors[0]!.path)).toBe(`${OS}.matchLabels`);
    expect(errors[0]!.locateAt).toEqual(['webhooks', 0, 'objectSelector', 'matchLabels', 'bad key']);
  });
});

// ---------------------------------------------------------------------------------------------
describe('order across a webhook (the API server order)', () => {
  it('name, rules, failurePolicy, matchPolicy, selectors, reinvocationPolicy, clientConfig, matchConditions, admissionReviewVersions, duplicate name', () => {
    const errors = check((c) => {
      c.kind = 'MutatingWebhookConfiguration';
      const second = writtenWebhook('pods.demo.example.com');
      c.webhooks.push(second);
      second.admissionReviewVersions = ['v3'];
      second.matchConditions = [{ name: 'x', expression: '1' }];
      second.clientConfig = { url: 'http://example.com' };
      second.reinvocationPolicy = 'Sometimes';
      second.objectSelector = { matchExpressions: [{ key: 'a', operator: 'In' }] };
      second.namespaceSelector = { matchExpressions: [{ key: 'a', operator: 'In' }] };
      second.matchPolicy = 'Fuzzy';
      second.failurePolicy = 'Maybe';
      second.rules = [{ operations: ['GET'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
      c.metadata = { name: 'Demo' };
    });
    expect(summary(errors)).toEqual([
      { type: 'Invalid', path: 'metadata.name' },
      { type: 'NotSupported', path: 'webhooks[1].rules[0].operations[0]' },
      { type: 'NotSupported', path: 'webhooks[1].failurePolicy' },
      { type: 'NotSupported', path: 'webhooks[1].matchPolicy' },
      { type: 'Required', path: 'webhooks[1].namespaceSelector.matchExpressions[0].values' },
      { type: 'Required', path: 'webhooks[1].objectSelector.matchExpressions[0].values' },
      { type: 'NotSupported', path: 'webhooks[1].reinvocationPolicy' },
      { type: 'Invalid', path: 'webhooks[1].clientConfig.url' },
      { type: 'Invalid', path: 'webhooks[1].matchConditions[0].expression' },
      { type: 'Invalid', path: 'webhooks[1].admissionReviewVersions' },
      { type: 'Duplicate', path: 'webhooks[1].name' },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// End to end: YAML text → api-validation findings, with positions.

function yaml(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

const HEADER = ['apiVersion: admissionregistration.k8s.io/v1', 'kind: ValidatingWebhookConfiguration'];

describe('end to end through the api-validation rule', () => {
  it('row 15: an unsupported operation points at the list item', async () => {
    const findings = await lintText(
      yaml([
        ...HEADER,
        'metadata:',
        '  name: demo',
        'webhooks:',
        '  - name: pods.demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig:',
        '      url: https://demo.example.com/validate',
        '    rules:',
        '      - operations: [CREATE, PATCH]',
        '        apiGroups: [""]',
        '        apiVersions: [v1]',
        '        resources: [pods]',
      ]),
      { only: ['api-validation'] },
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      ruleId: 'api-validation',
      severity: 'error',
      fieldPath: 'webhooks[0].rules[0].operations[1]',
      line: 12,
      column: 30,
      endLine: 12,
      endColumn: 35,
      webhook: 'pods.demo.example.com',
      message: 'webhooks[0].rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    });
  });

  it('row 23: pods/log after pods/* points at the later entry; the reverse order is clean', async () => {
    const doc = (resources: string) =>
      yaml([
        ...HEADER,
        'metadata: {name: demo}',
        'webhooks:',
        '  - name: pods.demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig: {service: {namespace: webhooks, name: demo}}',
        '    rules:',
        '      - operations: [CONNECT]',
        '        apiGroups: [""]',
        '        apiVersions: [v1]',
        `        resources: ${resources}`,
      ]);
    const rejected = await lintText(doc('["pods/*", "pods/log"]'), { only: ['api-validation'] });
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ fieldPath: 'webhooks[0].rules[0].resources[1]', line: 13, column: 31, endLine: 13, endColumn: 41, severity: 'error' });
    expect(await lintText(doc('["pods/log", "pods/*"]'), { only: ['api-validation'] })).toEqual([]);
  });

  it('row 42: an empty service.name is reported at service.name (key start to value end)', async () => {
    const findings = await lintText(
      yaml([
        ...HEADER,
        'metadata: {name: demo}',
        'webhooks:',
        '  - name: pods.demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig:',
        '      service:',
        '        namespace: webhooks',
        '        name: ""',
        '        path: /validate',
        '    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]',
      ]),
      { only: ['api-validation'] },
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      ruleId: 'api-validation',
      severity: 'error',
      fieldPath: 'webhooks[0].clientConfig.service.name',
      line: 11,
      column: 9,
      endLine: 11,
      endColumn: 17,
    });
    expect(findings[0]!.message).toContain('"webhooks[0].clientConfig.service.namespace: Required value"');
  });

  it('§2.1: a bad matchLabels key is reported at matchLabels, positioned on the key line', async () => {
    const findings = await lintText(
      yaml([
        ...HEADER,
        'metadata: {name: demo}',
        'webhooks:',
        '  - name: pods.demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig: {url: "https://demo.example.com/validate"}',
        '    namespaceSelector:',
        '      matchLabels:',
        '        team: payments',
        '        -tier: backend',
        '    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]',
      ]),
      { only: ['api-validation'] },
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      ruleId: 'api-validation',
      severity: 'error',
      fieldPath: 'webhooks[0].namespaceSelector.matchLabels',
      line: 12,
      column: 9,
      endLine: 12,
      endColumn: 23,
      message: `webhooks[0].namespaceSelector.matchLabels: Invalid value: "-tier": ${NAME_PART}`,
    });
  });

  it('rows 8, 49-56: a duplicate webhook name and a bad matchCondition, in file order', async () => {
    const findings = await lintText(
      yaml([
        ...HEADER,
        'metadata: {name: demo}',
        'webhooks:',
        '  - name: pods.demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig: {url: "https://demo.example.com/a"}',
        '    matchConditions:',
        '      - name: not-scheduler',
        "        expression: request.userInfo.username != 'system:kube-scheduler'",
        '      - name: uses-params',
        '        expression: params.enabled == true',
        '  - name: pods.demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig: {url: "https://demo.example.com/b"}',
      ]),
      { only: ['api-validation'] },
    );
    expect(findings.map((f) => ({ fieldPath: f.fieldPath, line: f.line, column: f.column, severity: f.severity }))).toEqual([
      { fieldPath: 'webhooks[0].matchConditions[1].expression', line: 13, column: 9, severity: 'error' },
      { fieldPath: 'webhooks[1].name', line: 14, column: 5, severity: 'error' },
    ]);
    expect(findings[0]!.message).toBe(
      "webhooks[0].matchConditions[1].expression: Invalid value: \"params.enabled == true\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.enabled == true\n | ^",
    );
    expect(findings[1]!.message).toBe('webhooks[1].name: Duplicate value: "pods.demo.example.com"');
  });

  it('row 1 and a clean file: only the missing name is reported', async () => {
    const findings = await lintText(
      yaml([
        ...HEADER,
        'metadata:',
        '  labels: {app: demo}',
        'webhooks:',
        '  - name: pods.demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig: {service: {namespace: webhooks, name: demo, path: /validate-pods}}',
        '    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]',
      ]),
      { only: ['api-validation'] },
    );
    expect(findings).toHaveLength(1);
    // metadata.name is not written: the finding falls back to the closest written ancestor.
    expect(findings[0]).toMatchObject({ fieldPath: 'metadata.name', line: 3, column: 1, severity: 'error', message: 'metadata.name: Required value: name or generateName is required' });
  });
});
