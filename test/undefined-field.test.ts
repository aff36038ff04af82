/**
 * The kind-aware abstract evaluation behind undefined-field (src/cel/abstract.ts with
 * src/kube/fields.ts): which reads of a matched kind's absent fields can fail an expression.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AbstractEvaluator, isNullFailure, type Scenario } from '../src/cel/abstract.js';
import { Meter } from '../src/cel/budget.js';
import { parseBounded } from '../src/cel/evaluate.js';
import { prepareCel } from '../src/cel/library.js';
import { fieldShape, kindShape } from '../src/kube/fields.js';

function scenario(group: string, version: string, kind: string, resource: string, operation = 'CREATE'): Scenario {
  const shape = kindShape(group, version, kind);
  if (shape === undefined) throw new Error(`no shape for ${kind}`);
  const known = { shape, kind, apiVersion: group === '' ? version : `${group}/${version}` };
  return {
    operation,
    nulls: new Set(operation === 'CREATE' ? ['oldObject', 'namespaceObject'] : ['namespaceObject']),
    present: new Set(['object', 'request', ...(operation === 'CREATE' ? [] : ['oldObject'])]),
    objects: new Map(operation === 'CREATE' ? [['object', known]] : [['object', known], ['oldObject', known]]),
    request: { 'kind.group': group, 'kind.version': version, 'kind.kind': kind, 'resource.group': group, 'resource.version': version, 'resource.resource': resource },
    requestAbsent: new Set(['subResource']),
  };
}

beforeAll(prepareCel);

const POD = scenario('', 'v1', 'Pod', 'pods');
const DEPLOYMENT = scenario('apps', 'v1', 'Deployment', 'deployments');

/** The absent-field paths that can fail the expression, and whether it always fails. */
function failures(expression: string, on: Scenario): { paths: string[]; always: boolean } {
  const ast = parseBounded(expression);
  if (ast === undefined) throw new Error(`does not parse: ${expression}`);
  const value = new AbstractEvaluator(on, new Meter()).evaluate(ast);
  const paths = [...value.errors.keys()].filter((source) => !isNullFailure(source));
  return { paths, always: value.values !== undefined && value.values.length === 0 };
}

describe('the fields of built-in kinds (k8s.io/api v0.35.0)', () => {
  it('knows the pod spec and the workloads around it', () => {
    const pod = kindShape('', 'v1', 'Pod');
    expect(pod?.kind).toBe('struct');
    if (pod?.kind !== 'struct') return;
    expect(fieldShape(pod, 'spec').declared).toBe(true);
    expect(fieldShape(pod, 'template').declared).toBe(false);
    const deployment = kindShape('apps', 'v1', 'Deployment');
    if (deployment?.kind !== 'struct') throw new Error('no Deployment');
    const spec = fieldShape(deployment, 'spec').shape;
    if (spec?.kind !== 'struct') throw new Error('no DeploymentSpec');
    // template has no omitempty: the object always has it; replicas may be absent.
    expect(fieldShape(spec, 'template')).toMatchObject({ declared: true, required: true });
    expect(fieldShape(spec, 'replicas')).toMatchObject({ declared: true, required: false });
    expect(fieldShape(spec, 'containers').declared).toBe(false);
  });

  it('does not know custom resources or group versions it was not generated for', () => {
    expect(kindShape('example.com', 'v1', 'Widget')).toBeUndefined();
    expect(kindShape('apps', 'v1beta1', 'Deployment')).toBeUndefined();
  });
});

describe('kind-aware abstract evaluation', () => {
  it('a field the kind lacks fails every request that reads it', () => {
    expect(failures('object.spec.replicas > 0', POD)).toEqual({ paths: ['object.spec.replicas'], always: true });
    expect(failures('object.spec.replicas > 0', DEPLOYMENT)).toEqual({ paths: [], always: false });
  });

  it('has() of a field the kind lacks is false, of one it always writes true', () => {
    expect(failures('has(object.spec.template) ? object.spec.template.spec.containers.size() > 0 : object.spec.containers.size() > 0', POD).paths).toEqual([]);
    expect(failures('has(object.spec.template) ? object.spec.template.spec.containers.size() > 0 : object.spec.containers.size() > 0', DEPLOYMENT).paths).toEqual([]);
    // The template is always there: the Pod branch is never taken on a Deployment.
    expect(failures('!has(object.spec.template) && object.spec.containers.size() > 0', DEPLOYMENT).paths).toEqual([]);
  });

  it('a guard on another path does not protect the read', () => {
    const expression = "!has(object.spec.initContainers) || object.spec.template.spec.initContainers.all(c, c.image != '')";
    expect(failures(expression, POD)).toEqual({ paths: ['object.spec.template'], always: false });
  });

  it('&& and || absorb the error where the other side decides', () => {
    expect(failures("object.kind == 'Deployment' && object.spec.template.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("object.kind != 'Deployment' || object.spec.template.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("request.kind.kind == 'Pod' || object.spec.containers.size() > 0", DEPLOYMENT).paths).toEqual(['object.spec.containers']);
  });

  it('reads known request fields and unrolls all and exists over literal lists', () => {
    expect(failures("request.resource.resource == 'pods' || object.spec.template.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("request.resource.resource != 'pods' || object.spec.template.spec.hostNetwork", POD).paths).toEqual(['object.spec.template']);
    expect(failures("['Deployment', 'StatefulSet'].all(k, object.kind != k) || object.spec.template.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("['Deployment', 'Pod'].exists(k, object.kind == k) && object.spec.template.spec.hostNetwork", POD).paths).toEqual(['object.spec.template']);
  });

  it('follows list elements into macros, and leaves maps, optionals and escaped names alone', () => {
    expect(failures('object.spec.containers.all(c, c.securityContext.runAsNonroot)', POD).paths).toEqual(['object.spec.containers[].securityContext.runAsNonroot']);
    expect(failures('object.spec.containers.all(c, c.securityContext.runAsNonRoot)', POD).paths).toEqual([]);
    expect(failures("object.metadata.labels.team == 'a' && object.metadata.annotations['x'] == 'b'", POD).paths).toEqual([]);
    expect(failures('object.spec.?template.orValue(null) == null', POD).paths).toEqual([]);
    expect(failures('object.metadata.__namespace__ == "a"', POD).paths).toEqual([]);
  });

  it('reads oldObject on UPDATE with the same kind', () => {
    expect(failures('oldObject.spec.template == object.spec.template', scenario('', 'v1', 'Pod', 'pods', 'UPDATE')).paths).toEqual(['oldObject.spec.template', 'object.spec.template']);
  });

  it('takes a variable evaluated for the scenario where it is read', () => {
    const variable = parseBounded('object.spec.template')!;
    const template = new AbstractEvaluator(POD, new Meter()).evaluate(variable);
    const withVariable: Scenario = { ...POD, variables: new Map([['tpl', template]]) };
    expect(failures('variables.tpl.spec.hostNetwork', withVariable).paths).toEqual(['object.spec.template']);
    expect(failures('true || variables.tpl.spec.hostNetwork', withVariable).paths).toEqual([]);
  });

  it('takes a struct held by value as always there, even with omitempty (runtime/converter.go isEmpty)', () => {
    expect(failures('!has(object.spec) && object.spec.template.spec.hostNetwork', DEPLOYMENT).paths).toEqual([]);
    expect(failures('object.spec.containers.all(c, !has(c.resources) && c.resources.bogus)', POD).paths).toEqual([]);
    // A pointer field with omitempty may be absent: has() stays unknown.
    expect(failures('has(object.spec.affinity) || object.spec.bogus', POD).paths).toEqual(['object.spec.bogus']);
  });

  it("answers 'f' in a struct, optional chains' hasValue(), and the keys of a struct as has() does", () => {
    expect(failures("'template' in object.spec ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures('object.?spec.?template.hasValue() ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', POD).paths).toEqual([]);
    expect(failures('object.?spec.?template.hasValue() ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', DEPLOYMENT).paths).toEqual([]);
    expect(failures("object.spec.exists(k, k == 'template') ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("object.spec.exists(k, k == 'hostNetwork') && object.spec.template.spec.hostNetwork", POD).paths).toEqual(['object.spec.template']);
  });

  it('evaluates functions of the known kind, apiVersion and request fields', () => {
    expect(failures("object.apiVersion.startsWith('apps/') ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("object.kind.lowerAscii() == 'pod' || object.spec.template.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures('has(request.subResource) ? object.target.name != "" : object.spec.nodeName != ""', POD).paths).toEqual([]);
  });

  it('takes a list written without omitempty as maybe null: == null is not decided', () => {
    const clusterRole = scenario('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles');
    expect(failures('object.rules == null || object.rules.all(r, r.bogus == 1)', clusterRole)).toEqual({ paths: ['object.rules[].bogus'], always: false });
  });

  it('takes a struct held by value, and the object itself, as never null', () => {
    expect(failures('object.spec.template.spec != null ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', DEPLOYMENT).paths).toEqual([]);
    expect(failures('object == null ? oldObject.spec.template.spec.hostNetwork : true', scenario('', 'v1', 'Pod', 'pods', 'UPDATE')).paths).toEqual([]);
  });

  it('follows optionals: none, of, [?], orValue and value', () => {
    expect(failures('object.?spec.?template == optional.none() ? object.spec.hostNetwork : object.spec.template.spec.hostNetwork', POD).paths).toEqual([]);
    expect(failures("object.spec[?'template'].hasValue() ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures('optional.of(object.spec).?template.hasValue() ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', DEPLOYMENT).paths).toEqual([]);
    expect(failures('object.spec.?template.orValue(null) == null ? object.spec.hostNetwork : object.spec.template.spec.hostNetwork', POD).paths).toEqual([]);
    // orValue's and or's argument is evaluated only when the optional is empty (cel-go evaluates them lazily).
    expect(failures('object.spec.?template.orValue(object.spec.containers) != null', DEPLOYMENT).paths).toEqual([]);
    expect(failures('object.spec.?template.orValue(object.spec.bogus) != null', POD).paths).toEqual(['object.spec.bogus']);
    expect(failures('object.spec.?containers.or(optional.of(object.spec.template)).hasValue()', POD).paths).toEqual([]);
    // A plain selection after .? chains the optional.
    expect(failures('object.?spec.template.hasValue() ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', POD).paths).toEqual([]);
    // An optional equals no value of another type.
    expect(failures('object.?spec.?template != null || object.spec.bogus == 1', POD).paths).toEqual([]);
    expect(failures("object.?kind.hasValue() && object.exists(k, k == 'kind') || object.spec.template.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("object.?kind.orValue('') == 'Pod' ? object.spec.hostNetwork : object.spec.template.spec.hostNetwork", POD).paths).toEqual([]);
    expect(failures("object.?kind.orValue('') == 'Pod' ? object.spec.hostNetwork : object.spec.template.spec.hostNetwork", DEPLOYMENT).paths).toEqual([]);
  });

  it('keeps small lists of scalars and map keys known, also through variables', () => {
    const kinds = new AbstractEvaluator(DEPLOYMENT, new Meter()).evaluate(parseBounded("['Deployment', 'StatefulSet']")!);
    const kindMap = new AbstractEvaluator(DEPLOYMENT, new Meter()).evaluate(parseBounded("{'Deployment': true, 'Job': true}")!);
    const withKinds: Scenario = { ...DEPLOYMENT, variables: new Map([['kinds', kinds], ['kindMap', kindMap]]) };
    expect(failures('object.kind in variables.kinds ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', withKinds).paths).toEqual([]);
    expect(failures('variables.kinds.exists(k, object.kind == k) ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', withKinds).paths).toEqual([]);
    expect(failures('object.kind in variables.kindMap ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', withKinds).paths).toEqual([]);
  });

  it('tests has() over an optional chain as over the plain one', () => {
    expect(failures('has(object.?spec.template) ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', POD).paths).toEqual([]);
    expect(failures('has(object.?spec.template) ? object.spec.template.spec.hostNetwork : object.spec.hostNetwork', DEPLOYMENT).paths).toEqual([]);
  });
});

