/** mutator-ordering beyond its fixtures: alternatives, copies, Namespace objects, custom resources, versions, validating webhooks. */
import { describe, expect, it } from 'vitest';
import { lintText, PODS_RULE as PODS, webhookConfiguration as configuration, webhookEntry } from './helpers.js';

const webhook = (name: string, rules: string, extra = ''): string => webhookEntry(name, rules, { extra });

const lint = async (...documents: string[]) => lintText(documents.join('---\n'), { only: ['mutator-ordering'] });
/** The message, then the help, which holds the whole set in calling order. */
const findings = async (...documents: string[]) => (await lint(...documents)).map((f) => `${f.object?.name} ${f.webhook} ${f.fieldPath} | ${f.message} | ${f.help}`);

describe('mutator-ordering', () => {
  it('reports an info on the first webhook of the set, at its list item', async () => {
    const [finding, ...rest] = await lint(configuration('Mutating', 'b', webhook('two.example.com', PODS)), configuration('Mutating', 'a', webhook('one.example.com', PODS)));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ ruleId: 'mutator-ordering', severity: 'info', fieldPath: 'webhooks[0]', webhook: 'one.example.com', object: { name: 'a' } });
    expect(finding?.message).toBe('"one.example.com" is not reinvoked after later mutations of CREATE pods (v1) in an unlabelled namespace');
    expect(finding?.help).toContain('in this order (by configuration name, then list order): 1. "a/one.example.com" (Never, the API default), 2. "b/two.example.com" (Never, the API default);');
    expect(finding?.help).toMatch(/validating webhook or a ValidatingAdmissionPolicy/);
  });

  it('ignores validating webhooks: they run after every mutation', async () => {
    expect(await findings(configuration('Mutating', 'a', webhook('one.example.com', PODS)), configuration('Validating', 'b', webhook('two.example.com', PODS)))).toEqual([]);
  });

  it('of alternative configurations (same name) counts the one with more webhooks in the set', async () => {
    const result = await findings(
      configuration('Mutating', 'mesh', webhook('proxy.example.com', PODS)),
      configuration('Mutating', 'mesh', webhook('proxy.example.com', PODS), webhook('init.example.com', PODS)),
      configuration('Mutating', 'zz-limits', webhook('limits.example.com', PODS)),
    );
    expect(result).toEqual([expect.stringMatching(/^mesh proxy\.example\.com webhooks\[0\] \| .* \| The API server calls these 3 mutating webhooks .*"mesh\/proxy\.example\.com".*"mesh\/init\.example\.com".*"zz-limits\/limits\.example\.com"/)]);
  });

  it('drops a copy of a webhook in another configuration, but not a webhook of the same name that matches differently', async () => {
    const selected = '    objectSelector: {matchLabels: {inject: "true"}}\n';
    expect(await findings(configuration('Mutating', 'injector', webhook('inject.example.com', PODS, selected)), configuration('Mutating', 'injector-tag', webhook('inject.example.com', PODS, selected)))).toEqual([]);
    expect(await findings(configuration('Mutating', 'injector', webhook('inject.example.com', PODS, selected)), configuration('Mutating', 'injector-tag', webhook('inject.example.com', PODS)))).toEqual([
      expect.stringContaining('"injector/inject.example.com" (Never, the API default), 2. "injector-tag/inject.example.com"'),
    ]);
  });

  it('counts two objectSelectors on different keys together: one object can carry both labels', async () => {
    const result = await findings(
      configuration('Mutating', 'a', webhook('one.example.com', PODS, '    objectSelector: {matchLabels: {mesh: "on"}}\n')),
      configuration('Mutating', 'b', webhook('two.example.com', PODS, '    objectSelector: {matchLabels: {secrets: "on"}}\n')),
    );
    expect(result).toEqual([expect.stringContaining('is not reinvoked after later mutations of CREATE pods (v1)')]);
  });

  it('evaluates Namespace objects with their own labels', async () => {
    const namespaces = '{operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"]}';
    const labelled = '    namespaceSelector: {matchLabels: {team: "a"}}\n';
    const a = configuration('Mutating', 'a', webhook('one.example.com', namespaces, labelled));
    const b = configuration('Mutating', 'b', webhook('two.example.com', namespaces));
    expect(await findings(a, b)).toEqual([]);
    const namespace = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels: {team: "a"}\n';
    expect(await findings(namespace, a, b)).toEqual([expect.stringContaining('is not reinvoked after later mutations of CREATE namespaces (v1) in namespace team-a')]);
  });

  it('finds custom resources whose CRD is not in the run, and other versions through matchPolicy Equivalent', async () => {
    const named = (version: string): string => `{operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["${version}"], resources: ["widgets"]}`;
    expect(await findings(configuration('Mutating', 'a', webhook('one.example.com', named('v1'))), configuration('Mutating', 'b', webhook('two.example.com', named('v1'))))).toEqual([
      expect.stringContaining('of CREATE widgets (example.com/v1) in an unlabelled namespace'),
    ]);
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Cluster
  versions:
    - {name: v1, served: true, storage: true}
    - {name: v2, served: true, storage: false}
`;
    expect(await findings(crd, configuration('Mutating', 'a', webhook('one.example.com', named('v1'))), configuration('Mutating', 'b', webhook('two.example.com', named('v2'))))).toEqual([
      expect.stringContaining('of CREATE widgets (example.com/v1) | '),
    ]);
  });

  it('names every webhook that runs before another without being reinvoked', async () => {
    const reinvoked = '    reinvocationPolicy: IfNeeded\n';
    const result = await findings(
      configuration('Mutating', 'a', webhook('one.example.com', PODS), webhook('two.example.com', PODS, reinvoked), webhook('three.example.com', PODS)),
      configuration('Mutating', 'b', webhook('four.example.com', PODS)),
    );
    expect(result).toEqual([expect.stringContaining('| "one.example.com" and "three.example.com" are not reinvoked after later mutations of CREATE pods (v1)')]);
  });
});
