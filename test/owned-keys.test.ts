/**
 * The model of owned keys (src/match/owned-keys.ts): which prefixes are another domain's, and
 * the samples of the keyed maps a validation is evaluated over.
 */
import { describe, expect, it } from 'vitest';
import { foreignDomainOf, keyedSamples, REPRESENTATIVE_KEY, withKeyedSample } from '../src/match/owned-keys.js';

describe('foreignDomainOf', () => {
  it('names the domain of a prefixed key that is not Kubernetes\'', () => {
    expect(foreignDomainOf('restore.criu.org/checkpoint-path.')).toBe('restore.criu.org');
    expect(foreignDomainOf('iam.miloapis.com/registrationApproval')).toBe('iam.miloapis.com');
    // A different domain that merely ends in the same letters.
    expect(foreignDomainOf('notkubernetes.io/x')).toBe('notkubernetes.io');
  });

  it('leaves out Kubernetes\' reserved prefixes, unprefixed keys and what is not a DNS subdomain', () => {
    for (const key of ['kubernetes.io/x', 'app.kubernetes.io/managed-by', 'k8s.io/x', 'node.k8s.io/x', 'app', 'team/x', 'Example.com/x', '/x', 'a..b/x', 'example.com']) {
      expect(foreignDomainOf(key)).toBeUndefined();
    }
  });
});

describe('keyed samples', () => {
  it('gives every state of every map', () => {
    expect(keyedSamples(['object.metadata.labels', 'request.userInfo.extra'])).toHaveLength(9);
  });

  it('sets the maps where their object is there, without changing the context', () => {
    const context = { object: { metadata: { namespace: 'kube-system' } }, oldObject: null, request: { userInfo: { username: 'u' } } };
    const sample = new Map([
      ['object.metadata.labels', 'keyed'],
      ['oldObject.metadata.labels', 'keyed'],
      ['request.userInfo.extra', 'empty'],
    ] as const);
    const out = withKeyedSample(context, sample);
    expect(out).toEqual({
      object: { metadata: { namespace: 'kube-system', labels: { [REPRESENTATIVE_KEY]: 'admission-lint' } } },
      oldObject: null,
      request: { userInfo: { username: 'u', extra: {} } },
    });
    expect(context).toEqual({ object: { metadata: { namespace: 'kube-system' } }, oldObject: null, request: { userInfo: { username: 'u' } } });
  });
});
