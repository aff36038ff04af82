/**
 * Inline suppressions (src/engine/suppressions.ts): every form (disable-next-line, disable-file,
 * the ignore annotation), what each covers, and the findings about the suppressions themselves
 * (suppression-without-reason, unused-suppression) with their positions.
 */
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import type { Finding } from '../src/engine/finding.js';
import { lint, type SeverityOverride } from '../src/engine/lint.js';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { lintText } from './helpers.js';

/** `ruleId@line:col-endLine:endCol`, plus the message for the suppression rules. */
function brief(findings: readonly Finding[]): string[] {
  return findings.map((f) => {
    const at = `${f.ruleId}@${f.line}:${f.column}-${f.endLine}:${f.endColumn}`;
    return f.ruleId === 'unused-suppression' || f.ruleId === 'suppression-without-reason' ? `${at} ${f.message}` : at;
  });
}

async function lintBrief(text: string, severityOverrides?: ReadonlyMap<string, SeverityOverride>): Promise<string[]> {
  return brief(await lintText(text, severityOverrides ? { severityOverrides } : {}));
}

/** A webhook whose only finding is implicit-failure-policy (on its list item), with `extra` lines in it. */
function webhook(name: string, extra: string[] = [], indent = '  '): string {
  return [
    `${indent}- name: ${name}.example.com`,
    `${indent}  admissionReviewVersions: ["v1"]`,
    `${indent}  sideEffects: None`,
    ...extra.map((line) => `${indent}  ${line}`),
    `${indent}  clientConfig:`,
    `${indent}    url: https://${name}.example.com/validate`,
    `${indent}  rules:`,
    `${indent}    - {operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]}`,
  ].join('\n');
}

function configuration(name: string, webhooks: string[], metadata: string[] = []): string {
  return [
    'apiVersion: admissionregistration.k8s.io/v1',
    'kind: ValidatingWebhookConfiguration',
    'metadata:',
    `  name: ${name}`,
    ...metadata.map((line) => `  ${line}`),
    'webhooks:',
    ...webhooks,
    '',
  ].join('\n');
}

describe('admission-lint-disable-next-line', () => {
  it('before a list item: suppresses the findings inside that item only', async () => {
    const text = configuration('widgets', [
      '  # admission-lint-disable-next-line timeout-out-of-range -- the webhook is measured to need 45 s',
      webhook('a', ['timeoutSeconds: 45']),
      webhook('b', ['timeoutSeconds: 45']),
    ]);
    // Line 7 is webhook a, line 15 webhook b; implicit-failure-policy names both at the first (one cause, one finding).
    expect(await lintBrief(text)).toEqual(['implicit-failure-policy@7:5-14:106', 'timeout-out-of-range@18:5-18:23']);
  });

  it('before a field: suppresses the findings on that field, not on its siblings', async () => {
    const text = configuration('widgets', [
      webhook('a', ['# admission-lint-disable-next-line timeout-out-of-range -- measured: 45 s is needed', 'timeoutSeconds: 45']),
      webhook('b', ['timeoutSeconds: 45']),
    ]);
    expect(await lintBrief(text)).toEqual([
      'implicit-failure-policy@6:5-14:106',
      'timeout-out-of-range@18:5-18:23',
    ]);
  });

  it('takes several rule ids, and stacked directives all apply to the node after them', async () => {
    const text = configuration('widgets', [
      '  # admission-lint-disable-next-line implicit-failure-policy -- legacy webhook',
      '  # admission-lint-disable-next-line timeout-out-of-range -- legacy webhook',
      webhook('a', ['timeoutSeconds: 45']),
    ]);
    expect(await lintBrief(text)).toEqual([]);
  });

  it('works on the items of a List', async () => {
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  # admission-lint-disable-next-line implicit-failure-policy -- fail-closed on purpose',
      ...configuration('a', [webhook('a')]).trimEnd().split('\n').map((line, i) => (i === 0 ? `  - ${line}` : `    ${line}`)),
      ...configuration('b', [webhook('b')]).trimEnd().split('\n').map((line, i) => (i === 0 ? `  - ${line}` : `    ${line}`)),
      '',
    ].join('\n');
    const findings = await lintText(text);
    expect(findings.map((f) => `${f.ruleId} ${f.object?.name}`)).toEqual(['implicit-failure-policy b']);
  });

  it('applies within its own document of a multi-document file', async () => {
    const text = [
      configuration('a', ['  # admission-lint-disable-next-line implicit-failure-policy -- fail-closed on purpose', webhook('a')]),
      '---\n',
      configuration('b', [webhook('b')]),
    ].join('');
    const findings = await lintText(text);
    expect(findings.map((f) => `${f.ruleId} ${f.documentIndex} ${f.object?.name}`)).toEqual(['implicit-failure-policy 1 b']);
  });

  it('cannot suppress yaml-syntax (the document has no fields), and says so', async () => {
    const text = ['# admission-lint-disable-next-line yaml-syntax -- generated file', 'a: 1', 'a: 2', ''].join('\n');
    expect(await lintBrief(text)).toEqual([
      'unused-suppression@1:36-1:47 admission-lint-disable-next-line cannot suppress yaml-syntax: a document that does not parse has no fields; use admission-lint-disable-file',
      'yaml-syntax@3:1-3:2',
    ]);
  });

  it('is not followed by a node when a blank line or the end of the file comes next', async () => {
    const text = configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy -- on purpose', '', webhook('a')])
      + '# admission-lint-disable-next-line implicit-failure-policy -- on purpose\n';
    expect(await lintBrief(text)).toEqual([
      'unused-suppression@6:3-6:75 admission-lint-disable-next-line is not followed by a field or list item on the next line',
      'implicit-failure-policy@8:5-14:106',
      'unused-suppression@15:1-15:73 admission-lint-disable-next-line is not followed by a field or list item on the next line',
    ]);
  });

  it('is only a comment on a line of its own: text in a block scalar is not a directive', async () => {
    const text = configuration('widgets', [webhook('a')], [
      'annotations:',
      '  notes: |',
      '    # admission-lint-disable-next-line implicit-failure-policy',
    ]);
    expect(await lintBrief(text)).toEqual(['implicit-failure-policy@9:5-15:106']);
  });
});

describe('a finding that reports one cause at several webhooks', () => {
  /** A webhook on pods that leaves failurePolicy to the API default (implicit-failure-policy, grouped per configuration). */
  const podHook = (name: string, extra: string[] = []): string =>
    webhook(name, extra).replace('apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"]', 'apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]');

  it('is hidden only when a suppression covers every webhook it names', async () => {
    const both = configuration('widgets', [
      '  # admission-lint-disable-next-line implicit-failure-policy -- Fail is wanted: the API default',
      podHook('a'),
      '  # admission-lint-disable-next-line implicit-failure-policy -- Fail is wanted: the API default',
      podHook('b'),
    ]);
    expect((await lintBrief(both)).filter((line) => line.startsWith('implicit-failure-policy'))).toEqual([]);
    // A sibling added under a configuration whose first webhook is suppressed is not hidden with it,
    // and the suppression that no longer covers the finding says so.
    const added = configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy -- Fail is wanted: the API default', podHook('a'), podHook('b')]);
    const found = await lintBrief(added);
    expect(found.some((line) => line.startsWith('implicit-failure-policy@'))).toBe(true);
    expect(found.some((line) => line.startsWith('unused-suppression@'))).toBe(true);
  });

  it('is not hidden by a directive on the line of one of its other places (s36a 2-A)', async () => {
    // One finding for both keys, at enforce: the directive beside audit covers audit only, and
    // does not reach the rest of the Namespace.
    const namespace = [
      'apiVersion: v1',
      'kind: Namespace',
      'metadata:',
      '  name: payments',
      '  annotations:',
      '    pod-security.kubernetes.io/enforce: restricted',
      '    pod-security.kubernetes.io/audit: restricted # admission-lint-disable-line pod-security-labels -- our exporter reads it',
      '',
    ].join('\n');
    const found = await lintBrief(namespace);
    expect(found.filter((line) => line.startsWith('pod-security-labels@'))).toEqual(['pod-security-labels@6:5-6:51']);
  });

  it('is hidden by a file-wide directive or the annotation, which cover every place', async () => {
    const file = `# admission-lint-disable-file implicit-failure-policy -- Fail is wanted\n${configuration('widgets', [podHook('a'), podHook('b')])}`;
    expect((await lintBrief(file)).filter((line) => line.startsWith('implicit-failure-policy'))).toEqual([]);
  });
});

describe('admission-lint-disable-file', () => {
  it('suppresses the rule in every document of the file, wherever it stands', async () => {
    const text = [
      configuration('a', [webhook('a')]),
      '---\n',
      '# admission-lint-disable-file implicit-failure-policy -- these webhooks are fail-closed on purpose\n',
      configuration('b', [webhook('b', ['timeoutSeconds: 45'])]),
    ].join('');
    expect(await lintBrief(text)).toEqual(['timeout-out-of-range@23:5-23:23']);
  });

  it('is the one form that suppresses yaml-syntax', async () => {
    const text = ['# admission-lint-disable-file yaml-syntax -- a fixture with a duplicate key', 'a: 1', 'a: 2', ''].join('\n');
    expect(await lintBrief(text)).toEqual([]);
  });

  it('only covers its own file', async () => {
    const text = configuration('a', [webhook('a')]);
    expect(await lintBrief(text)).toEqual(['implicit-failure-policy@6:5-12:106']);
  });
});

describe('the admission-lint.dev/ignore annotation', () => {
  it('suppresses the rules it names on its object, with a reason annotation', async () => {
    const text = configuration('widgets', [webhook('a', ['timeoutSeconds: 45'])], [
      'annotations:',
      '  admission-lint.dev/ignore: "implicit-failure-policy"',
      '  admission-lint.dev/ignore-reason: fail-closed on purpose',
    ]);
    expect(await lintBrief(text)).toEqual(['timeout-out-of-range@12:5-12:23']);
  });

  it('covers only its own object, also inside a List', async () => {
    const item = (name: string, metadata: string[]): string[] =>
      configuration(name, [webhook(name)], metadata).trimEnd().split('\n').map((line, i) => (i === 0 ? `  - ${line}` : `    ${line}`));
    const text = ['apiVersion: v1', 'kind: List', 'items:', ...item('a', ['annotations:', '  admission-lint.dev/ignore: implicit-failure-policy, long-timeout', '  admission-lint.dev/ignore-reason: legacy']), ...item('b', []), ''].join('\n');
    const findings = await lintText(text);
    expect(findings.map((f) => `${f.ruleId}@${f.line} ${f.object?.name}`)).toEqual([
      'unused-suppression@9 a',
      'implicit-failure-policy@24 b',
    ]);
    expect(findings[0]!.message).toBe('the admission-lint.dev/ignore annotation for long-timeout suppresses nothing: long-timeout reports no finding on this object');
    expect(findings[0]!.fieldPath).toBe('metadata.annotations[admission-lint.dev/ignore]');
  });

  it('works on Namespaces', async () => {
    const text = [
      'apiVersion: v1',
      'kind: Namespace',
      'metadata:',
      '  name: team',
      '  annotations:',
      '    admission-lint.dev/ignore: pod-security-labels',
      '    admission-lint.dev/ignore-reason: runs the CNI daemonset',
      '  labels:',
      '    pod-security.kubernetes.io/enforce: privileged',
      '',
    ].join('\n');
    expect(await lintBrief(text)).toEqual([]);
    expect(await lintBrief(text.replace(/ {4}admission-lint\.dev\/ignore: .*\n/, ''))).toEqual(['pod-security-labels@8:5-8:51']);
  });

  it('without admission-lint.dev/ignore-reason is suppression-without-reason, on the annotation', async () => {
    const text = configuration('widgets', [webhook('a')], ['annotations:', '  admission-lint.dev/ignore: implicit-failure-policy']);
    expect(await lintBrief(text)).toEqual([
      'suppression-without-reason@6:5-6:55 the admission-lint.dev/ignore annotation for implicit-failure-policy has no admission-lint.dev/ignore-reason annotation beside it',
    ]);
  });
});

describe('suppression-without-reason', () => {
  it('flags directives without " -- <reason>", on the comment', async () => {
    const text = configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy', webhook('a')]) + '#admission-lint-disable-file long-timeout --   \n';
    expect(await lintBrief(text)).toEqual([
      'suppression-without-reason@6:3-6:61 admission-lint-disable-next-line for implicit-failure-policy gives no reason',
      'suppression-without-reason@14:1-14:45 admission-lint-disable-file for long-timeout gives no reason',
      'unused-suppression@14:30-14:42 admission-lint-disable-file for long-timeout suppresses nothing: long-timeout reports no finding in this file',
    ]);
  });

  it('does not suppress the finding any less', async () => {
    const findings = await lintText(configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy', webhook('a')]));
    expect(findings.map((f) => f.ruleId)).toEqual(['suppression-without-reason']);
  });
});

describe('unused-suppression', () => {
  it('points at each rule id that suppressed nothing', async () => {
    const text = configuration('widgets', ['  # admission-lint-disable-next-line timeout-out-of-range,implicit-failure-policy,long-timeout -- legacy', webhook('a')]);
    expect(await lintBrief(text)).toEqual([
      'unused-suppression@6:38-6:58 admission-lint-disable-next-line for timeout-out-of-range suppresses nothing: timeout-out-of-range reports no finding in the field or list item after it',
      'unused-suppression@6:83-6:95 admission-lint-disable-next-line for long-timeout suppresses nothing: long-timeout reports no finding in the field or list item after it',
    ]);
  });

  it('names unknown rule ids, with the closest one', async () => {
    const text = configuration('widgets', ['  # admission-lint-disable-next-line implicit-failur-policy, frobnicate -- typo', webhook('a')]);
    expect(await lintBrief(text)).toEqual([
      'unused-suppression@6:38-6:60 admission-lint-disable-next-line names an unknown rule "implicit-failur-policy"; did you mean "implicit-failure-policy"?',
      'unused-suppression@6:62-6:72 admission-lint-disable-next-line names an unknown rule "frobnicate"',
      'implicit-failure-policy@7:5-13:106',
    ]);
  });

  it('has no wildcard, no empty list, and no other directive names', async () => {
    const text = configuration('widgets', [webhook('a')])
      + '# admission-lint-disable-file all -- everything\n# admission-lint-disable-file -- nothing\n# admission-lint-disable-lines implicit-failure-policy\n';
    expect(await lintBrief(text)).toEqual([
      'implicit-failure-policy@6:5-12:106',
      'unused-suppression@13:31-13:34 admission-lint-disable-file names "all"; there is no wildcard, each suppression names its rules',
      'unused-suppression@14:1-14:41 admission-lint-disable-file names no rule',
      'unused-suppression@15:1-15:55 "admission-lint-disable-lines" is not a directive (admission-lint-disable-next-line, admission-lint-disable-line, admission-lint-disable-file)',
    ]);
  });

  describe('where users write directives (issue 22)', () => {
    it('a trailing admission-lint-disable-line covers the findings that start on its line', async () => {
      const text = configuration('widgets', [webhook('a', ['timeoutSeconds: 45  # admission-lint-disable-line timeout-out-of-range -- measured: 45 s is needed'])]);
      expect(await lintBrief(text)).toEqual(['implicit-failure-policy@6:5-13:106']);
      const onName = configuration('widgets', [webhook('a').replace('- name: a.example.com', '- name: a.example.com  # admission-lint-disable-line implicit-failure-policy -- fail-closed on purpose')]);
      expect(await lintBrief(onName)).toEqual([]);
    });

    it('a # inside a quoted value is not a directive', async () => {
      const text = configuration('widgets', [webhook('a', ['timeoutSeconds: 45', 'matchPolicy: "# admission-lint-disable-line timeout-out-of-range -- no"'])]);
      expect((await lintBrief(text)).filter((f) => f.startsWith('timeout-out-of-range'))).toHaveLength(1);
    });

    it('admission-lint-disable-line on a line of its own says where it belongs', async () => {
      const text = configuration('widgets', ['  # admission-lint-disable-line implicit-failure-policy -- fail-closed', webhook('a')]);
      expect(await lintBrief(text)).toEqual([
        'unused-suppression@6:3-6:71 admission-lint-disable-line covers the line it ends, and this line has no field: put it at the end of the line, or use admission-lint-disable-next-line',
        'implicit-failure-policy@7:5-13:106',
      ]);
    });

    it('a directive above another field of the webhook covers the finding anchored at the webhook (its own node has none)', async () => {
      // implicit-failure-policy is anchored at the list item; users write the directive where failurePolicy would go.
      const text = configuration('widgets', [webhook('a', ['# admission-lint-disable-next-line implicit-failure-policy -- fail-closed on purpose', 'timeoutSeconds: 5'])]);
      expect(await lintBrief(text)).toEqual([]);
      const trailing = configuration('widgets', [webhook('a', ['timeoutSeconds: 5  # admission-lint-disable-line implicit-failure-policy -- fail-closed on purpose'])]);
      expect(await lintBrief(trailing)).toEqual([]);
    });

    it('above failurePolicy: covers self-deadlock and matches-kube-system, anchored at the webhook\'s rules', async () => {
      const text = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: policy}
webhooks:
  - name: pods.policy.example.com
    admissionReviewVersions: ["v1"]
    sideEffects: None
    # admission-lint-disable-next-line self-deadlock, matches-kube-system -- a standby replica answers during rollouts
    failurePolicy: Fail
    clientConfig:
      service: {namespace: policy-system, name: policy-webhook, path: /validate}
    rules:
      - {operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}
`;
      const without = await lintBrief(text.replace(/ +# admission-lint-disable-next-line.*\n/, ''));
      expect(without.filter((f) => /^(self-deadlock|matches-kube-system)@12:/.test(f))).toHaveLength(2);
      const withIt = await lintBrief(text);
      expect(withIt.filter((f) => /^(self-deadlock|matches-kube-system|unused-suppression)@/.test(f))).toEqual([]);
    });

    it('a trailing admission-lint-disable-next-line covers the field on the next line', async () => {
      const text = configuration('widgets', [webhook('a', ['matchPolicy: Equivalent  # admission-lint-disable-next-line timeout-out-of-range -- measured', 'timeoutSeconds: 45'])]);
      expect((await lintBrief(text)).filter((f) => !f.startsWith('implicit-failure-policy'))).toEqual([]);
    });

    it('does not reach another webhook, and says where the finding is', async () => {
      const text = configuration('widgets', [webhook('a', ['failurePolicy: Fail', '# admission-lint-disable-next-line implicit-failure-policy -- fail-closed on purpose', 'timeoutSeconds: 5']), webhook('b')]);
      expect(await lintBrief(text)).toEqual([
        'unused-suppression@10:40-10:63 admission-lint-disable-next-line for implicit-failure-policy suppresses nothing here: its finding is on line 16; move the directive to the line above that one',
        'implicit-failure-policy@16:5-22:106',
      ]);
    });

    it('a directive whose own node has the finding does not reach further', async () => {
      const text = configuration('widgets', [
        webhook('a', ['timeoutSeconds: 45', 'objectSelector:', '  # admission-lint-disable-next-line editable-object-selector -- only our controller sets it', '  matchExpressions: [{key: team, operator: NotIn, values: [x]}]']),
      ]);
      const before = await lintBrief(text.replace(/ +# admission-lint-disable-next-line.*\n/, ''));
      expect(before.filter((f) => f.startsWith('editable-object-selector'))).toHaveLength(1);
      expect((await lintBrief(text)).filter((f) => f.startsWith('editable-object-selector') || f.startsWith('unused'))).toEqual([]);
    });
  });

  it('cannot suppress the suppression rules themselves', async () => {
    const text = '# admission-lint-disable-file suppression-without-reason, unused-suppression -- quiet\n' + configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy', webhook('a')]);
    expect(await lintBrief(text)).toEqual([
      'unused-suppression@1:31-1:57 admission-lint-disable-file cannot suppress suppression-without-reason; turn it off with --rule suppression-without-reason=off',
      'unused-suppression@1:59-1:77 admission-lint-disable-file cannot suppress unused-suppression; turn it off with --rule unused-suppression=off',
      'suppression-without-reason@7:3-7:61 admission-lint-disable-next-line for implicit-failure-policy gives no reason',
    ]);
  });

  it('does not report a suppression of a rule that is turned off', async () => {
    const text = configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy, long-timeout -- legacy', webhook('a')]);
    expect(await lintBrief(text, new Map([['long-timeout', 'off']]))).toEqual([]);
    expect(await lintBrief(text, new Map([['implicit-failure-policy', 'off'], ['long-timeout', 'off']]))).toEqual([]);
  });

  it('follows --rule for its own severity, and for suppression-without-reason', async () => {
    const text = configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy, long-timeout', webhook('a')]);
    expect(await lintBrief(text, new Map([['unused-suppression', 'off'], ['suppression-without-reason', 'off']]))).toEqual([]);
    const findings = await lintText(text, { severityOverrides: new Map([['unused-suppression', 'error']]) });
    expect(findings.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['suppression-without-reason warning', 'unused-suppression error']);
  });
});

describe('the report', () => {
  it('does not count suppressed findings in the summary', async () => {
    const text = configuration('widgets', ['  # admission-lint-disable-next-line implicit-failure-policy, timeout-out-of-range -- legacy', webhook('a', ['timeoutSeconds: 45'])]);
    const report = await lint({
      paths: ['-'],
      rules,
      kubeVersion: DEFAULT_KUBE_VERSION,
      trustedNamespaceLabels: [],
      severityOverrides: new Map([['long-timeout', 'off']]),
      toolVersion: 'test',
      readStdin: () => new TextEncoder().encode(text),
    });
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 0, infos: 0 });
  });
});
