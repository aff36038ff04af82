/**
 * Which objects and requests the PodSecurity admission plugin evaluates. Each case names the
 * upstream test or code it follows in k8s.io/pod-security-admission admission/admission.go and
 * admission_test.go (TestDefaultExtractPodSpec, TestDefaultHasPodSpec,
 * TestValidatePodAndController), and kubernetes plugin/pkg/admission/security/podsecurity/admission.go.
 */
import { describe, expect, it } from 'vitest';
import { isSignificantPodUpdate, podTemplateOf, psaRequestCheck, psaWorkloadOf, PSA_WORKLOADS } from '../src/psa/workloads.js';

const metadata = { name: 'foo-pod' };
const spec = { containers: [{ name: 'foo-container' }] };
const template = { metadata, spec };

describe('podTemplateOf (TestDefaultExtractPodSpec: every kind yields the same metadata and spec)', () => {
  it.each([
    ['Pod', 'v1', { metadata, spec }, ['metadata'], ['spec']],
    ['PodTemplate', 'v1', { metadata: { name: 'foo-template' }, template }, ['template', 'metadata'], ['template', 'spec']],
    ['ReplicationController', 'v1', { metadata: { name: 'foo-rc' }, spec: { template } }, ['spec', 'template', 'metadata'], ['spec', 'template', 'spec']],
    ['ReplicaSet', 'apps/v1', { metadata: { name: 'foo-rs' }, spec: { template } }, ['spec', 'template', 'metadata'], ['spec', 'template', 'spec']],
    ['Deployment', 'apps/v1', { metadata: { name: 'foo-deployment' }, spec: { template } }, ['spec', 'template', 'metadata'], ['spec', 'template', 'spec']],
    ['StatefulSet', 'apps/v1', { metadata: { name: 'foo-ss' }, spec: { template } }, ['spec', 'template', 'metadata'], ['spec', 'template', 'spec']],
    ['DaemonSet', 'apps/v1', { metadata: { name: 'foo-ds' }, spec: { template } }, ['spec', 'template', 'metadata'], ['spec', 'template', 'spec']],
    ['Job', 'batch/v1', { metadata: { name: 'foo-job' }, spec: { template } }, ['spec', 'template', 'metadata'], ['spec', 'template', 'spec']],
    ['CronJob', 'batch/v1', { spec: { jobTemplate: { spec: { template } } } }, ['spec', 'jobTemplate', 'spec', 'template', 'metadata'], ['spec', 'jobTemplate', 'spec', 'template', 'spec']],
    ['CronJob', 'batch/v1beta1', { spec: { jobTemplate: { spec: { template } } } }, ['spec', 'jobTemplate', 'spec', 'template', 'metadata'], ['spec', 'jobTemplate', 'spec', 'template', 'spec']],
  ])('%s %s', (kind, apiVersion, object, metadataPath, specPath) => {
    expect(podTemplateOf(kind, apiVersion, object)).toEqual({ metadataPath, specPath, metadata, spec });
  });

  it.each([
    ['Service', 'v1', 'TestDefaultExtractPodSpec: a Service has no pod spec'],
    ['Deployment', 'extensions/v1beta1', 'defaultPodSpecResources: group extensions is not listed'],
    ['Deployment', 'apps/v1beta2', 'not served on any cluster with the plugin (removed in 1.16)'],
    ['deployment', 'apps/v1', 'kinds are case-sensitive'],
    ['Job', 'v1', 'Job is in batch, not the core group'],
    ['CronJob', 'batch/v2alpha1', 'never served by default'],
  ])('%s %s: not evaluated (%s)', (kind, apiVersion) => {
    expect(podTemplateOf(kind, apiVersion, { spec: { template } })).toBeUndefined();
  });

  it('a ReplicationController without a template has no pod to check (extractPodSpecFromTemplate(nil) → nil, nil)', () => {
    expect(podTemplateOf('ReplicationController', 'v1', { spec: {} })).toBeUndefined();
    expect(podTemplateOf('ReplicationController', 'v1', { spec: { template: null } })).toBeUndefined();
    expect(podTemplateOf('ReplicationController', 'v1', {})).toBeUndefined();
  });

  it('a Deployment without a template is an empty pod, which is evaluated (TestValidatePodAndController "no pod template"; Template is not a pointer)', () => {
    expect(podTemplateOf('Deployment', 'apps/v1', { spec: {} })).toEqual({ metadataPath: ['spec', 'template', 'metadata'], specPath: ['spec', 'template', 'spec'], metadata: {}, spec: {} });
    expect(podTemplateOf('CronJob', 'batch/v1', { spec: { jobTemplate: null } })).toMatchObject({ metadata: {}, spec: {} });
    expect(podTemplateOf('Pod', 'v1', { metadata: null })).toEqual({ metadataPath: ['metadata'], specPath: ['spec'], metadata: {}, spec: {} });
  });

  it.each([
    ['the object is not a mapping', 'Deployment', 'apps/v1', ['spec']],
    ['spec is a list', 'Deployment', 'apps/v1', { spec: [template] }],
    ['template is a string', 'Job', 'batch/v1', { spec: { template: 'pod.yaml' } }],
    ['the pod spec is a list', 'Pod', 'v1', { spec: [] }],
    ['the template metadata is a string', 'DaemonSet', 'apps/v1', { spec: { template: { metadata: 'x', spec } } }],
    ['jobTemplate.spec is a number', 'CronJob', 'batch/v1', { spec: { jobTemplate: { spec: 1 } } }],
  ])('wrong types: %s (the object cannot be decoded, so no request carries it)', (_name, kind, apiVersion, object) => {
    expect(podTemplateOf(kind, apiVersion, object)).toBeUndefined();
  });

  it('missing kind or apiVersion', () => {
    expect(podTemplateOf(undefined, 'v1', { spec })).toBeUndefined();
    expect(podTemplateOf('Pod', undefined, { spec })).toBeUndefined();
  });

  it('only pods are enforced; workloads are audited and warned about (TestValidatePodAndController: "PodController validation is always non-enforcing")', () => {
    expect(PSA_WORKLOADS.filter((workload) => workload.enforced).map((workload) => workload.kind)).toEqual(['Pod']);
    expect(psaWorkloadOf('CronJob', 'batch/v1beta1')?.versions).toContainEqual({ version: 'v1beta1', removedIn: 25 });
  });
});

describe('psaRequestCheck (admission.go Validate and its short-circuits)', () => {
  const request = (operation: string, group: string, resource: string, subresource = '') => ({ operation, group, resource, subresource });

  it('the resources it evaluates are exactly defaultPodSpecResources plus namespaces (TestDefaultHasPodSpec; applicableResources)', () => {
    expect(PSA_WORKLOADS.map((workload) => `${workload.group}/${workload.resource}`).sort()).toEqual(
      ['/pods', '/replicationcontrollers', '/podtemplates', 'apps/replicasets', 'apps/deployments', 'apps/statefulsets', 'apps/daemonsets', 'batch/jobs', 'batch/cronjobs'].sort(),
    );
  });

  it.each([
    ['pod CREATE', request('CREATE', '', 'pods'), { checked: true, what: 'pod', enforced: true, onlySignificantUpdates: false }],
    ['pod UPDATE: only significant updates (isSignificantPodUpdate)', request('UPDATE', '', 'pods'), { checked: true, what: 'pod', enforced: true, onlySignificantUpdates: true }],
    ['pod DELETE (admission.NewHandler(Create, Update))', request('DELETE', '', 'pods'), { checked: false, why: 'operation' }],
    ['pods/exec CONNECT', request('CONNECT', '', 'pods', 'exec'), { checked: false, why: 'operation' }],
    ['pods/status UPDATE ("ignored subresource")', request('UPDATE', '', 'pods', 'status'), { checked: false, why: 'subresource' }],
    ['pods/binding CREATE (ignoredPodSubresources)', request('CREATE', '', 'pods', 'binding'), { checked: false, why: 'subresource' }],
    ['pods/eviction CREATE (ignoredPodSubresources)', request('CREATE', '', 'pods', 'eviction'), { checked: false, why: 'subresource' }],
    ['pods/ephemeralcontainers UPDATE: checked as a pod', request('UPDATE', '', 'pods', 'ephemeralcontainers'), { checked: true, what: 'pod', enforced: true, onlySignificantUpdates: true }],
    ['pods/resize UPDATE: not in the ignored list', request('UPDATE', '', 'pods', 'resize'), { checked: true, what: 'pod', enforced: true, onlySignificantUpdates: true }],
    ['deployment CREATE (ValidatePodController, never enforced)', request('CREATE', 'apps', 'deployments'), { checked: true, what: 'pod-template', enforced: false }],
    ['cronjob UPDATE', request('UPDATE', 'batch', 'cronjobs'), { checked: true, what: 'pod-template', enforced: false }],
    ['deployments/scale UPDATE ("short-circuit on subresources")', request('UPDATE', 'apps', 'deployments', 'scale'), { checked: false, why: 'subresource' }],
    ['replicationcontrollers/status UPDATE', request('UPDATE', '', 'replicationcontrollers', 'status'), { checked: false, why: 'subresource' }],
    ['namespace CREATE (ValidateNamespace)', request('CREATE', '', 'namespaces'), { checked: true, what: 'namespace' }],
    ['namespaces/finalize UPDATE (ValidateNamespace short-circuits on subresources)', request('UPDATE', '', 'namespaces', 'finalize'), { checked: false, why: 'subresource' }],
    ['services CREATE (TestDefaultHasPodSpec nonPodResources)', request('CREATE', '', 'services'), { checked: false, why: 'resource' }],
    ['apps/foobars (TestDefaultHasPodSpec nonPodResources)', request('CREATE', 'apps', 'foobars'), { checked: false, why: 'resource' }],
    ['extensions deployments (group extensions is not listed)', request('CREATE', 'extensions', 'deployments'), { checked: false, why: 'resource' }],
  ])('%s', (_name, input, expected) => {
    expect(psaRequestCheck(input)).toEqual(expected);
  });
});

describe('isSignificantPodUpdate (admission.go; TestValidatePodAndController "insignificant update", "significant update …")', () => {
  const pod = (podSpec: unknown) => ({ spec: podSpec });
  const base = { containers: [{ name: 'a', image: 'a:1' }], initContainers: [{ name: 'i', image: 'i:1' }] };
  it.each([
    ['a toleration added ("insignificant update")', { ...base, tolerations: [{ operator: 'Exists' }] }, base, false],
    ['an image changed ("significant update denied")', { ...base, containers: [{ name: 'a', image: 'a:2' }] }, base, true],
    ['an init container image changed', { ...base, initContainers: [{ name: 'i', image: 'i:2' }] }, base, true],
    ['a container added', { ...base, containers: [...base.containers, { name: 'b', image: 'b' }] }, base, true],
    ['resources changed (a resize)', { ...base, containers: [{ name: 'a', image: 'a:1', resources: { limits: { cpu: '2' } } }] }, base, false],
    ['a container renamed, same image (only images are compared)', { ...base, containers: [{ name: 'z', image: 'a:1' }] }, base, false],
    ['an ephemeral container added (kubectl debug)', { ...base, ephemeralContainers: [{ name: 'debugger', image: 'busybox' }] }, base, true],
    ['an ephemeral container kept', { ...base, ephemeralContainers: [{ name: 'd', image: 'busybox' }] }, { ...base, ephemeralContainers: [{ name: 'd', image: 'busybox' }] }, false],
    ['an ephemeral container\'s image changed (matched by name)', { ...base, ephemeralContainers: [{ name: 'd', image: 'alpine' }] }, { ...base, ephemeralContainers: [{ name: 'd', image: 'busybox' }] }, true],
    ['an ephemeral container removed (only new ones are looked at)', base, { ...base, ephemeralContainers: [{ name: 'd', image: 'busybox' }] }, false],
    ['no containers field on either side (len(nil) == 0)', {}, { containers: null }, false],
    ['a missing image equals an empty one (Go zero value)', { containers: [{ name: 'a' }] }, { containers: [{ name: 'a', image: '' }] }, false],
  ])('%s → %s', (_name, newSpec, oldSpec, significant) => {
    expect(isSignificantPodUpdate(pod(newSpec), pod(oldSpec))).toBe(significant);
  });
});
