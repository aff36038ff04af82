/** timeout-budget beyond its fixtures: the API server's calling order, one finding per set, CONNECT. */
import { describe, expect, it } from 'vitest';
import { lintText, PODS_RULE as PODS, webhookConfiguration as configuration, webhookEntry } from './helpers.js';

const webhook = (name: string, timeout: number, rules: string, extra = ''): string => webhookEntry(name, rules, { timeout, extra });

/** The message, then the help, which lists every webhook of the set with its cost. */
const findings = async (...documents: string[]) =>
  (await lintText(documents.join('---\n'), { only: ['timeout-budget'] })).map((f) => `${f.object?.name} ${f.webhook} ${f.fieldPath} | ${f.message} | ${f.help}`);

describe('timeout-budget', () => {
  it('reports a set on its first webhook in calling order: mutating first, by configuration name, then list order', async () => {
    const result = await findings(
      configuration('Validating', 'a-policy', webhook('check.example.com', 10, PODS)),
      configuration('Mutating', 'z-mesh', webhook('proxy.example.com', 10, PODS)),
      configuration('Mutating', 'm-secrets', webhook('second.example.com', 10, PODS), webhook('first.example.com', 10, PODS)),
    );
    expect(result).toHaveLength(1);
    expect(result[0]).toMatch(
      /^m-secrets second\.example\.com webhooks\[0\] \| "second\.example\.com" and 3 more can make CREATE pods \(v1\) in an unlabelled namespace wait 40s \(budget 30s\) \| Worst case 40s: 30s for the mutating webhooks one after another, then 10s for the validating ones in parallel; the 4 webhooks in calling order: "second\.example\.com" \(mutating, 10s\), "first\.example\.com" \(mutating, 10s\), "proxy\.example\.com" \(mutating, 10s\), "check\.example\.com" \(validating, 10s\)\. /,
    );
  });

  it('reports a validating-only set on its first validating webhook', async () => {
    // Validating webhooks alone never add up: only reinvoked or sequential mutating ones do.
    expect(
      await findings(configuration('Validating', 'b', webhook('one.example.com', 30, PODS)), configuration('Validating', 'a', webhook('two.example.com', 30, PODS))),
    ).toEqual([]);
  });

  it('does not count objectSelector webhooks for CONNECT, which carries no object', async () => {
    const exec = '{operations: ["CONNECT"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/exec"]}';
    const selected = '    objectSelector: {matchLabels: {audit: "true"}}\n';
    expect(await findings(configuration('Mutating', 'exec', webhook('a.example.com', 20, exec, selected), webhook('b.example.com', 20, exec)))).toEqual([]);
    expect(await findings(configuration('Mutating', 'exec', webhook('a.example.com', 20, exec), webhook('b.example.com', 20, exec)))).toEqual([
      expect.stringContaining('| "a.example.com" and "b.example.com" can make CONNECT pods/exec (v1) in an unlabelled namespace wait 40s (budget 30s) |'),
    ]);
  });

  it('finds the sets of custom resources whose CRD is in the run, through their other versions too', async () => {
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
    const result = await findings(
      crd,
      configuration(
        'Mutating',
        'widgets',
        webhook('v1.example.com', 20, '{operations: ["UPDATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}'),
        webhook('v2.example.com', 20, '{operations: ["UPDATE"], apiGroups: ["example.com"], apiVersions: ["v2"], resources: ["widgets"]}'),
      ),
    );
    // matchPolicy Equivalent: a v1 request reaches the v2 webhook too. Cluster-scoped: no namespace.
    expect(result).toEqual([expect.stringContaining('"v1.example.com" and "v2.example.com" can make UPDATE widgets (example.com/v1) wait 40s')]);
  });

  it('a request that no webhook receives (admission configuration objects) does not hide a later request the same webhooks match', async () => {
    // Both webhooks match admissionregistration.k8s.io (exempt: never sent to webhooks) and CREATE customresourcedefinitions.
    const rules = '{operations: ["CREATE"], apiGroups: ["admissionregistration.k8s.io", "apiextensions.k8s.io"], apiVersions: ["*"], resources: ["*"], scope: "Cluster"}';
    const found = await findings(configuration('Validating', 'a', webhook('a.example.com', 20, rules)), configuration('Mutating', 'b', webhook('b.example.com', 20, rules)));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('CREATE customresourcedefinitions (apiextensions.k8s.io/v1)');
  });
});
