/** Every rule, listed explicitly (no directory scanning), in the order `admission-lint rules` prints. */
import type { Rule } from '../src/rule.js';
import { rule as apiValidation } from './api-validation.js';
import { rule as editableNamespaceSelector } from './editable-namespace-selector.js';
import { rule as editableObjectSelector } from './editable-object-selector.js';
import { rule as implicitFailurePolicy } from './implicit-failure-policy.js';
import { rule as matchesKubeSystem } from './matches-kube-system.js';
import { rule as nonIdempotentMutator } from './non-idempotent-mutator.js';
import { rule as removedApiVersion } from './removed-api-version.js';
import { rule as schema } from './schema.js';
import { rule as sideEffects } from './side-effects.js';
import { rule as timeoutOutOfRange } from './timeout-out-of-range.js';
import { rule as yamlSyntax } from './yaml-syntax.js';
import { rule as criticalResources } from './critical-resources.js';
import { rule as selfDeadlock } from './self-deadlock.js';
import { rule as longTimeout } from './long-timeout.js';
import { rule as timeoutBudget } from './timeout-budget.js';
import { rule as unknownResource } from './unknown-resource.js';
import { rule as unreachableRule } from './unreachable-rule.js';
import { rule as wildcardRule } from './wildcard-rule.js';
import { rule as matchPolicyExact } from './match-policy-exact.js';
import { rule as caBundle } from './ca-bundle.js';
import { rule as clientConfigUrl } from './client-config-url.js';
import { rule as webhookServiceMissing } from './webhook-service-missing.js';
import { rule as webhookServicePort } from './webhook-service-port.js';
import { rule as webhookNetworkPolicy } from './webhook-network-policy.js';
import { rule as genericConfigurationName } from './generic-configuration-name.js';
import { rule as admissionReviewVersions } from './admission-review-versions.js';
import { rule as matchConditionNullObject } from './match-condition-null-object.js';
import { rule as undefinedField } from './undefined-field.js';
import { rule as matchConditionMissingField } from './match-condition-missing-field.js';
import { rule as initContainersUnchecked } from './init-containers-unchecked.js';
import { rule as scaleSubresourceUnchecked } from './scale-subresource-unchecked.js';
import { rule as containerOverridesPodCheck } from './container-overrides-pod-check.js';
import { rule as namespaceOptsOut } from './namespace-opts-out.js';
import { rule as podSecurityLabels } from './pod-security-labels.js';
import { rule as podSecurity } from './pod-security.js';
import { rule as failOpen } from './fail-open.js';
import { rule as mutatorOrdering } from './mutator-ordering.js';
import { rule as policyWithoutBinding } from './policy-without-binding.js';
import { rule as bindingWithoutPolicy } from './binding-without-policy.js';
import { rule as validationActions } from './validation-actions.js';
import { rule as paramScope } from './param-scope.js';
import { rule as suppressionWithoutReason } from './suppression-without-reason.js';
import { rule as unusedSuppression } from './unused-suppression.js';
import { rule as kustomizePatched } from './kustomize-patched.js';
import { rule as unknownKind } from './unknown-kind.js';

export const rules: readonly Rule[] = [
  yamlSyntax,
  unknownKind,
  schema,
  apiValidation,
  removedApiVersion,
  implicitFailurePolicy,
  timeoutOutOfRange,
  sideEffects,
  editableNamespaceSelector,
  editableObjectSelector,
  matchesKubeSystem,
  nonIdempotentMutator,
  criticalResources,
  selfDeadlock,
  longTimeout,
  timeoutBudget,
  unknownResource,
  unreachableRule,
  wildcardRule,
  matchPolicyExact,
  caBundle,
  clientConfigUrl,
  webhookServiceMissing,
  webhookServicePort,
  webhookNetworkPolicy,
  genericConfigurationName,
  admissionReviewVersions,
  matchConditionNullObject,
  matchConditionMissingField,
  undefinedField,
  initContainersUnchecked,
  scaleSubresourceUnchecked,
  containerOverridesPodCheck,
  namespaceOptsOut,
  podSecurityLabels,
  podSecurity,
  failOpen,
  mutatorOrdering,
  policyWithoutBinding,
  bindingWithoutPolicy,
  validationActions,
  paramScope,
  kustomizePatched,
  suppressionWithoutReason,
  unusedSuppression,
] as Rule[];
