/**
 * An object in admissionregistration.k8s.io whose kind the group never had: kubectl and the API
 * server answer `no matches for kind`, and nothing of it is applied. A misspelled kind is
 * otherwise a silent gap: the linter would count it among the documents of other kinds.
 */
import type { FieldPath } from '../src/field-path.js';
import { ADMISSION_GROUP_KINDS, isUnknownAdmissionKind } from '../src/model/types.js';
import { defineFileRule, type FileViolation } from '../src/rule.js';
import { closest } from '../src/text/closest.js';

type MessageId = 'unknown' | 'unknownDidYouMean';

const KIND: FieldPath = ['kind'];

export const rule = defineFileRule({
  meta: {
    id: 'unknown-kind',
    title: 'An admissionregistration.k8s.io object has a kind the group never had',
    severity: 'error',
    appliesTo: [],
    messages: {
      unknown: 'no matches for kind "{{kind}}" in version "{{apiVersion}}"',
      unknownDidYouMean: 'no matches for kind "{{kind}}" in version "{{apiVersion}}" (did you mean {{suggestion}}?)',
    },
    help: 'The API server has no such kind: kubectl apply fails and nothing of the object is applied. admissionregistration.k8s.io has ValidatingWebhookConfiguration, MutatingWebhookConfiguration, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding: write the kind you meant.',
  },
  checkFile(file) {
    const violations: FileViolation<MessageId>[] = [];
    for (const manifest of file.manifests) {
      const { apiVersion, kind } = manifest;
      if (!isUnknownAdmissionKind(apiVersion, kind)) continue;
      const suggestion = closest(kind, ADMISSION_GROUP_KINDS) ?? closestByParts(kind);
      const span = manifest.locate(KIND, 'value');
      violations.push({
        messageId: suggestion === undefined ? 'unknown' : 'unknownDidYouMean',
        data: { kind, apiVersion: apiVersion!, ...(suggestion === undefined ? {} : { suggestion }) },
        documentIndex: manifest.documentIndex,
        span,
      });
    }
    return violations;
  },
});

/**
 * A kind that holds a known kind's words in another order or with one more (`MutatingAdmissionWebhookConfiguration`):
 * the known kind whose every word it has, the longest such.
 */
function closestByParts(kind: string): string | undefined {
  const words = (name: string): string[] => name.match(/[A-Z][a-z]*/g) ?? [];
  const have = new Set(words(kind));
  const candidates = ADMISSION_GROUP_KINDS.filter((known) => !known.endsWith('List') && words(known).every((word) => have.has(word)));
  return candidates.sort((a, b) => words(b).length - words(a).length)[0];
}
