import { formatKubeVersion, isAtLeast } from '../src/kube/version.js';
import { isV1beta1 } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule } from '../src/rule.js';

export const rule = defineObjectRule({
  meta: {
    id: 'removed-api-version',
    title: 'admissionregistration.k8s.io/v1beta1 webhook configurations are not served since Kubernetes 1.22',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      removed:
        '{{kind}} in admissionregistration.k8s.io/v1beta1 is not served since Kubernetes 1.22 (target: {{target}}); the API server rejects it. Move to admissionregistration.k8s.io/v1, whose defaults differ: failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10, and sideEffects and admissionReviewVersions are required',
    },
    help: 'Set apiVersion: admissionregistration.k8s.io/v1 and write failurePolicy, sideEffects, timeoutSeconds and admissionReviewVersions explicitly.',
    needsDecodableObject: false,
  },
  check(object, context) {
    if (!isV1beta1(object) || !isAtLeast(context.kubeVersion, 1, 22)) return [];
    return [{ messageId: 'removed', data: { kind: object.kind, target: formatKubeVersion(context.kubeVersion) }, path: ['apiVersion'] }];
  },
});
