import { describe, expect, it } from 'vitest';
import { lintText } from './helpers.js';

describe('lintText', () => {
  it('reports an omitted failurePolicy at the webhook list item', async () => {
    const findings = await lintText(
      [
        'apiVersion: admissionregistration.k8s.io/v1',
        'kind: ValidatingWebhookConfiguration',
        'metadata: {name: demo}',
        'webhooks:',
        '  - name: demo.example.com',
        '    sideEffects: None',
        '    admissionReviewVersions: [v1]',
        '    clientConfig: {url: "https://demo.example.com/validate"}',
        '    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]',
        '',
      ].join('\n'),
      { only: ['implicit-failure-policy'] },
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ ruleId: 'implicit-failure-policy', fieldPath: 'webhooks[0].failurePolicy', line: 5, column: 5, severity: 'warning', file: '<stdin>' });
  });
});
