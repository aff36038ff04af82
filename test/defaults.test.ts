/** API defaulting (facts §1): only absent or null fields are filled, never the written tree. */
import { describe, expect, it } from 'vitest';
import { defaultWebhookConfiguration } from '../src/defaults/webhooks.js';

const written = () => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name: 'm' },
  webhooks: [
    {
      name: 'a.example.com',
      timeoutSeconds: 0,
      failurePolicy: null,
      clientConfig: { service: { namespace: 'n', name: 's' } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }, { scope: 'Cluster' }],
    },
  ],
});

describe('defaultWebhookConfiguration', () => {
  it('applies the v1 defaults and records what it filled', () => {
    const source = written();
    const { effective, defaulted } = defaultWebhookConfiguration(source, 'admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration');
    const webhook = (effective as ReturnType<typeof written>).webhooks[0]! as Record<string, unknown>;
    expect(webhook).toMatchObject({ failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 0, reinvocationPolicy: 'Never' });
    expect(webhook.sideEffects).toBeUndefined();
    expect(webhook.admissionReviewVersions).toBeUndefined();
    expect(webhook.clientConfig).toEqual({ service: { namespace: 'n', name: 's', port: 443 } });
    expect([...defaulted].sort()).toEqual(
      [
        'webhooks[0].clientConfig.service.port',
        'webhooks[0].failurePolicy',
        'webhooks[0].matchPolicy',
        'webhooks[0].namespaceSelector',
        'webhooks[0].objectSelector',
        'webhooks[0].reinvocationPolicy',
        'webhooks[0].rules[0].scope',
      ].sort(),
    );
    expect(source).toEqual(written());
  });

  it('applies the v1beta1 defaults', () => {
    const { effective } = defaultWebhookConfiguration(written(), 'admissionregistration.k8s.io/v1beta1', 'ValidatingWebhookConfiguration');
    const webhook = (effective as ReturnType<typeof written>).webhooks[0]! as Record<string, unknown>;
    expect(webhook).toMatchObject({ failurePolicy: 'Ignore', matchPolicy: 'Exact', sideEffects: 'Unknown', admissionReviewVersions: ['v1beta1'] });
    expect(webhook.reinvocationPolicy).toBeUndefined();
  });

  it('leaves malformed structure alone', () => {
    expect(defaultWebhookConfiguration({ webhooks: 'x' }, 'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration').defaulted.size).toBe(0);
    expect(defaultWebhookConfiguration({ webhooks: [null, 3] }, 'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration').defaulted.size).toBe(0);
  });
});
