import { isAtLeast } from '../src/kube/version.js';
import { isDefaulted, isFragment, isV1beta1, webhooksOf } from '../src/model/webhooks.js';
import { ALL_WEBHOOK_KINDS, defineObjectRule, type Violation } from '../src/rule.js';

const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const ALL_CLASSES = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];

type MessageId = 'missing' | 'unsupported' | 'legacyUnknown' | 'legacySome' | 'legacyDefault';

export const rule = defineObjectRule({
  meta: {
    id: 'side-effects',
    title: 'sideEffects is missing or not None/NoneOnDryRun, so the API server rejects it or dry-run requests fail',
    severity: 'error',
    appliesTo: ALL_WEBHOOK_KINDS,
    messages: {
      missing:
        'webhook "{{webhook}}" does not set sideEffects: webhooks[{{index}}].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      unsupported:
        'webhooks[{{index}}].sideEffects: Unsupported value: "{{value}}": supported values: "None", "NoneOnDryRun" (webhook "{{webhook}}")',
      legacyUnknown:
        'webhook "{{webhook}}" has sideEffects Unknown: dry-run requests it matches are rejected, even with failurePolicy Ignore',
      legacySome:
        'webhook "{{webhook}}" has sideEffects Some: dry-run requests it matches are rejected, even with failurePolicy Ignore',
      legacyDefault:
        'webhook "{{webhook}}" does not set sideEffects: the v1beta1 default Unknown rejects the dry-run requests it matches',
    },
    help: 'admissionregistration.k8s.io/v1 requires sideEffects and accepts only None and NoneOnDryRun; with Unknown or Some (v1beta1), dry-run requests (kubectl diff, kubectl apply --dry-run=server) are rejected, even with failurePolicy Ignore. Set sideEffects: None (or NoneOnDryRun if the webhook skips its side effects when request.dryRun is true).',
  },
  create(run) {
    return {
      webhookConfiguration(object) {
        const legacy = isV1beta1(object);
        // Not served from 1.22: removed-api-version reports the object; its dry-run behaviour is moot.
        if (legacy && isAtLeast(run.kubeVersion, 1, 22)) return [];
        // A patch fragment (no clientConfig or rules anywhere): api-validation reports it once.
        if (isFragment(object)) return [];
        return webhooksOf(object).flatMap((entry): Violation<MessageId>[] => {
          const path = [...entry.path, 'sideEffects'];
          const value = entry.webhook.sideEffects;
          const data = { webhook: entry.label, index: entry.index, value: value ?? '' };
          if (!legacy) {
            if (value === undefined || value === null) return [{ messageId: 'missing', data, path }];
            return NO_SIDE_EFFECTS.includes(value) ? [] : [{ messageId: 'unsupported', data, path }];
          }
          // v1beta1 objects: only legacy objects carry them, and dry-run is what breaks.
          if (value === undefined || value === null || NO_SIDE_EFFECTS.includes(value)) return [];
          if (!ALL_CLASSES.includes(value)) return [{ messageId: 'unsupported', data, path }];
          if (isDefaulted(object, path)) return [{ messageId: 'legacyDefault', data, path, severity: 'warning' }];
          return [{ messageId: value === 'Some' ? 'legacySome' : 'legacyUnknown', data, path, severity: 'warning' }];
        });
      },
    };
  },
});
